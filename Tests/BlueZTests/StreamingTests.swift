import BlueZ
import BusTestSupport
import DBus
import Sensors
import Synchronization
import Testing

/// The real client against the fake bluetoothd: values arrive complete, in order, once.
@Suite(.serialized, .timeLimit(.minutes(2))) struct StreamingTests {
    @Test(arguments: [[], ["--no-acquire"]])
    func everyValueArrivesOnceInOrder(_ mode: [String]) async throws {
        let fake = try await FakeBlueZ(["--count", "100", "--interval", "10"] + mode)
        let (_, task, recorder) = fake.link()
        try await recorder.read(until: { _ in recorder.rates.count >= 100 }, "100 values")
        #expect(recorder.rates == Array(1...100))
        #expect(try await fake.sent() == Array(1...100))
        #expect(recorder.events.first?.kind == .connected)
        #expect(recorder.events.contains { $0.kind == .bodySensorLocation(.chest) })
        #expect(recorder.events.contains { $0.kind == .battery(try! BatteryLevel(percent: 87)) })
        let subscribeCalls = try await fake.calls(mode.isEmpty ? "AcquireNotify" : "StartNotify")
        #expect(subscribeCalls == 1)
        task.cancel()
        _ = await task.result
        await fake.stop()
    }

    @Test func adoptsAStrapThatIsAlreadyConnected() async throws {
        let fake = try await FakeBlueZ(["--count", "30", "--interval", "10", "--connected"])
        let (_, task, recorder) = fake.link()
        try await recorder.read(until: { _ in recorder.rates.count >= 30 }, "30 values")
        #expect(recorder.rates == Array(1...30))
        #expect(try await fake.calls("Connect") == 0, "an adopted link needs no Connect")
        task.cancel()
        _ = await task.result
        await fake.stop()
    }

    /// bluetoothd may never signal Connected for a link it made (see Device1.connected): the link
    /// streams on, and never disconnects a strap that is there.
    @Test func keepsALinkWhoseConnectedNeverTurnedTrue() async throws {
        let fake = try await FakeBlueZ(["--interval", "10", "--connected-unsignalled", "--no-acquire"])
        let (_, task, recorder) = fake.link()
        try await recorder.read(until: { _ in recorder.rates.count >= 60 }, "60 values")
        #expect(Array(recorder.rates.prefix(60)) == Array(1...60))
        #expect(!recorder.events.contains { if case .disconnected = $0.kind { true } else { false } })
        #expect(try await fake.calls("Disconnect") == 0)
        #expect(try await fake.calls("Connect") == 1)
        try await fake.control("DropLink", .string(FakeBlueZ.strap))
        // Seen through the tree alone (StartNotify: no socket to close): the device's Connected and
        // ServicesResolved, or its GATT objects going, whichever the link reads first.
        try await recorder.read(until: { $0.contains { if case .disconnected = $0.kind { true } else { false } } }, "the drop seen in the tree")
        task.cancel()
        _ = await task.result
        await fake.stop()
    }

    @Test func findsTheFirstHeartRateStrapByDefaultAndByName() async throws {
        let fake = try await FakeBlueZ(["--count", "5", "--interval", "10"])
        for selector in [SensorSelector.anyHeartRateStrap, SensorSelector("HRM-Sim 1")] {
            let (_, task, recorder) = fake.link(selector)
            try await recorder.read(until: { $0.contains { $0.kind == .connected } }, "a connection via \(selector)")
            task.cancel()
            _ = await task.result
        }
        await fake.stop()
    }

    /// A stop that lands while a link is being lost (its watchdog fired as the SIGTERM came) still
    /// leaves the sensor disconnected: the lost link's Disconnect goes out though its task is cancelled.
    @Test func aStopDuringTheLinksLossStillDisconnects() async throws {
        let fake = try await FakeBlueZ(["--count", "100", "--interval", "10", "--no-acquire"])
        let running = Mutex<Task<Void, any Error>?>(nil)
        let (_, task, recorder) = fake.link(consume: { event in
            // On the link's queue, just before the lost link's Disconnect: the stop's cancel.
            if case let .disconnected(reason) = event.kind, reason?.contains("no notification") == true {
                running.withLock { $0?.cancel() }
            }
        })
        running.withLock { $0 = task }
        try await recorder.read(until: { _ in recorder.rates.count >= 10 }, "10 values")
        try await fake.control("Silence", .double(3))
        _ = await task.result
        try await recorder.read(until: { _ in false }, "the link's events to their end")
        #expect(recorder.disconnectReasons.first?.contains("no notification") == true)
        #expect(try await fake.calls("Disconnect") >= 1)
        await fake.stop()
    }

    @Test func stopReleasesNotificationsAndDisconnects() async throws {
        let fake = try await FakeBlueZ(["--interval", "10", "--no-acquire"])
        let (_, task, recorder) = fake.link()
        try await recorder.read(until: { _ in recorder.rates.count >= 10 }, "10 values")
        let clock = ContinuousClock()
        let started = clock.now
        task.cancel()
        _ = await task.result
        print("SensorLink shutdown took \(clock.now - started)")
        #expect(try await fake.calls("StopNotify") == 1)
        #expect(try await fake.calls("Disconnect") == 1)
        try await recorder.read(until: { $0.last?.kind == .disconnected(reason: "stopped") }, "the final disconnected event")
        await fake.stop()
    }
}
