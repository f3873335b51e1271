import Sensors

/// What a workout's sensors sent, counted as the feed handles it (for `/metrics`): plain integers
/// in the feed's value, so counting costs an increment on the session's own queue and no lock.
/// Read by copying the feed's tally on that queue when someone asks. The strap's counts are fields
/// of their own: its path runs once per notification, where an array's checks cost more than the count.
public struct SensorTally: Sendable, Equatable {
    private var heartRateValues = 0
    private var heartRateRejected = 0
    /// The distance sensor's, indexed as `SensorKind.all` (the heart-rate slot stays 0).
    private var distanceValues = [Int](repeating: 0, count: SensorKind.all.count)
    private var distanceRejected = [Int](repeating: 0, count: SensorKind.all.count)
    /// Which sensor links are up now (a `connected` without a `disconnected` after it).
    public private(set) var linksUp: Set<SensorRole> = []
    /// Links that came back: a `connected` after a sensor's first.
    public private(set) var reconnects = 0
    /// When the strap's newest valid heart-rate sample was taken (trace time in a replay).
    public private(set) var lastValidSample: Timestamp?
    private var everConnected: Set<SensorRole> = []

    public init() {}

    /// Measurement notifications of `SensorKind.all[index]`, valid or not.
    public func notifications(kind index: Int) -> Int {
        SensorKind.all[index].contribution.givesDistance ? distanceValues[index] : heartRateValues
    }

    /// …of which were dropped as malformed.
    public func rejected(kind index: Int) -> Int {
        SensorKind.all[index].contribution.givesDistance ? distanceRejected[index] : heartRateRejected
    }

    mutating func heartRateMeasured(at time: Timestamp) {
        heartRateValues &+= 1
        lastValidSample = time
    }

    mutating func heartRateDropped() {
        heartRateValues &+= 1
        heartRateRejected &+= 1
    }

    mutating func distanceMeasured(kind index: Int) {
        distanceValues[index] &+= 1
    }

    mutating func distanceDropped(kind index: Int) {
        distanceValues[index] &+= 1
        distanceRejected[index] &+= 1
    }

    mutating func connected(_ role: SensorRole) {
        linksUp.insert(role)
        if !everConnected.insert(role).inserted { reconnects += 1 }
    }

    mutating func disconnected(_ role: SensorRole) {
        linksUp.remove(role)
    }
}
