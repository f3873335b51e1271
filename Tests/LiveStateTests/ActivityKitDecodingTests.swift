import Foundation
import Sensors
import LiveState
import Testing

/// The iOS app's type, copied by hand from the app's design notes (DESIGN.md §4), not our struct: what
/// the phone would decode.
private struct PhoneWorkoutAttributes: Codable {
    struct ContentState: Codable, Hashable {
        var timerRange: ClosedRange<Date>
        var pausedAt: Date?
        var heartRate: Int?
        var distanceMeters: Double
        var intervalLabel: String
    }
    var workoutName: String
}

@Suite struct ActivityKitDecodingTests {
    let start = Timestamp(unixSeconds: 1_704_088_800) // 2024-01-01T06:00:00Z

    @Test func phoneDecodesOurContentStateWithPlainDecoder() throws {
        let end = start.adding(seconds: 8 * 3600)
        let paused = start.adding(seconds: 90.5)
        let state = WorkoutActivityAttributes.ContentState(
            timerRange: start.date...end.date, pausedAt: paused.date, heartRate: 152,
            distanceMeters: 0, intervalLabel: "Tempo \"2\"/3"
        )
        let bytes = try ActivityKitEncoding.encode(state)
        let decoded = try JSONDecoder().decode(PhoneWorkoutAttributes.ContentState.self, from: Data(bytes))
        // Dates travel as seconds since 2001-01-01 (Foundation's default), not Unix seconds.
        #expect(decoded.timerRange.lowerBound.timeIntervalSinceReferenceDate == 725_781_600)
        #expect(decoded.timerRange.upperBound.timeIntervalSinceReferenceDate == 725_781_600 + 28_800)
        #expect(decoded.pausedAt?.timeIntervalSinceReferenceDate == 725_781_690.5)
        #expect(decoded.heartRate == 152)
        #expect(decoded.distanceMeters == 0)
        #expect(decoded.intervalLabel == "Tempo \"2\"/3")
    }

    @Test func absentHeartRateAndPauseAreMissingKeysNotNull() throws {
        let state = WorkoutActivityAttributes.ContentState(
            timerRange: start.date...start.adding(seconds: 28_800).date, heartRate: nil, intervalLabel: ""
        )
        let text = String(decoding: try ActivityKitEncoding.encode(state), as: UTF8.self)
        #expect(!text.contains("heartRate"))
        #expect(!text.contains("pausedAt"))
        #expect(text.contains("\"timerRange\":[725781600,725810400]"))
        let decoded = try JSONDecoder().decode(PhoneWorkoutAttributes.ContentState.self, from: Data(text.utf8))
        #expect(decoded.heartRate == nil)
        #expect(decoded.pausedAt == nil)
    }

    @Test func phoneDecodesOurAttributes() throws {
        let bytes = try ActivityKitEncoding.encode(WorkoutActivityAttributes(workoutName: "Long run"))
        let decoded = try JSONDecoder().decode(PhoneWorkoutAttributes.self, from: Data(bytes))
        #expect(decoded.workoutName == "Long run")
    }

    @Test func payloadOverFourKilobytesIsRefused() throws {
        let attributes = WorkoutActivityAttributes(workoutName: "Run")
        func state(labelLength: Int) -> WorkoutActivityAttributes.ContentState {
            .init(timerRange: start.date...start.date, heartRate: 150,
                  intervalLabel: String(repeating: "x", count: labelLength))
        }
        let fitting = try ActivityKitEncoding.payload(attributes: attributes, contentState: state(labelLength: 10))
        let overhead = fitting.byteCount - 10
        let largest = try ActivityKitEncoding.payload(
            attributes: attributes, contentState: state(labelLength: ActivityKitEncoding.payloadLimit - overhead)
        )
        #expect(largest.byteCount == 4096)
        #expect(throws: LiveStateError.payloadTooLarge(bytes: 4097, limit: 4096)) {
            try ActivityKitEncoding.payload(
                attributes: attributes, contentState: state(labelLength: ActivityKitEncoding.payloadLimit - overhead + 1)
            )
        }
    }
}
