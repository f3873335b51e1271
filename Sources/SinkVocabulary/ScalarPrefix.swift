extension String {
    /// Whether the text starts with `prefix`, Unicode scalar by scalar. String's hasPrefix compares
    /// Characters, and a combining mark after the prefix joins its last scalar into another Character:
    /// "/" would not start "/\u{301}etc", nor "credential:" start "credential:\u{301}key".
    public func startsWithScalars(of prefix: String) -> Bool {
        unicodeScalars.starts(with: prefix.unicodeScalars)
    }
}
