/// What `SensorKind` needs of a kind's measurement: to be read from one notification's bytes, and to
/// name its fields.
public protocol SensorMeasurement: Sendable {
    associatedtype ParseError: Error
    init(parsing value: [UInt8]) throws(ParseError)
    func describe(into fields: inout some MeasurementFieldWriter)
}
