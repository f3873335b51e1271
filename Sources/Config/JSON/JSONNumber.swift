/// Number text for printing: `5` rather than `5.0`, `2.5` as is.
enum JSONNumber {
    static func text(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
