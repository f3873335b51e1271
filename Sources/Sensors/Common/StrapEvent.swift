/// What a strap source reports: a live BlueZ connection or a replayed trace. Raw bytes stay raw here
/// so that the recorder keeps exactly what arrived; parsing happens downstream.
public struct StrapEvent: Sendable, Hashable {
    public var time: Timestamp
    public var kind: Kind

    public init(time: Timestamp, kind: Kind) {
        self.time = time
        self.kind = kind
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
    }
}
