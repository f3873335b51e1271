import Sensors

/// What a workout's sensors sent, counted as the feed handles it (for `/metrics`): plain integers
/// in the feed's value, so counting costs an increment on the session's own queue and no lock.
/// Read by copying the feed's tally on that queue when someone asks.
public struct SensorTally: Sendable, Equatable {
    /// Measurement notifications per kind, indexed as `SensorKind.all`: valid and rejected.
    public private(set) var notifications = [Int](repeating: 0, count: SensorKind.all.count)
    public private(set) var rejected = [Int](repeating: 0, count: SensorKind.all.count)
    /// Which sensor links are up now (a `connected` without a `disconnected` after it).
    public private(set) var linksUp: Set<SensorRole> = []
    /// Links that came back: a `connected` after a sensor's first.
    public private(set) var reconnects = 0
    /// When the strap's newest valid heart-rate sample was taken (trace time in a replay).
    public private(set) var lastValidSample: Timestamp?
    private var everConnected: Set<SensorRole> = []

    public init() {}

    /// `SensorKind.all`'s index of the heart-rate kind, found once.
    static let heartRateIndex = SensorKind.all.firstIndex { $0.contribution.givesDistance == false }!

    mutating func measured(kind index: Int, at time: Timestamp?) {
        notifications[index] += 1
        if let time { lastValidSample = time }
    }

    mutating func rejected(kind index: Int) {
        notifications[index] += 1
        rejected[index] += 1
    }

    mutating func connected(_ role: SensorRole) {
        linksUp.insert(role)
        if !everConnected.insert(role).inserted { reconnects += 1 }
    }

    mutating func disconnected(_ role: SensorRole) {
        linksUp.remove(role)
    }
}
