/// Which of a workout's sensors an event came from. A workout is one strap, and beside it at most
/// one sensor that knows the distance (a foot pod or a bike sensor); the kind of that sensor is
/// told by the characteristic of its notifications, so the role is all an event needs to carry.
public enum SensorRole: String, Sendable, Hashable, CaseIterable {
    /// The heart-rate strap: its samples and its link decide the activity's life and "sensor lost".
    case strap
    /// The sensor whose measurements give the distance; its dropouts never touch the heart rate.
    case distance
}
