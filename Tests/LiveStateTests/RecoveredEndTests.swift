import Foundation
import Sensors
import LiveState
import Testing

/// The end a later run sends for an activity a crashed run left behind.
@Suite struct RecoveredEndTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// Inputs before the crash; the last update they produce is what the state file kept.
        let inputs: [(Double, EngineInput)]
        let expectedSequence: Int
        /// Where the final state's timer stops (seconds after the origin).
        let frozenAt: Double
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "live after start", inputs: [(0, .sample(beatsPerMinute: 120, contact: .detected))],
             expectedSequence: 2, frozenAt: 0),
        Case(name: "paused: the pause stays", inputs: [(0, .sample(beatsPerMinute: 120, contact: .detected)), (5, .pause)],
             expectedSequence: 3, frozenAt: 5),
        Case(name: "sensor lost", inputs: [(0, .sample(beatsPerMinute: 120, contact: .detected)), (4, .disconnected)],
             expectedSequence: 3, frozenAt: 4),
        Case(name: "label changed", inputs: [(0, .sample(beatsPerMinute: 120, contact: .detected)), (6, .label("Block 2"))],
             expectedSequence: 3, frozenAt: 6),
    ]

    @Test(arguments: cases)
    func endsWithTheNextSequenceAndNoHeartRate(_ testCase: Case) throws {
        var engine = try LiveStateEngine()
        var last: ActivityUpdate?
        for (seconds, input) in testCase.inputs {
            last = try engine.receive(input, at: EngineScript.time(seconds)).last ?? last
        }
        let kept = try #require(last)
        let policy = CadencePolicy()
        let end = kept.recoveredEnd(at: EngineScript.time(900), policy: policy)
        #expect(end.event == .end)
        #expect(end.reason.rawValue == "end:recovered")
        #expect(end.reason.endCause == .recovered)
        #expect(end.priority == 10)
        #expect(end.activityID == kept.activityID)
        #expect(end.sequence == testCase.expectedSequence)
        #expect(end.timestamp == EngineScript.time(900))
        #expect(end.staleDate == EngineScript.time(900 + policy.staleWindow))
        #expect(end.dismissalDate == EngineScript.time(900 + policy.dismissalDelay))
        #expect(end.contentState.heartRate == nil)
        #expect(end.contentState.pausedAt == EngineScript.time(testCase.frozenAt).date)
        #expect(end.contentState.timerRange == kept.contentState.timerRange)
        #expect(end.contentState.intervalLabel == kept.contentState.intervalLabel)
        #expect(end.attributes == kept.attributes)
        // It encodes like every other update (the 4 KB check included).
        #expect(try UpdateLine.encode(end).count > 0)
    }
}
