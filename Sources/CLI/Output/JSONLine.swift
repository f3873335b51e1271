import Platform
import LiveState
import Sensors

/// One JSON object on a line of its own, field by field: what a measurement writes itself into
/// (`MeasurementFieldWriter`) for `parse` and sample replay, and `scan --json`'s lines. A thin
/// layer over `JSONBytes`, the one JSON writer (no `/` escaping: these lines are for reading).
struct JSONLine: MeasurementFieldWriter {
    private var json = JSONBytes(capacity: 128)

    init() {
        json.beginObject()
    }

    mutating func key(_ name: StaticString) { json.key(name) }

    mutating func integer<Integer: BinaryInteger>(_ name: StaticString, _ value: Integer) {
        json.key(name)
        json.integer(value)
    }

    mutating func optionalInteger<Integer: BinaryInteger>(_ name: StaticString, _ value: Integer?) {
        json.key(name)
        if let value { json.integer(value) } else { json.null() }
    }

    mutating func integers<Integer: BinaryInteger>(_ name: StaticString, _ values: [Integer]) {
        json.key(name)
        json.raw(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { json.raw(UInt8(ascii: ",")) }
            json.integer(value)
        }
        json.raw(UInt8(ascii: "]"))
    }

    /// Shortest round-trip digits (`3.5`, `1234.5`); whole values without `.0` (`3`), as JSONEncoder and
    /// the ActivityKit encoding print them. JSON has no NaN or infinity: those print null.
    mutating func double(_ name: StaticString, _ value: Double) {
        json.key(name)
        number(value)
    }

    mutating func optionalDouble(_ name: StaticString, _ value: Double?) {
        json.key(name)
        if let value { number(value) } else { json.null() }
    }

    private mutating func number(_ value: Double) {
        guard value.isFinite else { return json.null() }
        try? json.number(value) // throws only for a value that is not finite
    }

    mutating func bool(_ name: StaticString, _ value: Bool) {
        json.key(name)
        json.bool(value)
    }

    mutating func string(_ name: StaticString, _ value: String) {
        json.key(name)
        json.string(value, escapingSlash: false)
    }

    /// Appends bytes the caller has already made valid JSON.
    mutating func raw(_ byte: UInt8) { json.raw(byte) }
    mutating func raw(_ body: (inout [UInt8]) -> Void) { json.raw(body) }

    /// Closes the object and ends the line.
    mutating func finish() -> [UInt8] {
        json.endObject()
        json.raw(UInt8(ascii: "\n"))
        return json.bytes
    }
}
