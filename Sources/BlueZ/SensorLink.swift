import DBus
import Dispatch
import Platform
import Sensors

/// One sensor's life (a strap, or the distance sensor beside it): find it, connect (one
/// connect per adapter at a time), wait for its services and the measurement characteristic of one
/// of the kinds it may be, subscribe once, stream, and after any loss start over with the policy's
/// backoff. Emits raw `SensorEvent`s tagged with the sensor's role; never parses. Cancel the task
/// running `run()` to stop: notifications are stopped and the sensor disconnected within the
/// policy's deadline.
///
/// Events are delivered in order to `onEvent` on `environment.events`, a serial queue (the hot
/// path: an AcquireNotify value goes from the socket to `onEvent` on one thread, with no task
/// hop). That queue may be the consumer's own (busy for seconds while it flushes): the link never
/// blocks a thread waiting for it.
public final class SensorLink: Sendable {
    public let selector: SensorSelector
    /// What the sensor may be: the strap is a heart-rate sensor; the distance sensor is any kind
    /// that gives distance, told apart by the services it offers once connected.
    let kinds: [SensorKind]
    let role: SensorRole
    let onEvent: @Sendable (SensorEvent) -> Void
    let client: BlueZClient
    let gates: AdapterGates
    let policy: ReconnectPolicy
    let environment: LinkEnvironment
    var queue: DispatchQueue { environment.events }

    public init(selector: SensorSelector, role: SensorRole = .strap, client: BlueZClient, gates: AdapterGates,
                policy: ReconnectPolicy = ReconnectPolicy(), environment: LinkEnvironment,
                onEvent: @escaping @Sendable (SensorEvent) -> Void) {
        self.selector = selector
        self.role = role
        self.kinds = SensorKind.all.filter { $0.contribution.givesDistance == (role == .distance) }
        self.client = client
        self.gates = gates
        self.policy = policy
        self.environment = environment
        self.onEvent = onEvent
    }

    var bus: BlueZBus { client.bus }

    /// From the link's async code: queued behind anything the socket delivered before.
    func emit(_ kind: SensorEvent.Kind, at time: Timestamp? = nil) {
        let event = SensorEvent(time: time ?? environment.clock(), kind: kind)
        queue.async { self.deliver(event) }
    }

