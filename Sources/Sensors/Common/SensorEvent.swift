/// What a workout's source reports: a live BlueZ connection or a replayed trace. Raw bytes stay raw
/// here so that the recorder keeps exactly what arrived; parsing happens downstream.
public struct SensorEvent: Sendable, Hashable {
    public var time: Timestamp
    public var kind: Kind
    /// The strap, or the distance sensor beside it.
    public var sensor: SensorRole

    public init(time: Timestamp, kind: Kind, sensor: SensorRole = .strap) {
        self.time = time
        self.kind = kind
        self.sensor = sensor
    }

    public enum Kind: Sendable, Hashable {
        /// A notification (or read) of a characteristic's value, byte for byte.
        case notification(characteristic: BluetoothUUID, value: [UInt8])
        case connected
        case disconnected(reason: String?)
        /// Battery Level read or notified, already validated.
        case battery(BatteryLevel)
        case bodySensorLocation(BodySensorLocation)
        /// Free text a person or tool attached to the trace.
        case note(String)
        /// The workout's timer stopped or started again (a watch's stop button, in an imported
        /// recording): the activity pauses and resumes as `hrbridge ctl pause` would make it.
        case paused
        case resumed
    }
}

extension SensorEvent.Kind {
    /// The reason a link gives when the bridge itself let go of the sensor (SIGINT/SIGTERM): the
    /// workout is ending, so what follows in a trace is the end, not a lost sensor.
    public static let stoppedByBridge = "stopped"

    /// The reason a link gives when the bridge let go of the sensor because the machine is going to
    /// sleep (logind's PrepareForSleep): an ordinary loss (sensor-lost), the link comes back after resume.
    public static let systemSleep = "system-sleep"

    /// The bridge let go of the sensor on purpose.
    public var isStopByBridge: Bool { self == .disconnected(reason: Self.stoppedByBridge) }
}

extension SensorEvent.Kind {
    /// A pause or resume: what a version-2 trace can say and a version-1 trace cannot.
    public var isTimerChange: Bool { self == .paused || self == .resumed }
}
