import Sensors
import Testing
@testable import Trace

/// Random valid FIT files (see `RandomFITWorkout`) import to exactly what was written.
@Suite struct FITPropertyTests {
    @Test(arguments: 0..<300)
    func aRandomValidFileImportsToWhatWasWritten(seed: UInt64) throws {
        let workout = RandomFITWorkout(seed: seed)
        let recording = try WorkoutRecording(fit: workout.bytes, path: "random.fit", source: "random.fit")
        #expect(recording.samples == workout.samples)
        #expect(recording.pauses == workout.pauses)
        #expect(recording.start == workout.samples[0].time)
        #expect(recording.device == workout.device)
        #expect(recording.tolerated == workout.tolerated)
        #expect(recording.beats.isEmpty)
    }
}
