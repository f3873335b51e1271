import Platform

/// What a person, or the Live Activity's buttons, can ask of a running workout: the one vocabulary
/// of `hrbridge ctl`, the D-Bus service, MQTT's control topic and any surface after them. Each
/// surface carries it its own way (arguments, method calls, a message's text); the words, the
/// rules and the refusals are these.
public enum ControlAction: Sendable, Hashable {
    case pause
    case resume
    /// A new interval label, whitespace around it dropped; empty clears it. Whether it fits
    /// ActivityKit's 4 KB beside the workout name is the engine's to say (`LiveStateError`).
    case label(String)
    case end

    /// The words, as help texts and refusals list them.
    public static let words = "pause, resume, label TEXT or end"

    /// Why a request names no action.
    public struct Refusal: Error, Hashable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// `action` (one word) and its text, as `hrbridge ctl ACTION [TEXT]` takes them: `label` needs
    /// a text (an empty one clears the label: `ctl label ""`), the others take none.
    public static func parse(action: String, text: String?) -> Result<ControlAction, Refusal> {
        switch action {
        case "pause", "resume", "end":
            guard text == nil else { return .failure(Refusal(description: "\(action) takes no text")) }
            return .success(action == "pause" ? .pause : action == "resume" ? .resume : .end)
        case "label":
            guard let text else { return .failure(Refusal(description: "label needs the new interval label")) }
            return .success(.label(text.trimmingWhitespace))
        default:
            return .failure(Refusal(description: "expected \(words), got \(quoted(String(action.prefix(64))))"))
        }
    }

    /// One line of text, as a message says it (`label Intervals 4x4`): the first word is the action,
    /// the rest its text; whitespace around either is ignored (so a line cannot clear the label).
    public static func parse(_ line: String) -> Result<ControlAction, Refusal> {
        let trimmed = line.trimmingWhitespace
        let scalars = trimmed.unicodeScalars
        guard let space = scalars.firstIndex(where: { $0.properties.isWhitespace }) else {
            return parse(action: trimmed, text: nil)
        }
        return parse(action: String(scalars[..<space]), text: String(scalars[space...]))
    }

    /// What the engine hears (nil for `end`, which stops the session rather than the engine alone).
    public var engineInput: EngineInput? {
        switch self {
        case .pause: .pause
        case .resume: .resume
        case let .label(text): .label(text)
        case .end: nil
        }
    }

    /// The action as it is written (`label "Intervals 4x4"`), for logs.
    public var spelled: String {
        switch self {
        case .pause: "pause"
        case .resume: "resume"
        case let .label(text): "label " + Self.quoted(text)
        case .end: "end"
        }
    }

    /// A JSON string literal: control characters and quotes made visible in a log line.
    private static func quoted(_ text: String) -> String {
        var json = JSONBytes(capacity: text.utf8.count + 2)
        json.string(text)
        return String(decoding: json.bytes, as: UTF8.self)
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
