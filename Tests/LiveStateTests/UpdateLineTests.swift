import Foundation
import Sensors
import LiveState
import Testing

@Suite struct UpdateLineTests {
    let start = Timestamp(unixSeconds: 1_704_088_800)

    func update(event: ActivityUpdate.Event, reason: UpdateReason, heartRate: Int?, dismissal: Timestamp? = nil) -> ActivityUpdate {
        ActivityUpdate(
            event: event, activityID: "hrbridge-20240101T060000Z", sequence: 2,
            timestamp: start.adding(seconds: 61.25), staleDate: start.adding(seconds: 181.25),
            dismissalDate: dismissal, priority: reason.isImmediate ? 10 : 5, reason: reason,
            attributes: .init(workoutName: "Run"),
            contentState: .init(timerRange: start.date...start.adding(seconds: 28_800).date, heartRate: heartRate, intervalLabel: "")
        )
    }

    @Test func updateLineHasTheDocumentedFieldsInOrder() throws {
        let line = String(decoding: try UpdateLine.encode(update(event: .update, reason: .changed, heartRate: 141)), as: UTF8.self)
        #expect(line == """
        {"event":"update","activity":"hrbridge-20240101T060000Z","sequence":2,"timestamp":1704088861.25,\
        "staleDate":1704088981.25,"priority":5,"reason":"changed","attributesType":"WorkoutActivityAttributes",\
        "attributes":{"workoutName":"Run"},"contentState":{"distanceMeters":0,"heartRate":141,"intervalLabel":"",\
        "timerRange":[725781600,725810400]}}

        """)
    }

    @Test func endLineCarriesDismissalDateAndPriorityTen() throws {
        let end = update(event: .end, reason: .end(.sensorGone), heartRate: nil, dismissal: start.adding(seconds: 1861.25))
        let object = try JSONSerialization.jsonObject(with: Data(try UpdateLine.encode(end))) as? [String: Any]
        #expect(object?["event"] as? String == "end")
        #expect(object?["reason"] as? String == "end:sensor-gone")
        #expect(object?["priority"] as? Int == 10)
        #expect(object?["dismissalDate"] as? Double == 1_704_090_661.25)
        #expect((object?["contentState"] as? [String: Any])?["heartRate"] == nil)
    }

    @Test(arguments: [
        (Int64(1_704_088_800_000_000), "1704088800"),
        (1_704_088_800_000_001, "1704088800.000001"),
        (1_704_088_800_500_000, "1704088800.5"),
        (-1_500_000, "-1.5"),
        (-500_000, "-0.5"),
    ])
    func unixSecondsAreExactDecimals(micros: Int64, text: String) {
        #expect(UpdateLine.unixSecondsText(Timestamp(microsecondsSinceUnixEpoch: micros)) == text)
    }
}
