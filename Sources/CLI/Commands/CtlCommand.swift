import DBus
import LiveState
import BusControl
import Platform

/// `hrbridge ctl`: the command-line side of `io.hrbridge.Bridge1`, steering a running `run` (or
/// paced `replay`) as the Live Activity's buttons would.
enum CtlCommand {
    static let spec = CommandSpec(
        name: "ctl",
        summary: "Pause, resume, label, end or show the activities of a running hrbridge.",
        options: [
            .init(name: "--strap", valueName: "ADDRESS|NAME", help: "only this strap (default: every strap of the run)"),
            .init(name: "--system", valueName: nil, help: "the service on the system bus (default: the session bus)"),
            .init(name: "--watch", valueName: nil, help: "with status: each sensor's line, redrawn every second until Ctrl-C"),
        ],
        positionals: [
            .init(name: "ACTION", help: "pause, resume, label, end or status"),
            .init(name: "TEXT", help: "the interval label, for 'label'", optional: true),
        ],
        details: """
        Talks to io.hrbridge.Bridge1, which 'hrbridge run' and paced 'hrbridge replay' serve on
        the session bus (the systemd service on the system bus: --system; root and group hrbridge
        may call it). The run's own update then reaches the activity: pause sends a 'paused'
        update with pausedAt, resume moves the timer on, label changes intervalLabel, end ends
        the activity with its final state (only that strap's, with --strap). status prints one
        line per strap; status --watch keeps the lines 'run' shows at the bottom of its terminal
        (each sensor's rate, link, distance, last update and its reason, next deadline),
        redrawn every second until Ctrl-C or the run's end.

        Exit 69 when no hrbridge is running on that bus or this user may not call it; 64 for an
        unknown strap or action; 65 when the run refuses the input (a label too long).

        Examples:
          hrbridge ctl pause
          hrbridge ctl label "Intervals 4x4"
          hrbridge ctl end --strap F1:5A:17:00:00:01
          sudo hrbridge ctl status --system
          sudo hrbridge ctl status --watch --system
        """
    )

    /// End flushes the sinks before it answers (up to their grace period), so wait longer than a plain call.
    static let callTimeout: Duration = .seconds(60)

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        let (method, values) = try request(arguments)
        let bus: BusConnection.Bus = arguments.has("--system") ? .system : .session
        if arguments.has("--watch") {
            guard method == "Status" else { throw .usage("--watch goes with status", spec) }
            return try watch(strap: arguments.value("--strap") ?? "", bus: bus, system: arguments.has("--system"), console: console)
        }
        let call = BusMethodCall(destination: BridgeControlInterface.busName, path: BridgeControlInterface.path,
                                 interface: BridgeControlInterface.name, method: method,
                                 arguments: (values + [arguments.value("--strap") ?? ""]).map(BusValue.string))
        let result: Result<[BusValue], BusError> = runBlocking {
            do throws(BusError) {
                let connection = try await BusConnection.connect(to: bus)
                let reply: Result<[BusValue], BusError>
                do throws(BusError) {
                    reply = .success(try await connection.call(call, timeout: callTimeout))
                } catch {
                    reply = .failure(error)
                }
                await connection.close()
                return reply
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case let .success(reply):
            if let text = reply.first?.string { console.output.write(text + "\n") }
            console.output.flush()
        case let .failure(error):
            throw failure(error, bus: bus, system: arguments.has("--system"))
        }
    }

    /// The method and its leading arguments for ACTION [TEXT].
    private static func request(_ arguments: ParsedArguments) throws(CLIError) -> (String, [String]) {
        let positionals = arguments.positionals
        guard let action = positionals.first else { throw .usage("which action: \(ControlAction.words), or status", spec) }
        let text = positionals.dropFirst().first
        if action == "status" {
            guard text == nil else { throw .usage("status takes no text", spec) }
            return ("Status", [])
        }
        switch ControlAction.parse(action: action, text: text) {
        case let .success(action): return BridgeControlInterface.call(for: action)
        case let .failure(refusal): throw .usage("\(refusal) (or status)", spec)
        }
    }

    static func failure(_ error: BusError, bus: BusConnection.Bus, system: Bool) -> CLIError {
        let other = system ? "a run of your own is on the session bus: drop --system" : "the service is on the system bus: add --system"
        switch error.name {
        case BusErrorName.serviceUnknown?, BusErrorName.nameHasNoOwner?:
            return .unavailable("no hrbridge is running on \(bus) (nobody owns \(BridgeControlInterface.busName)); \(other)")
        case BusErrorName.accessDenied?:
            return .unavailable("not allowed to call \(BridgeControlInterface.busName) on \(bus): "
                + "run as root or as a member of group hrbridge (sudo usermod -aG hrbridge $USER, then log in again)")
        case BridgeControlInterface.ErrorName.unknownStrap?:
            return .usage(error.description, spec)
        case BridgeControlInterface.ErrorName.refused?:
            return .dataError(error.description)
        default:
            if case let .cannotConnect(_, _, message) = error {
                return .unavailable("cannot reach \(bus): \(message); is hrbridge running there? \(other)")
            }
            return .unavailable("\(BridgeControlInterface.busName) on \(bus): \(error)")
        }
    }
}
