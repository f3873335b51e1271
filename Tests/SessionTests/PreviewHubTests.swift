import Dispatch
import LiveState
import LiveView
import Sensors
@testable import Session
import Testing

/// The preview's hub with clients as the listener's connection threads use them.
@Suite struct PreviewHubTests {
    static let start = Timestamp(unixSeconds: 1_704_088_800)

    static func update(_ activity: String, _ sequence: Int, rate: Int? = 140) -> EncodedUpdate {
        let time = start.adding(seconds: Double(sequence))
        return EncodedUpdate(ActivityUpdate(
            event: .update, activityID: activity, sequence: sequence, timestamp: time, staleDate: time.adding(seconds: 120),
            priority: 5, reason: .changed, attributes: WorkoutActivityAttributes(workoutName: "Run"),
            contentState: .init(timerRange: start.date...start.adding(seconds: 28_800).date, pausedAt: nil, heartRate: rate,
                                distanceMeters: 0, intervalLabel: "")
        ))
    }

    static func text(_ client: EventClient) -> String {
        String(decoding: client.next(limit: 1 << 20) ?? [], as: UTF8.self)
    }

    static func refusal(_ result: Result<EventClient, PreviewHub.Refusal>) -> PreviewHub.Refusal? {
        if case let .failure(refusal) = result { return refusal }
        return nil
    }

    static func reports(sent: Int) -> [SinkReport] {
        [SinkReport(name: "stdout", sent: sent, superseded: 0, waiting: 0, lastError: nil)]
    }

    @Test func aClientGetsTheCatchUpThenTheStreamAndResumesWithoutLossOrRepeat() throws {
        let hub = PreviewHub()
        let tap = hub.tap(strap: "replay", zoneBoundaries: [], clock: .trace(speed: 10), refreshSinks: {})
        tap.publish(Self.update("a", 1), sinks: Self.reports(sent: 1))
        let client = try hub.openEvents(lastEventID: nil).get()
        let first = Self.text(client)
        #expect(first.hasPrefix("retry: 2000\n\n"))
        #expect(first.contains("id: a/1\nevent: update\n") && first.contains("event: sinks\n"), "\(first)")
        #expect(!first.contains("event: clock"), "the trace clock has not started")

        tap.publish(Self.update("a", 2), sinks: Self.reports(sent: 2))
        tap.publish(Self.update("a", 3), sinks: Self.reports(sent: 2))
        let live = Self.text(client)
        #expect(live.components(separatedBy: "event: update").count == 3, "both updates: \(live)")
        #expect(live.components(separatedBy: "event: sinks").count == 2, "an unchanged report is not repeated: \(live)")

        let resumed = try hub.openEvents(lastEventID: "a/2").get()
        let again = Self.text(resumed)
        #expect(!again.contains("id: a/2\n") && again.contains("id: a/3\n"), "\(again)")
        client.close()
        resumed.close()
        #expect(client.next(limit: 100) == nil)
    }

    @Test func theHeartRateStreamIsOneStrapsAndUnknownStrapsAreRefused() throws {
        let hub = PreviewHub()
        let one = hub.tap(strap: "H10", zoneBoundaries: [120], clock: .real, refreshSinks: {})
        let two = hub.tap(strap: "HRM-Pro", zoneBoundaries: [], clock: .real, refreshSinks: {})
        one.publish(Self.update("one", 1, rate: 130), sinks: [])
        let overlay = try hub.openHeartRate(strap: "hrm-pro").get()
        #expect(Self.text(overlay) == "retry: 2000\n\n", "nothing from that strap yet")
        two.publish(Self.update("two", 1, rate: 99), sinks: [])
        one.publish(Self.update("one", 2, rate: 131), sinks: [])
        let text = Self.text(overlay)
        #expect(text.contains("\"bpm\":99") && !text.contains("\"bpm\":131"), "\(text)")
        let first = try hub.openHeartRate(strap: nil).get()
        #expect(Self.text(first).contains("\"bpm\":131,\"zone\":1"), "the first strap's latest")
        #expect(Self.refusal(hub.openHeartRate(strap: "Polar")) == .unknownStrap(known: ["H10", "HRM-Pro"]))
        overlay.close()
        first.close()
    }

    @Test func clientsAreBoundedAndOneTooFarBehindIsDroppedAndForgotten() throws {
        let hub = PreviewHub()
        let tap = hub.tap(strap: "replay", zoneBoundaries: [], clock: .real, refreshSinks: {})
        let clients = try (0..<PreviewHub.clientLimit).map { _ in try hub.openEvents(lastEventID: nil).get() }
        #expect(Self.refusal(hub.openEvents(lastEventID: nil)) == .tooManyClients)
        // The others read everything; nobody reads the first: once its backlog is over the bound
        // it is closed, and forgotten.
        let updates = PreviewHub.backlogLimit / 300
        for sequence in 1...updates {
            tap.publish(Self.update("a", sequence), sinks: [])
            for client in clients.dropFirst() { _ = client.next(limit: 1 << 20) }
        }
        let another = hub.openEvents(lastEventID: nil)
        #expect(Self.refusal(another) == nil, "the dropped client's place is free")
        for client in clients.dropFirst() { client.close() }
        try another.get().close()
        var received = 0
        while let bytes = clients[0].next(limit: 1 << 20) { received += bytes.count }
        #expect(received <= PreviewHub.backlogLimit + 4096, "what it had queued, then the end")
    }

    @Test func aBlockedReaderWakesForAnUpdateAndForClose() throws {
        let hub = PreviewHub()
        let tap = hub.tap(strap: "replay", zoneBoundaries: [], clock: .real, refreshSinks: {})
        let client = try hub.openEvents(lastEventID: nil).get()
        _ = client.next(limit: 1 << 20) // the catch-up
        let gotFirst = DispatchSemaphore(value: 0)
        let gotSecond = DispatchSemaphore(value: 0)
        let box = Box()
        DispatchQueue.global().async {
            box.first = client.next(limit: 1 << 20)
            gotFirst.signal()
            box.second = client.next(limit: 1 << 20)
            // The update's sink status follows it in the same publish: the reader may have woken
            // for the update alone (seen once in CI). Then it is there at once, and the next read blocks.
            if let status = box.second, String(decoding: status, as: UTF8.self).hasPrefix("event: sinks") {
                box.second = client.next(limit: 1 << 20)
            }
            gotSecond.signal()
        }
        // One wake at a time: a close right behind the update could come before the reader took it.
        tap.publish(Self.update("a", 1), sinks: [])
        #expect(gotFirst.wait(timeout: .now() + 5) == .success)
        #expect(String(decoding: box.first ?? [], as: UTF8.self).contains("id: a/1"))
        client.close()
        #expect(gotSecond.wait(timeout: .now() + 5) == .success)
        #expect(box.second == nil)
    }
}

private final class Box: @unchecked Sendable {
    var first: [UInt8]?
    var second: [UInt8]?
}
