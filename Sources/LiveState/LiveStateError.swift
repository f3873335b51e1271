/// What the live-state module refuses, said so a person can act on it.
public enum LiveStateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Attributes + content state would exceed ActivityKit's limit; the update is not sent.
    case payloadTooLarge(bytes: Int, limit: Int)
    /// A value has no JSON form (e.g. a non-finite distance); Foundation's encoder refuses it too.
    case encodingFailed(String)
    /// A cadence setting is out of range (name, value, what is allowed).
    case invalidSetting(name: String, value: String, expected: String)

    public var description: String {
        switch self {
        case let .payloadTooLarge(bytes, limit):
            return "attributes + content state are \(bytes) bytes, over ActivityKit's \(limit)-byte limit: "
                + "shorten the workout name or interval label"
        case let .encodingFailed(reason):
            return "cannot encode the content state: \(reason)"
        case let .invalidSetting(name, value, expected):
            return "\(name) '\(value)': expected \(expected)"
        }
    }
}
