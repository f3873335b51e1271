import Sensors

/// Builds traces from a `btmon -w` capture of a real session: one trace per device the host
/// connected to, holding its connections and disconnections (from the HCI events) and the values
/// it notified or indicated (from the ATT traffic), at the capture's own times. A device with
/// Heart Rate Measurement is a strap (a version-1 trace); one whose values are only a foot pod's
/// (0x2A53) or bike sensor's (0x2A5B) gets a version-2 trace of distance-sensor events, which is
/// what such a sensor's events are in a workout.
public enum BtsnoopImport {
    public struct Device: Sendable {
        public var address: String
        public var header: TraceHeader
        public var events: [SensorEvent]
    }

    public struct Result: Sendable {
        /// In the order the devices first connected.
        public var devices: [Device]
        public var skips: BtsnoopSkips
    }

    /// `source`: the capture's file name, for the note at the start of each trace. `handles`
    /// names characteristics whose discovery is not in the capture (`--handle`).
    public static func convert(_ capture: [UInt8], source: String,
                               handles: [UInt16: BluetoothUUID] = [:]) throws(BtsnoopError) -> Result {
        var reader = try BtsnoopRecordReader(capture)
        var conversion = BtsnoopConversion(handles: handles)
        while let record = try reader.next() {
            try conversion.add(record)
        }
        return conversion.result(source: source)
    }
}
