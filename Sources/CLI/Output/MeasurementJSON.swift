import Sensors

/// A parsed heart rate measurement as JSON, for sample replay: the shape is the one
/// `HeartRateMeasurement.describe(into:)` declares (`{"bpm":72,"contact":"detected",
/// "energyExpended":null,"rr":[1024]}`), the same `hrbridge parse` prints.
extension JSONLine {
    mutating func measurement(_ measurement: HeartRateMeasurement) {
        measurement.describe(into: &self)
    }
}
