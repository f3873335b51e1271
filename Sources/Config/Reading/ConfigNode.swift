import FoundationEssentials
import Platform
import SinkVocabulary

/// A JSON value at its path, with typed readers. Each reader either returns the value or reports
/// what was expected at that path and returns nil, so reading goes on and finds every issue.
struct ConfigNode {
    let value: JSONValue
    let path: ConfigPath
    let log: IssueLog

    func report(_ message: String) {
        log.report(path, message)
    }

    private func expected(_ what: String) -> Void {
        report("expected \(what), got \(value.kindDescription)")
    }

    func string() -> String? {
        guard case let .string(text) = value else { expected("a string"); return nil }
        return text
    }

    func nonEmptyString() -> String? {
        guard let text = string() else { return nil }
        guard !text.trimmed.isEmpty else { report("expected a non-empty string"); return nil }
        return text
    }

    func bool() -> Bool? {
        guard case let .bool(flag) = value else { expected("true or false"); return nil }
        return flag
    }

    /// A duration: a finite number of seconds, 0 or more.
    func seconds() -> Double? { quantity(unit: "seconds") }

    /// A length: a finite number of metres, 0 or more.
    func meters() -> Double? { quantity(unit: "metres") }

    /// A percentage: a finite number from 0 to 100.
    func percent() -> Double? { quantity(unit: "percent").flatMap { within(0...100, $0, unit: "percent") } }

    /// A length within `range`.
    func meters(in range: ClosedRange<Double>) -> Double? {
        meters().flatMap { within(range, $0, unit: "metres") }
    }

    /// `amount` if it is in `range`. Every number a file holds has a range: past it a value is a typo
    /// (millimetres for metres) or overflows where it is used (seconds × 1000 into an Int traps).
    func within(_ range: ClosedRange<Double>, _ amount: Double, unit: String) -> Double? {
        guard range.contains(amount) else {
            report("expected \(unit) between \(JSONNumber.text(range.lowerBound)) and \(JSONNumber.text(range.upperBound)), got \(JSONNumber.text(amount))")
            return nil
        }
        return amount
    }

    private func quantity(unit: String) -> Double? {
        guard case let .number(text) = value, let amount = Double(text), amount.isFinite else {
            expected("a number of \(unit)"); return nil
        }
        guard amount >= 0 else { report("expected \(unit) >= 0, got \(text)"); return nil }
        return amount
    }

    /// A whole number in `range` (`5`, not `5.0`: a fraction where a count belongs is a mistake).
    func integer(in range: ClosedRange<Int>, unit: String) -> Int? {
        guard case let .number(text) = value else { expected("a whole number of \(unit)"); return nil }
        guard let number = Int(text) else { report("expected a whole number of \(unit), got \(text)"); return nil }
        guard range.contains(number) else {
            report("expected \(unit) from \(range.lowerBound) to \(range.upperBound), got \(text)"); return nil
        }
        return number
    }

    /// The elements, each at its indexed path.
    func array() -> [ConfigNode]? {
        guard case let .array(elements) = value else { expected("an array"); return nil }
        return elements.enumerated().map { ConfigNode(value: $1, path: path.appending($0), log: log) }
    }

    /// One of a fixed set of words (`"type": "apns"`).
    func choice(_ choices: [String]) -> String? {
        guard let text = string() else { return nil }
        guard choices.contains(text) else {
            report("expected one of \(choices.joined(separator: ", ")), got \(text.jsonQuoted)"); return nil
        }
        return text
    }

    /// An absolute file path (where the process writes, e.g. a file sink).
    func absolutePath() -> String? {
        guard let text = string() else { return nil }
        guard text.startsWithScalars(of: "/") else { report("expected an absolute path, got \(text.jsonQuoted)"); return nil }
        return text
    }
}
