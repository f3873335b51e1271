/// A point as a device recorded it, for the test writers to put into a TCX or GPX file: what the
/// import must give back.
public struct WrittenPoint: Sendable {
    /// Microseconds since the Unix epoch (UTC); nil: the point has no time (GPX allows that).
    public var time: Int64?
    public var heartRate: Int?
    /// TCX: DistanceMeters.
    public var distance: Double?
    /// TCX: TPX Speed; GPX: TrackPointExtension v2 speed.
    public var speed: Double?
    /// TCX: Cadence; GPX: cad.
    public var cadence: Int?
    /// TCX: TPX RunCadence (one foot's strides a minute).
    public var runCadence: Int?
    /// GPX: lat and lon.
    public var position: (latitude: Double, longitude: Double)?

    public init(time: Int64?, heartRate: Int? = nil, distance: Double? = nil, speed: Double? = nil, cadence: Int? = nil,
                runCadence: Int? = nil, position: (latitude: Double, longitude: Double)? = nil) {
        self.time = time
        self.heartRate = heartRate
        self.distance = distance
        self.speed = speed
        self.cadence = cadence
        self.runCadence = runCadence
        self.position = position
    }
}
