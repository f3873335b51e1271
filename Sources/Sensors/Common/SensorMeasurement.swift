/// What `SensorKind` needs of a kind's measurement: to be read from one notification's bytes, to
/// name its fields, and the heart rate it carries if any.
public protocol SensorMeasurement: Sendable {
    associatedtype ParseError: Error
    init(parsing value: [UInt8]) throws(ParseError)
    func describe(into fields: inout some MeasurementFieldWriter)
    /// Beats per minute this value reports beside what the kind is for (a fitness machine's own
    /// heart rate); nil for the others.
    var heartRate: Int? { get }
}

extension SensorMeasurement {
    public var heartRate: Int? { nil }
}
