import Sensors

/// The workout timer's pauses from a FIT file's timer events: a stop (or stop-all) opens a pause,
/// the next start ends it. A stop while stopped and a start while running change nothing (the
/// first start is the workout's own).
struct TimerPauses {
    private(set) var pauses: [WorkoutRecording.Pause] = []
    private(set) var lastEventTime: Timestamp?

    private var isStopped: Bool { pauses.last.map { $0.end == nil } ?? false }

    mutating func stopped(at time: Timestamp) {
        lastEventTime = time
        if !isStopped { pauses.append(WorkoutRecording.Pause(start: time, end: nil)) }
    }

    mutating func started(at time: Timestamp) {
        lastEventTime = time
        if isStopped { pauses[pauses.count - 1].end = time }
    }
}
