/// What a message on `…/<strap>/control` asks for: `pause`, `resume`, `label <text>` or `end`, as
/// `hrbridge ctl` says them; surrounding whitespace is ignored, anything else is refused with a reason.
enum MQTTControlCommand {
    static func parse(_ text: String) -> Result<SinkCommand, Problem> {
        let trimmed = text.trimmingWhitespace
        switch trimmed {
        case "pause": return .success(.pause)
        case "resume": return .success(.resume)
        case "end": return .success(.end)
        default:
            guard trimmed.startsWithScalars(of: "label ") else {
                return .failure(Problem(message: "expected pause, resume, label TEXT or end, got \(String(trimmed.prefix(64)).jsonQuoted)"))
            }
            let label = String(trimmed.unicodeScalars.dropFirst("label ".unicodeScalars.count)).trimmingWhitespace
            guard !label.isEmpty else { return .failure(Problem(message: "label needs a text")) }
            return .success(.label(label))
        }
    }

    struct Problem: Error, Equatable {
        var message: String
    }
}

private extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
