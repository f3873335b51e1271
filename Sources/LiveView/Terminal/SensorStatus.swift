/// One sensor of a running session, as the terminal's status block shows it (`run`, paced `replay`,
/// `ctl status --watch`): a strap with its activity, or the distance sensor beside it. Times are
/// relative to when the snapshot was taken, so a snapshot sent over D-Bus needs no shared clock.
public struct SensorStatus: Sendable, Equatable {
    public enum Role: String, Sendable, CaseIterable {
        case strap
        case distance
    }

    public enum Link: String, Sendable, CaseIterable {
        /// No value yet (connecting, or the trace has not reached its first sample).
        case waiting
        /// Valid values arrive.
        case live
        /// No valid value for too long, no skin contact, or disconnected.
        case lost
        /// The session has ended.
        case stopped
    }

    /// The strap's activity as the phone was last told.
    public struct LastUpdate: Sendable, Equatable {
        public var sequence: Int
        public var reason: String
        /// Seconds since it went out, on the session's clock.
        public var age: Double

        public init(sequence: Int, reason: String, age: Double) {
            self.sequence = sequence
            self.reason = reason
            self.age = age
        }
    }

    /// How `ctl --strap` names it (address, name, `replay`), or the distance sensor's selector.
    public var name: String
    public var role: Role
    public var link: Link
    /// A strap's newest valid rate; nil before the first or while lost.
    public var heartRate: Int?
    /// The distance the activity shows, in metres; nil without a distance sensor.
    public var distanceMeters: Double?
    public var lastUpdate: LastUpdate?
    /// Seconds until the engine next decides something on its own (a refresh, a loss, a held
    /// change); nil when only a new value can change anything.
    public var nextDeadlineIn: Double?

    public init(name: String, role: Role, link: Link, heartRate: Int? = nil, distanceMeters: Double? = nil,
                lastUpdate: LastUpdate? = nil, nextDeadlineIn: Double? = nil) {
        self.name = name
        self.role = role
        self.link = link
        self.heartRate = heartRate
        self.distanceMeters = distanceMeters
        self.lastUpdate = lastUpdate
        self.nextDeadlineIn = nextDeadlineIn
    }
}
