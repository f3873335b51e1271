import DBus
import Platform
import Sensors

/// The connected part of a link: subscribe exactly once, stream until something says the
/// link is gone, then tear down. On cancellation: stop notifications, disconnect.
extension SensorLink {
    /// True when at least one measurement value arrived.
    func stream(device: Device1, measured: Measured, values: ValueDispatch, inputs: AsyncStream<LinkInput>,
                feed: AsyncStream<LinkInput>.Continuation) async -> Bool {
        let tree = await client.tree
        let measurementPath = measured.path
        let batteryPath = tree.characteristic(.batteryLevel, inService: .batteryService, ofDevice: device.path)?.path
        let locationPath = tree.characteristic(.bodySensorLocation, inService: .heartRateService, ofDevice: device.path)?.path

        let silenceTimeout = role == .strap ? policy.silenceTimeout : policy.distanceSensorSilenceTimeout
        let connectedAt = environment.clock()
        let watchdog = SilenceWatchdog(timeout: silenceTimeout, start: connectedAt, clock: environment.clock) {
            feed.yield(.silent)
        }
        await onQueue {
            self.deliver(SensorEvent(time: connectedAt, kind: .connected))
            values.start(measurementPath: measurementPath, characteristic: measured.kind.measurementCharacteristic,
                         batteryPath: batteryPath, watchdog: watchdog)
        }
        log("connected")

        if let locationPath, let value = try? await GattCharacteristic1(path: locationPath, properties: [:]).readValue(on: bus),
           let location = try? BodySensorLocation(parsing: value) {
            emit(.bodySensorLocation(location))
        }
        await readCapabilities(of: measured.kind, device: device, in: tree)
        if let batteryPath, let characteristic = tree.characteristic(at: batteryPath) {
            if let value = try? await characteristic.readValue(on: bus), let level = try? BatteryLevel(parsing: value) {
                let time = environment.clock()
                await onQueue { values.battery(level, at: time) }
            }
            if characteristic.canNotify { try? await characteristic.startNotify(on: bus) }
        }
        let socket = await subscribe(tree.characteristic(at: measurementPath), feed: feed, watchdog: watchdog) { bytes, time in
            values.socketMeasurement(bytes, at: time) // on the events queue, straight from the socket
        }

        var lostBecause: String?
        var silent = false
        var socketEnded = false
        for await input in inputs {
            switch input {
            case .treeChanged:
                lostBecause = await linkLoss(device: device, measured: measured)
            case .silent:
                silent = true
                lostBecause = "no notification for \(silenceTimeout.formattedSeconds) while connected"
            case .socketClosed:
                socketEnded = true
                lostBecause = "the notification socket was closed"
            case .drainTimedOut:
                break
            }
            if lostBecause != nil { break }
        }
        watchdog.stop()
        if socket != nil, !socketEnded, !silent, !Task.isCancelled {
            await drain(inputs: inputs, feed: feed)
        }
        if Task.isCancelled {
            await shutDown(device: device, measurementPath: measurementPath, socket: socket)
            return values.measuredValues > 0
        }
        socket?.close()
        let lostAt = environment.clock()
        await onQueue { [lostBecause] in
            values.stop() // nothing after `disconnected` from a socket that was still draining
            self.deliver(SensorEvent(time: lostAt, kind: .disconnected(reason: lostBecause)))
        }
        log("link lost: \(lostBecause ?? "?")")
        if silent || socket != nil {
            // BlueZ may still think the link is up: end it so that the next Connect starts clean.
            try? await device.disconnect(on: bus)
            // A stop that came meanwhile cancelled that call, maybe before it went out; the exit
            // must not leave the sensor connected, and a second Disconnect is harmless.
            if Task.isCancelled { try? await device.requestDisconnect(on: bus) }
        }
        return values.measuredValues > 0 // counted on the queue, which has run everything before the stop
    }

