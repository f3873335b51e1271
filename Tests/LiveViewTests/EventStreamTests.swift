import LiveState
import LiveView
import Sensors
import Testing

/// Updates as the engine makes them, for the event stream's tests.
enum Updates {
    static let start = Timestamp(unixSeconds: 1_704_088_800)
    static let activity = "hrbridge-20240101T060000Z-1"

    static func make(_ activity: String, _ sequence: Int, at seconds: Double = 0,
                     event: ActivityUpdate.Event = .update, rate: Int? = 140, dismissalAfter: Double? = nil) -> ActivityUpdate {
        let time = start.adding(seconds: seconds)
        return ActivityUpdate(
            event: event, activityID: activity, sequence: sequence, timestamp: time, staleDate: time.adding(seconds: 120),
            dismissalDate: dismissalAfter.map { time.adding(seconds: $0) }, priority: 5, reason: .changed,
            attributes: WorkoutActivityAttributes(workoutName: "Run"),
            contentState: .init(timerRange: start.date...start.adding(seconds: 28_800).date, pausedAt: nil, heartRate: rate,
                                distanceMeters: 12.5, intervalLabel: "<script>alert(1)</script>")
        )
    }

    static func message(_ update: ActivityUpdate) -> [UInt8] {
        try! PreviewMessages.update(EncodedUpdate(update))
    }
}

@Suite struct EventStreamFrameTests {
    @Test func aMessageIsItsFieldsThenABlankLine() {
        let bytes = EventStreamFrame.message(id: "a/1", event: "update", data: Array("{\"x\":1}\n".utf8))
        #expect(String(decoding: bytes, as: UTF8.self) == "id: a/1\nevent: update\ndata: {\"x\":1}\n\n")
    }

    @Test func lineBreaksInDataBecomeDataLinesAndInFieldsCannotSplitTheMessage() {
        let bytes = EventStreamFrame.message(id: "a\nid: b", event: "up\rdate", data: Array("one\ntwo".utf8))
        #expect(String(decoding: bytes, as: UTF8.self) == "id: a?id: b\nevent: up?date\ndata: one\ndata: two\n\n")
        #expect(String(decoding: EventStreamFrame.message(id: nil, event: "e", data: []), as: UTF8.self) == "event: e\ndata: \n\n")
    }

    @Test func keepAliveIsACommentAndRetryAField() {
        #expect(String(decoding: EventStreamFrame.keepAlive, as: UTF8.self) == ": keep-alive\n\n")
        #expect(String(decoding: EventStreamFrame.retry(milliseconds: 2000), as: UTF8.self) == "retry: 2000\n\n")
    }

    @Test func anUpdatesMessageCarriesItsNDJSONLineAndItsActivityAndSequence() throws {
        let update = Updates.make(Updates.activity, 7)
        let text = String(decoding: Updates.message(update), as: UTF8.self)
        let line = String(decoding: try UpdateLine.encode(update), as: UTF8.self)
        #expect(text == "id: hrbridge-20240101T060000Z-1/7\nevent: update\ndata: \(line)\n")
        #expect(EventID(parsing: "hrbridge-20240101T060000Z-1/7") == EventID(activity: "hrbridge-20240101T060000Z-1", sequence: 7))
        for bad in ["", "/7", "a/", "a/x", "a/0", "a7"] { #expect(EventID(parsing: bad) == nil, "\(bad)") }
    }

    @Test func theOverlaysStreamSaysTheShownRateItsZoneAndNullWhenLost() {
        let shown = String(decoding: PreviewMessages.heartRate(Updates.make(Updates.activity, 3, rate: 150), strap: "H10", zoneBoundaries: [114, 133, 152]),
                           as: UTF8.self)
        #expect(shown == """
        id: hrbridge-20240101T060000Z-1/3
        event: heart-rate
        data: {"bpm":150,"zone":2,"distanceMeters":12.5,"strap":"H10","activity":"hrbridge-20240101T060000Z-1","sequence":3,"event":"update","timestamp":1704088800}


        """)
        let lost = String(decoding: PreviewMessages.heartRate(Updates.make(Updates.activity, 4, rate: nil), strap: "H10", zoneBoundaries: [114]), as: UTF8.self)
        #expect(lost.contains("data: {\"bpm\":null,\"distanceMeters\":12.5,"), "\(lost)")
        let noZones = String(decoding: PreviewMessages.heartRate(Updates.make(Updates.activity, 5), strap: "H10", zoneBoundaries: []), as: UTF8.self)
        #expect(!noZones.contains("zone"))
    }

    @Test func sinksAndClockMessages() {
        let sinks = PreviewMessages.sinks(activity: "a-1", strap: "replay", [
            SinkReport(name: "stdout", sent: 7, superseded: 0, waiting: 0, lastError: nil),
            SinkReport(name: "https://example.com/hooks", sent: 5, superseded: 2, waiting: 1, lastError: "HTTP 503"),
            SinkReport(name: "ble-heart-rate:Gym", sent: 3, superseded: 0, waiting: 0, lastError: nil, detail: "advertising on hci0"),
        ])
        #expect(String(decoding: sinks, as: UTF8.self) == """
        event: sinks
        data: {"activity":"a-1","strap":"replay","sinks":[{"name":"stdout","sent":7,"superseded":0,"waiting":0},\
        {"name":"https:\\/\\/example.com\\/hooks","sent":5,"superseded":2,"waiting":1,"lastError":"HTTP 503"},\
        {"name":"ble-heart-rate:Gym","sent":3,"superseded":0,"waiting":0,"detail":"advertising on hci0"}]}


        """)
        let clock = PreviewMessages.clock(now: Updates.start.adding(seconds: 1.25), speed: 10)
        #expect(String(decoding: clock, as: UTF8.self) == "event: clock\ndata: {\"now\":1704088801.25,\"speed\":10}\n\n")
    }
}
