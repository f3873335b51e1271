import FoundationEssentials

extension DecodingError {
    /// What a file of ours that JSONDecoder read (the state file, the push tokens) has wrong, by key
    /// path: `activities[0].lastUpdate.sequence: missing`, `version: expected Int`.
    public var keyPathMessage: String {
        func path(_ context: Context) -> String {
            let text = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : (text.isEmpty ? "(top level)" : text)
        }
        switch self {
        case let .keyNotFound(key, context):
            let parent = path(context)
            return "\(parent == "(top level)" ? "" : parent + ".")\(key.stringValue): missing"
        case let .typeMismatch(type, context), let .valueNotFound(type, context):
            return "\(path(context)): expected \(type)"
        case let .dataCorrupted(context):
            return context.codingPath.isEmpty ? "not JSON: \(context.underlyingError.map { "\($0)" } ?? context.debugDescription)"
                : "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(self)"
        }
    }
}
