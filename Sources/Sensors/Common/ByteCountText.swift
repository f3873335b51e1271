/// How error messages count bytes, so that every parser says it the same way:
/// "1 byte", "4 bytes".
func byteCount(_ count: Int) -> String {
    count == 1 ? "1 byte" : "\(count) bytes"
}

/// What was left where a field should start: "1 byte follows", "0 bytes follow".
func bytesFollow(_ count: Int) -> String {
    count == 1 ? "1 byte follows" : "\(byteCount(count)) follow"
}
