import DBus
import Dispatch
import FoundationEssentials
import LiveState
import LiveView
import Platform
import Synchronization
import SessionState
import Session

/// `io.hrbridge.Bridge1` served for the sessions of one run: pause, resume, label and end go to
/// the session, whose own update then reaches the activity (as the Live Activity's intent buttons
/// would). Work runs off the bus queue: an end flushes sinks, a status waits for the session's queue.
public final class ControlService: Sendable {
    private let connection: BusConnection
    private let controls: SessionControls
    /// Calls not answered yet: `close()` lets them answer first (an End ends the session, and so the
    /// run, before its reply goes out).
    private let inFlight = DispatchGroup()
    /// How long `close()` waits for them; an End flushing its sinks is the longest.
    private static let closeWait: DispatchTimeInterval = .seconds(5)

    private init(connection: BusConnection, controls: SessionControls) {
        self.connection = connection
        self.controls = controls
    }

    /// Owns the name on `choice`'s bus and serves the interface; nil for `--control-bus none`, or
    /// when the default session bus is absent (said on stderr: nothing else depends on it).
    public static func start(_ choice: ControlBus, controls: SessionControls, console: any SessionConsole) throws(SessionError) -> ControlService? {
        guard let bus = choice.bus else { return nil }
        if !choice.explicit, !ControlBus.sessionBusConfigured(ProcessInfo.processInfo.environment) {
            // Asking libdbus anyway could make it autolaunch a bus of its own for X11.
            console.warn("control: no session bus (DBUS_SESSION_BUS_ADDRESS unset); 'hrbridge ctl' cannot reach this run")
            return nil
        }
        let result: Result<ControlService, BusError> = runBlocking {
            do throws(BusError) {
                let connection = try await BusConnection.connect(to: bus)
                let service = ControlService(connection: connection, controls: controls)
                do throws(BusError) {
                    try await connection.export(service.exportedObject())
                    try await connection.requestName(BridgeControlInterface.busName)
                } catch {
                    await connection.close()
                    throw error
                }
                return .success(service)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case let .success(service):
            console.warn("control: \(BridgeControlInterface.busName) on \(bus) ('hrbridge ctl\(choice.ctlFlag) status')")
            return service
        case let .failure(.nameTaken(name, owner)):
            throw .inUse("\(name) is already owned on \(bus)\(owner.map { " by \($0)" } ?? ""): another hrbridge "
                + "takes the controls there; stop it, or start this one with --control-bus none")
        case let .failure(.cannotConnect(_, _, message)) where !choice.explicit:
            console.warn("control: no \(bus) (\(message)); 'hrbridge ctl' cannot reach this run")
            return nil
        case let .failure(error) where error.name == BusErrorName.accessDenied:
            throw .unavailable("control: not allowed to own \(BridgeControlInterface.busName) on \(bus) (\(error)): "
                + "install the D-Bus policy udev/io.hrbridge.Bridge1.conf (scripts/install) and run as user hrbridge, or use --control-bus session")
        case let .failure(error):
            throw .unavailable("control: \(bus): \(error); use --control-bus none to run without controls")
        }
    }

    public func close() {
        _ = inFlight.wait(timeout: .now() + Self.closeWait)
        runBlocking { [connection] in await connection.close() }
    }

    private func exportedObject() -> BusExportedObject {
        BusExportedObject(
            path: BridgeControlInterface.path, interfaces: [BridgeControlInterface.description],
            properties: { [self] _ in
                ["Straps": .strings(controls.targets.map(\.name)), "Status": .string(statusText(controls.targets))]
            },
            handleCall: { [self] call in
                let answer = ControlAnswer(call, inFlight)
                // A thread per call, off the bus queue (an End waits for the sinks): calls are rare,
                // and libdispatch's concurrent pool would start its every-second monitor (TaskQueue).
                NamedThread.start("hrbridge.ctl") { self.handle(answer) }
            }
        )
    }

    // MARK: - Off the bus queue

    private func handle(_ call: ControlAnswer) {
        let strings = call.arguments.compactMap(\.string)
        guard strings.count == call.arguments.count else {
            return call.fail(BusErrorName.invalidArgs, "\(call.member) takes string arguments")
        }
        let takesLabel = call.member == "SetLabel"
        let required = takesLabel ? 1 : 0
        guard strings.count == required || strings.count == required + 1 else {
            return call.fail(BusErrorName.invalidArgs, "\(call.member) takes \(takesLabel ? "a label and " : "")an optional strap")
        }
        let selector = strings.count > required ? strings[required] : ""
        let chosen = controls.targets(strap: selector)
        guard !chosen.isEmpty else {
            return call.fail(BridgeControlInterface.ErrorName.unknownStrap,
                             "no strap '\(selector)' in this run; it has: \(controls.targets.map(\.name).joined(separator: ", "))")
        }
        switch BridgeControlInterface.action(method: call.member, label: takesLabel ? strings[0] : nil) {
        case nil where call.member == "Status": call.reply([.string(statusText(chosen))])
        case nil where call.member == "Sensors":
            call.reply([.array(elementSignature: "a{sv}", chosen.flatMap { $0.sensorStatus().map(\.busValue) })])
        case nil: call.fail(BusErrorName.unknownMethod, "\(call.member)")
        case let .failure(refusal)?: call.fail(BusErrorName.invalidArgs, "\(refusal)")
        case let .success(action)?: answer(controls.apply(action, to: chosen), call) // on this call's own thread
        }
    }

    private func statusText(_ chosen: [SessionControls.Target]) -> String {
        chosen.map { "\($0.name): \($0.session.status().line)" }.joined(separator: "\n")
    }

    /// Done if any chosen session took it; refusals are named; all ended is NotRunning.
    private func answer(_ outcomes: [(target: SessionControls.Target, outcome: ControlOutcome)], _ call: ControlAnswer) {
        let refusals = outcomes.compactMap { entry -> String? in
            guard case let .refused(reason) = entry.outcome else { return nil }
            return "\(entry.target.name): \(reason)"
        }
        if !refusals.isEmpty { return call.fail(BridgeControlInterface.ErrorName.refused, refusals.joined(separator: "; ")) }
        guard outcomes.contains(where: { if case .applied = $0.outcome { true } else { false } }) else {
            return call.fail(BridgeControlInterface.ErrorName.notRunning,
                             "\(outcomes.map(\.target.name).joined(separator: ", ")): \(ControlOutcome.endedText)")
        }
        call.reply()
    }
}

/// A call's answer that also marks it done in the service's in-flight group (once).
private final class ControlAnswer: Sendable {
    private let invocation: BusMethodInvocation
    private let group: DispatchGroup
    private let done = Atomic<Bool>(false)

    init(_ invocation: BusMethodInvocation, _ group: DispatchGroup) {
        self.invocation = invocation
        self.group = group
        group.enter()
    }

    var member: String { invocation.member }
    var arguments: [BusValue] { invocation.arguments }

    func reply(_ values: [BusValue] = []) {
        invocation.reply(values)
        leave()
    }

    func fail(_ name: String, _ text: String) {
        invocation.fail(name, text)
        leave()
    }

    private func leave() {
        if !done.exchange(true, ordering: .acquiringAndReleasing) { group.leave() }
    }
}
