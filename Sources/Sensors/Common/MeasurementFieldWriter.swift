/// Where a measurement names its fields, in wire order. `hrbridge parse` and sample replay write them
/// as one JSON object (the CLI's JSONLine conforms), so a kind's output shape is declared once, in its
/// own folder. The `optional…` forms write an absent value (JSON null).
public protocol MeasurementFieldWriter {
    mutating func integer<Integer: BinaryInteger>(_ name: StaticString, _ value: Integer)
    mutating func optionalInteger<Integer: BinaryInteger>(_ name: StaticString, _ value: Integer?)
    mutating func integers<Integer: BinaryInteger>(_ name: StaticString, _ values: [Integer])
    mutating func double(_ name: StaticString, _ value: Double)
    mutating func optionalDouble(_ name: StaticString, _ value: Double?)
    mutating func bool(_ name: StaticString, _ value: Bool)
    mutating func string(_ name: StaticString, _ value: String)
}