    /// What the sensor says it offers (a fitness machine's Fitness Machine Feature), read once per
    /// connection: said on stderr, and passed on as the value read, so the trace keeps it and the
    /// session's status can say it.
    private func readCapabilities(of kind: SensorKind, device: Device1, in tree: ObjectTree) async {
        guard let capabilities = kind.capabilities,
              let path = tree.characteristic(capabilities.characteristic, inService: kind.service, ofDevice: device.path)?.path
        else { return }
        do {
            let value = try await GattCharacteristic1(path: path, properties: [:]).readValue(on: bus)
            let said = capabilities.summary(value) ?? "an unreadable 0x\(capabilities.characteristic.shortForm.uppercased()) value (\(Hex.encode(value)))"
            log("\(kind.name) offers \(said)")
            emit(.notification(characteristic: capabilities.characteristic, value: value))
        } catch {
            log("reading 0x\(capabilities.characteristic.shortForm.uppercased()) failed: \(error)")
        }
    }

    /// The link dropped while values may still sit in the AcquireNotify socket (bluetoothd queued
    /// them, then hung the socket up): read up to its end, bounded, so none sent while connected
    /// is lost. Closing it at once would drop them (seen as a lost value under load).
    private func drain(inputs: AsyncStream<LinkInput>, feed: AsyncStream<LinkInput>.Continuation) async {
        let timeout = policy.socketDrainTimeout
        let timer = Task {
            try? await TaskSleep.sleep(for: timeout)
            feed.yield(.drainTimedOut)
        }
        defer { timer.cancel() }
        for await input in inputs {
            if case .socketClosed = input { return }
            if case .drainTimedOut = input { return }
        }
    }

    /// AcquireNotify when bluetoothd offers it (fewer hops: one read per value), else
    /// StartNotify; values then come as PropertiesChanged, already routed.
    private func subscribe(_ characteristic: GattCharacteristic1?, feed: AsyncStream<LinkInput>.Continuation, watchdog: SilenceWatchdog,
                           socketValue: @escaping @Sendable ([UInt8], Timestamp) -> Void) async -> NotificationSocket? {
        guard let characteristic else { return nil }
        if characteristic.supportsAcquireNotify {
            do {
                let (descriptor, mtu) = try await characteristic.acquireNotify(on: bus)
                let clock = environment.clock
                if let socket = NotificationSocket(socket: descriptor, mtu: mtu, queue: queue, clock: clock, watchdog: watchdog, value: socketValue,
                                                   closed: { feed.yield(.socketClosed) }) {
                    log("notifications through AcquireNotify (mtu \(mtu))")
                    return socket
                }
            } catch {
                log("AcquireNotify refused (\(error)); using StartNotify")
            }
        }
        do {
            try await characteristic.startNotify(on: bus)
            log("notifications through StartNotify")
        } catch where error.name == "org.bluez.Error.InProgress" {
            // Our own session from before the reconnect: bluetoothd keeps it; values already flow.
        } catch {
            log("StartNotify failed: \(error)")
        }
        return nil
    }

    /// Why the link is gone, read from the mirror; nil while it stands.
    private func linkLoss(device: Device1, measured: Measured) async -> String? {
        let (tree, running) = (await client.tree, await client.isBlueZRunning)
        if !running { return "bluetoothd left the bus" }
        guard let adapterPath = device.adapterPath, let adapter = tree.adapter(at: adapterPath) else { return "adapter removed" }
        if !adapter.powered { return "adapter \(adapter.interfaceName) powered off" }
        guard let current = tree.device(at: device.path) else { return "device removed" }
        if !current.connected { return "disconnected" }
        if tree.characteristic(at: measured.path) == nil {
            return "0x\(measured.kind.measurementCharacteristic.shortForm.uppercased()) characteristic removed"
        }
        return nil
    }

    /// SIGINT/SIGTERM or the machine going to sleep: release notifications and disconnect within the deadline, in a task
    /// that does not inherit the cancellation.
    private func shutDown(device: Device1, measurementPath: String, socket: NotificationSocket?) async {
        let budget = policy.shutdownDeadline
        await Task { [bus] in
            if let socket {
                socket.close() // closing the acquired socket ends the notify session
            } else {
                try? await GattCharacteristic1(path: measurementPath, properties: [:]).stopNotify(on: bus, timeout: budget / 4)
            }
            try? await device.requestDisconnect(on: bus)
        }.value
        emit(.disconnected(reason: environment.stopReason()))
        log("stopped notifications and sent Disconnect")
    }
}
