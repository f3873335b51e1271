import Sensors

/// One `t_seconds,value` row of a recording.
public struct CSVRow: Sendable, Hashable {
    public var seconds: Double
    public var value: Double

    public init(seconds: Double, value: Double) {
        self.seconds = seconds
        self.value = value
    }

    /// Bounds for the value column, so a bad recording is refused with its line number
    /// instead of producing bytes no strap would send.
    public struct ValueRule: Sendable {
        public var name: String
        public var range: ClosedRange<Double>

        public static let beatsPerMinute = ValueRule(name: "bpm", range: 0...65535)
        /// RR intervals travel as u16 in 1/1024 s: at most 63,999 ms.
        public static let rrMilliseconds = ValueRule(name: "rr_ms", range: 1...63_999)
    }

    /// Parses CSV text of two numeric columns. A first line that is not numeric is taken as
    /// the column header; blank lines are skipped; times must not go back, nor past what a trace
    /// started at `start` can hold.
    public static func parse(
        _ text: String, path: String, rule: ValueRule, start: Timestamp = RecordingImport.defaultStart
    ) throws(TraceReadError) -> [CSVRow] {
        // Microseconds after `start` at which year 10000 begins. As a Double it may be off by the few
        // microseconds Doubles step by at this size: never enough to overflow, nor to refuse year 9999.
        let endOfTime = Double(UTCTimestampText.writableRange.upperBound.microsecondsSinceUnixEpoch + 1 - start.microsecondsSinceUnixEpoch)
        var rows: [CSVRow] = []
        var lineNumber = 0
        var sawContent = false
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let isFirstContent = !sawContent
            sawContent = true
            // On bytes: a comma followed by a combining mark is one Character.
            let fields = line.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                .map { Substring(String(decoding: $0, as: UTF8.self)) }
            func fail(_ reason: String) -> TraceReadError {
                .malformed(path: path, line: lineNumber, reason: reason)
            }
            guard fields.count == 2 else {
                throw fail("expected 2 comma-separated columns (t_seconds,\(rule.name)), found \(fields.count)")
            }
            let timeText = fields[0].trimmingSpaces, valueText = fields[1].trimmingSpaces
            guard let seconds = Double(timeText), seconds.isFinite else {
                if isFirstContent { continue } // the column header
                throw fail("t_seconds '\(timeText)' is not a number")
            }
            guard let value = Double(valueText), value.isFinite else {
                throw fail("\(rule.name) '\(valueText)' is not a number")
            }
            guard seconds >= 0 else { throw fail("t_seconds \(timeText) is negative") }
            // Checked here, with the line, so that the conversion to whole microseconds cannot trap.
            guard microseconds(seconds) < endOfTime else {
                throw fail("t_seconds \(timeText) is past the end of year 9999, the last a trace can hold")
            }
            if let previous = rows.last, seconds < previous.seconds {
                throw fail("t_seconds \(timeText) goes back in time (previous row at \(previous.seconds))")
            }
            guard rule.range.contains(value.rounded()) else {
                throw fail("\(rule.name) \(valueText) is outside \(Int(rule.range.lowerBound))…\(Int(rule.range.upperBound))")
            }
            rows.append(CSVRow(seconds: seconds, value: value))
        }
        return rows
    }

    /// A time as the recording takes it: whole microseconds.
    static func microseconds(_ seconds: Double) -> Double {
        (seconds * Double(Timestamp.microsecondsPerSecond)).rounded()
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var trimmed = self
        while let first = trimmed.first, first == " " || first == "\t" { trimmed.removeFirst() }
        while let last = trimmed.last, last == " " || last == "\t" { trimmed.removeLast() }
        return trimmed
    }
}
