import Sensors

/// The JSON shape of a parsed measurement, shared by `hrbridge parse` and sample replay:
/// `{"bpm":72,"contact":"detected","energyExpended":null,"rr":[1024]}` (rr in 1/1024 s).
extension JSONLine {
    mutating func measurement(_ measurement: HeartRateMeasurement) {
        integer("bpm", measurement.beatsPerMinute)
        string("contact", measurement.sensorContact.rawValue)
        optionalInteger("energyExpended", measurement.energyExpended)
        integers("rr", measurement.rrIntervals)
    }
}
