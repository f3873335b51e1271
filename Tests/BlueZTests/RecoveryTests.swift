#if canImport(Glibc)
import Glibc
#endif
import BlueZ
import BusTestSupport
import DBus
import Sensors
import Synchronization
import Testing

/// Each fault a laptop inflicts, injected into the fake bluetoothd mid-stream: the link must
/// come back by itself, lose nothing that was sent while connected and double nothing.
@Suite(.serialized, .timeLimit(.minutes(2))) struct RecoveryTests {
    static let total = 150

    enum Fault: String, CaseIterable, Sendable {
        case linkDrop, burstThenDrop, strapOff, silence, adapterPowerCycle, adapterReplug, bluetoothdRestart
    }

    @Test(arguments: Fault.allCases, [[], ["--no-acquire"]])
    func recoversFrom(_ fault: Fault, mode: [String]) async throws {
        let fake = try await FakeBlueZ(["--count", "\(Self.total)", "--interval", "10"] + mode)
        let (_, task, recorder) = fake.link()
        try await recorder.read(until: { _ in recorder.rates.count >= 20 }, "20 values before the fault")
        switch fault {
        case .linkDrop: try await fake.control("DropLink", .string(FakeBlueZ.strap))
        case .burstThenDrop: try await fake.control("BurstThenDrop", .string(FakeBlueZ.strap), .uint32(40))
        case .strapOff: try await fake.control("StrapOff", .string(FakeBlueZ.strap), .double(1))
        case .silence: try await fake.control("Silence", .double(1.6))
        case .adapterPowerCycle:
            try await fake.control("SetPowered", .boolean(false))
            try await recorder.read(until: { !$0.filter { if case .disconnected = $0.kind { true } else { false } }.isEmpty }, "the drop")
            try await fake.control("SetPowered", .boolean(true))
        case .adapterReplug:
            try await fake.control("RemoveAdapter")
            try await recorder.read(until: { _ in !recorder.disconnectReasons.isEmpty }, "the drop")
            try await fake.control("ReAddAdapter", .string("hci1"))
        case .bluetoothdRestart: try await fake.control("Restart", .double(0.5))
        }
        // Under load the strap may have sent everything before the fault lands: wait for the
        // reconnect too, not only for the values.
        try await recorder.read(until: { _ in recorder.rates.count >= Self.total && recorder.connects >= 2 }, within: 30,
                                "all \(Self.total) values and a reconnect after \(fault)")
        #expect(recorder.rates == Array(1...UInt16(Self.total)), "lost or doubled samples")
        #expect(try await fake.sent() == Array(1...UInt16(Self.total)))
        #expect(!recorder.disconnectReasons.isEmpty)
        if fault == .silence { #expect(recorder.disconnectReasons.first?.contains("no notification") == true) }
        task.cancel()
        _ = await task.result
        await fake.stop()
    }

    /// The link's queue may be its consumer's, busy for longer than the silence timeout (1 s here)
    /// while the strap goes on sending: those values wait in the socket, and that is not silence.
    @Test func aConsumerBusyLongerThanTheSilenceTimeoutKeepsTheLink() async throws {
        let fake = try await FakeBlueZ(["--count", "100", "--interval", "10"])
        let (_, task, recorder) = fake.link(consume: { event in
            guard case let .notification(_, value) = event.kind, value.count > 1, value[1] == 20 else { return }
            usleep(1_600_000)
        })
        try await recorder.read(until: { _ in recorder.rates.count >= 100 }, within: 30, "all 100 values")
        #expect(recorder.rates == Array(1...100))
        #expect(recorder.disconnectReasons.isEmpty)
        #expect(recorder.connects == 1)
        task.cancel()
        _ = await task.result
        await fake.stop()
    }

    @Test(arguments: [
        ("org.bluez.Error.InProgress", "In Progress"),
        ("org.bluez.Error.Failed", "le-connection-abort-by-local"),
        ("org.bluez.Error.Failed", "Page Timeout"),
        ("org.bluez.Error.NotReady", "Resource Not Ready"),
        ("org.freedesktop.DBus.Error.NoReply", "Did not receive a reply"),
    ])
    func retriesTransientConnectErrors(_ name: String, _ text: String) async throws {
        let fake = try await FakeBlueZ(["--count", "30", "--interval", "10"])
        try await fake.control("FailConnects", .string(name), .string(text), .uint32(2))
        let (_, task, recorder) = fake.link()
        try await recorder.read(until: { _ in recorder.rates.count >= 30 }, "30 values after two failed connects")
        #expect(recorder.rates == Array(1...30))
        #expect(try await fake.calls("Connect") == 3)
        task.cancel()
        _ = await task.result
        await fake.stop()
    }

    /// InProgress on Connect: bluetoothd has an attempt of its own. The link cancels it with one
    /// Disconnect, then waits the patient delay between tries (not the growing backoff), without
    /// a Disconnect each time.
    @Test func inProgressOnConnectCleansUpOnceThenWaitsPatiently() async throws {
        let fake = try await FakeBlueZ(["--count", "20", "--interval", "10"])
        try await fake.control("FailConnects", .string("org.bluez.Error.InProgress"), .string("In Progress"), .uint32(3))
        let logs = Mutex<[String]>([])
        let (_, task, recorder) = fake.link(log: { line in logs.withLock { $0.append(line) } })
        try await recorder.read(until: { _ in recorder.rates.count >= 20 }, "values after three InProgress answers")
        #expect(recorder.rates == Array(1...20))
        #expect(try await fake.calls("Connect") == 4)
        #expect(try await fake.calls("Disconnect") == 1, "one clean-up for the streak, not one per InProgress")
        let waits = logs.withLock { $0 }.filter { $0.contains("reconnecting in") }
        #expect(waits.count == 3 && waits.allSatisfy { $0.hasSuffix("reconnecting in 0.3 s") }, "\(waits)")
        task.cancel()
        _ = await task.result
        await fake.stop()
    }

    @Test func missingHeartRateServiceMeansDisconnectAndRetry() async throws {
        let fake = try await FakeBlueZ(["--count", "20", "--interval", "10"])
        try await fake.control("HideHeartRate", .boolean(true))
        let (logs, logFeed) = AsyncStream.makeStream(of: String.self)
        let (_, task, recorder) = fake.link(log: { logFeed.yield($0) })
        let lines = StreamReader(logs)
        while let line = try await lines.next(within: 20, "the services timeout"), !line.contains("not resolved within") {}
        #expect(try await fake.calls("Disconnect") >= 1, "the half-resolved link was not disconnected")
        try await fake.control("HideHeartRate", .boolean(false))
        try await recorder.read(until: { _ in recorder.rates.count >= 20 }, "values once 0x180D is there")
        #expect(recorder.rates == Array(1...20))
        task.cancel()
        _ = await task.result
        await fake.stop()
    }

    @Test func aFatalErrorEndsTheLinkWithItsReason() async throws {
        let fake = try await FakeBlueZ()
        try await fake.control("FailConnects", .string("org.freedesktop.DBus.Error.AccessDenied"), .string("Rejected send message"), .uint32(1))
        let (_, task, _) = fake.link()
        let result = try await within(10, "the link to give up") { await task.result }
        #expect(throws: SensorLinkError.self) { try result.get() }
        #expect(try await fake.calls("Connect") == 1)
        await fake.stop()
    }

    @Test func oneStrapOffDoesNotStallAnother() async throws {
        let other = "F1:5A:17:00:00:02"
        let fake = try await FakeBlueZ(["--straps", "\(FakeBlueZ.strap)=A,\(other)=B", "--interval", "10", "--count", "200"])
        let (_, taskA, a) = fake.link(.address(FakeBlueZ.strap))
        let (_, taskB, b) = fake.link(.address(other))
        try await a.read(until: { _ in a.rates.count >= 10 }, "A streaming")
        try await b.read(until: { _ in b.rates.count >= 10 }, "B streaming")
        try await fake.control("StrapOff", .string(FakeBlueZ.strap), .double(30))
        try await a.read(until: { _ in !a.disconnectReasons.isEmpty }, "A dropping")
        try await b.read(until: { _ in b.rates.count >= 200 }, "B's remaining values while A is off")
        #expect(b.rates == Array(1...200))
        #expect(a.connects == 1)
        taskA.cancel()
        taskB.cancel()
        _ = await (taskA.result, taskB.result)
        await fake.stop()
    }
}
