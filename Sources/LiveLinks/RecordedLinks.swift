import Dispatch
import Sensors
import SessionState
import Session

/// `record`: each strap's raw events (and its distance sensor's) to its trace file, nothing else,
/// until a signal stops the links or a link cannot go on.
public enum RecordedLinks {
    public struct Workout {
        var strap: SensorSelector
        var distance: SensorSelector?
        var recorder: TraceRecorder

        public init(strap: SensorSelector, distance: SensorSelector?, recorder: TraceRecorder) {
            self.strap = strap
            self.distance = distance
            self.recorder = recorder
        }
    }

    /// Returns once every link has stopped with its events written; throws the first reason a link
    /// stopped on its own (Bluetooth unusable, a write that failed).
    public static func run(_ workouts: [Workout], console: any SessionConsole) throws(SessionError) {
        let links = SensorLinks(console: console)
        let ended = DispatchGroup()
        let watcher = SignalWatcher(queue: DispatchQueue(label: "hrbridge.signals")) { signal in
            console.warn("\(SessionError.signalName(signal)): stopping notifications and disconnecting")
            links.stopAll()
        }
        defer { watcher.cancel() }
        links.start(workouts.flatMap { workout in
            let recorder = workout.recorder
            ended.enter()
            if workout.distance != nil { ended.enter() }
            // The strap and its distance sensor write one file: both deliver on one queue, in time order.
            return SensorLinks.Link.workout(strap: workout.strap, distance: workout.distance,
                                            queue: DispatchQueue(label: "hrbridge.record"),
                                            consume: { recorder.append($0) },
                                            strapEnded: { ended.leave() }, distanceEnded: { ended.leave() })
        })
        ended.wait()
        links.waitForAll()
        if let failure = links.failure { throw failure }
    }
}
