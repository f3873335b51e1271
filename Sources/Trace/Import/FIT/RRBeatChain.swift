import Sensors

/// Places the RR intervals of a FIT file's hrv messages in time. Those messages carry no time:
/// each holds the intervals the strap reported since the one before, written among the records.
/// As activity parsers do, the beats are a chain: each ends one interval after the previous beat,
/// the first one interval after the recording's start (its first record). The records then keep
/// the chain honest: a beat that would end before the record read last before its hrv message
/// (the strap lost beats, or the watch did not log them during a pause) ends at that record's
/// time instead, and the chain goes on from there. A chain that runs ahead of the records is left
/// as it is: only the strap's clock summing its own intervals makes it so, not lost beats.
struct RRBeatChain {
    private(set) var beats: [WorkoutRecording.Beat] = []

    /// Adds an interval of `milliseconds`. `start` is where a chain with no beat yet begins;
    /// `floor` the time of the last record before the interval's hrv message.
    mutating func append(milliseconds: Int64, start: Timestamp, floor: Timestamp) {
        let previous = beats.last?.time ?? start
        let end = max(previous.adding(microseconds: milliseconds * 1000), floor)
        beats.append(WorkoutRecording.Beat(time: end, milliseconds: Double(milliseconds)))
    }
}
