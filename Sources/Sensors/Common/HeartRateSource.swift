/// Where a workout's heart rate may come from (`--heart-rate-from`, config `heartRateFrom`, trace
/// header `heartRateFrom=`). The strap always wins while its link is up; `machine` lets a distance
/// sensor that reports a heart rate of its own (a treadmill's grip sensors, a bike's paired strap)
/// feed the activity while there is no strap.
public enum HeartRateSource: String, Sendable, Hashable, CaseIterable {
    /// The strap only (the default).
    case strap
    /// The machine's own rate while no strap is connected.
    case machine
}