    /// Runs `work` on `queue` and waits without holding a thread (the queue may be busy).
    func onQueue<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in queue.async { continuation.resume(returning: work()) } }
    }

    /// On `queue` only. Every event leaves tagged with the sensor's role.
    func deliver(_ event: SensorEvent) {
        var event = event
        event.sensor = role
        onEvent(event)
    }

    func log(_ message: String) { environment.log("\(selector): \(message)") }

    /// Runs until cancelled (returns after clean-up) or until retrying cannot help (throws).
    public func run() async throws(SensorLinkError) {
        var failures = 0
        /// Connects in a row that answered InProgress: only the first cleans up.
        var inProgressStreak = 0
        while !Task.isCancelled {
            let verdict: ReconnectPolicy.Verdict
            do {
                let streamed = try await connectAndStream(cleaningUpInProgress: inProgressStreak == 0)
                inProgressStreak = 0
                if Task.isCancelled { return }
                failures = streamed ? 0 : failures + 1
                verdict = streamed ? .retrySoon : .retry
            } catch {
                if Task.isCancelled { return }
                if error.verdict == .fatal { throw SensorLinkError(description: "\(selector): \(error.reason)") }
                verdict = error.verdict
                // Patience has its own fixed wait: an attempt under way is no failure to back off from.
                if verdict != .waitPatiently { failures += 1 }
                inProgressStreak = verdict == .waitPatiently ? inProgressStreak + 1 : 0
                log(error.reason)
            }
            let delay = policy.delay(afterFailures: failures, verdict: verdict, random: environment.random())
            log("reconnecting in \(delay.formattedSeconds)")
            do { try await TaskSleep.sleep(for: delay) } catch { return }
        }
    }

    /// One attempt; true when values flowed before the link was lost. `cleaningUpInProgress`:
    /// an InProgress answer to Connect is cleaned up (the first of a streak).
    private func connectAndStream(cleaningUpInProgress: Bool) async throws(LinkFailure) -> Bool {
        let device = try await locate()
        guard let adapterPath = device.adapterPath else { throw LinkFailure(verdict: .retry, reason: "device has no adapter") }
        // Routes before Connect: nothing sent once the services resolve can be missed.
        let (inputs, feed) = AsyncStream.makeStream(of: LinkInput.self)
        let values = ValueDispatch(link: self)
        client.route(device.path) { [queue] arrival in queue.async { values.receive(arrival) } }
        let observer = await client.observe { feed.yield(.treeChanged) }
        defer { feed.finish() }
        let outcome: Result<Bool, LinkFailure>
        do {
            let measured = try await gates.withGate(adapterPath) { () async throws(LinkFailure) -> Measured in
                try await self.connect(device, cleaningUpInProgress: cleaningUpInProgress)
            }
            outcome = .success(await stream(device: device, measured: measured, values: values, inputs: inputs, feed: feed))
        } catch let failure as LinkFailure {
            outcome = .failure(failure)
        } catch {
            outcome = .failure(LinkFailure(verdict: .retry, reason: "\(error)"))
        }
        client.unroute(device.path)
        await client.stopObserving(observer)
        return try outcome.get()
    }

    /// Waits for bluetoothd, an adapter that is on, and the strap in the mirror; scans when
    /// the strap is not known yet. Says once per cause why it is waiting.
    private func locate() async throws(LinkFailure) -> Device1 {
        var lastCause = ""
        var scanningOn: Adapter1?
        defer {
            if let adapter = scanningOn {
                Task { [client, bus] in if await client.leaveScan(adapter.path) { try? await adapter.stopDiscovery(on: bus) } }
            }
        }
        while true {
            let selector = self.selector
            let found = await client.wait(timeout: policy.discoveryWindow) { tree, running in
                running ? tree.devices.first { selector.matches($0) && tree.adapter(at: $0.adapterPath ?? "")?.powered == true } : nil
            }
            if let found { return found }
            if Task.isCancelled { throw LinkFailure(verdict: .retry, reason: "stopped") }
            let (tree, running) = (await client.tree, await client.isBlueZRunning)
            if await client.isConnectionLost { throw LinkFailure(verdict: .fatal, reason: "the system bus connection was lost") }
            let cause: String
            if !running {
                cause = "bluetoothd is not running (org.bluez is not on the system bus); waiting for it"
            } else if tree.adapters.isEmpty {
                cause = "no Bluetooth adapter; waiting for one"
            } else if let adapter = tree.adapters.first(where: \.powered) {
                let hint = role == .strap ? "straps sleep off the chest: wet the electrodes and put it on" : "distance sensors sleep until moved or switched on"
                cause = "not found yet; scanning on \(adapter.interfaceName) (\(hint))"
                // Discovery is one session per bus client, and a run's links share one connection:
                // the last link scanning stops it (`BlueZClient.leaveScan`); scan again when it stopped.
                if scanningOn?.path != adapter.path || !adapter.discovering {
                    if scanningOn?.path != adapter.path {
                        if let previous = scanningOn, await client.leaveScan(previous.path) { try? await previous.stopDiscovery(on: bus) }
                        await client.joinScan(adapter.path)
                    }
                    scanningOn = adapter
                    try? await adapter.setDiscoveryFilter(Adapter1.sensorDiscoveryFilter(), on: bus)
                    do { try await adapter.startDiscovery(on: bus) } catch { log("StartDiscovery: \(error)") }
                }
            } else {
                let adapter = tree.adapters[0]
                let blocked = adapter.powerState == "off-blocked" ? " and rfkill-blocked ('rfkill unblock bluetooth')" : ""
                cause = "adapter \(adapter.interfaceName) is off\(blocked); waiting for it to be powered ('bluetoothctl power on')"
                scanningOn = nil
            }
            if cause != lastCause { log(cause) }
            lastCause = cause
        }
    }

    /// The measurement characteristic found once the services resolved, and the kind it tells.
    struct Measured: Sendable {
        var path: String
        var kind: SensorKind
    }

    /// Connect (or adopt a link that is already up), then wait for the services and the
    /// measurement object of one of `kinds`; on timeout disconnect so the next attempt starts
    /// clean. InProgress means bluetoothd has an attempt of its own (a stale one of ours, another
    /// client's): the first in a row cancels it with one Disconnect; the link then waits
    /// patiently, never hammering.
    private func connect(_ device: Device1, cleaningUpInProgress: Bool) async throws(LinkFailure) -> Measured {
        if device.connected {
            log("already connected (adopting the link)")
        } else {
            log("connecting to \(device.name ?? "?") at \(device.address ?? device.path)")
            do {
                try await device.connect(on: bus)
            } catch {
                let verdict = policy.classify(error)
                if verdict != .proceed {
                    if error == .cancelled || (verdict == .waitPatiently && cleaningUpInProgress) {
                        try? await Task { [bus] in try await device.disconnect(on: bus, timeout: .seconds(1)) }.value
                    }
                    throw LinkFailure(verdict: verdict, reason: "Connect failed: \(error)")
                }
            }
        }
        let (devicePath, kinds) = (device.path, self.kinds)
        let found = await client.wait(timeout: policy.servicesResolvedTimeout) { tree, _ in
            guard tree.device(at: devicePath)?.servicesResolved == true else { return nil as Measured? }
            for kind in kinds {
                if let path = tree.characteristic(kind.measurementCharacteristic, inService: kind.service, ofDevice: devicePath)?.path {
                    return Measured(path: path, kind: kind)
                }
            }
            return nil
        }
        guard let found else {
            try? await Task { [bus] in try await device.disconnect(on: bus) }.value
            let wanted = kinds.map { "0x\($0.measurementCharacteristic.shortForm.uppercased())" }.joined(separator: " or ")
            throw LinkFailure(verdict: .retry, reason: "services or \(wanted) not resolved within \(policy.servicesResolvedTimeout.formattedSeconds); disconnected")
        }
        return found
    }
}

extension Duration {
    /// `1.5 s`
    var formattedSeconds: String {
        let milliseconds = wholeNanoseconds / 1_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}
