import Sensors

/// Reading an element's value as a number or a time, with the file's line when it is neither.
extension XMLWalker {
    /// The element's text as a number in `range`; `what` names it in an error (`HeartRateBpm Value`).
    mutating func number(_ element: XMLElement, what: String? = nil, in range: ClosedRange<Double>) throws(ImportError) -> Double {
        let text = try text()
        let what = what ?? element.name.local
        guard let value = XSDValue.number(text) else { throw failure(line: element.line, "\(what) '\(text)' is not a number") }
        guard range.contains(value) else {
            let bounds = range.upperBound == .greatestFiniteMagnitude ? "below \(Self.plain(range.lowerBound))"
                : "outside \(Self.plain(range.lowerBound))…\(Self.plain(range.upperBound))"
            throw failure(line: element.line, "\(what) \(text) is \(bounds)")
        }
        return value
    }

    /// The element's text as an xsd:dateTime.
    mutating func dateTime(_ element: XMLElement) throws(ImportError) -> Timestamp {
        let text = try text()
        guard let time = XSDValue.dateTime(text) else {
            throw failure(line: element.line, "\(element.name.local) '\(text)' is not a date and time such as 2024-05-01T06:30:00Z")
        }
        // Refused here, with the line: the trace made of the file could not write such a start.
        guard UTCTimestampText.writableRange.contains(time) else {
            throw failure(line: element.line, "\(element.name.local) '\(text)' is outside the years \(UTCTimestampText.writableYears) a trace can hold")
        }
        return time
    }

    /// `0`, `65535`, `2.5`: a bound as people write it.
    private static func plain(_ bound: Double) -> String {
        bound == bound.rounded() ? String(Int(bound)) : String(bound)
    }
}

extension ClosedRange<Double> {
    /// Any value from `lower` up.
    static func atLeast(_ lower: Double) -> ClosedRange<Double> { lower...Double.greatestFiniteMagnitude }
}
