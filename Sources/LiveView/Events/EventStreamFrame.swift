/// One message of a `text/event-stream` (WHATWG HTML, "Server-sent events", the event stream
/// format): `id:`, `event:` and `data:` lines, then a blank line that dispatches it. A browser's
/// `EventSource` keeps the last `id` and sends it back as `Last-Event-ID` when it reconnects.
/// Pure: bytes in, bytes out.
public enum EventStreamFrame {
    /// A message. `data` is one JSON object (no line breaks in it: each line of it would become a
    /// `data:` line of its own, which the spec joins back with LF). A trailing LF in `data` (an
    /// NDJSON line's) is left out. `id` and `event` are ours; a line break or NUL in either
    /// (which would split the message or, for `id`, make the browser ignore it) is replaced by `?`.
    public static func message(id: String?, event: String, data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count + event.utf8.count + (id?.utf8.count ?? 0) + 24)
        if let id { field("id", id, into: &bytes) }
        field("event", event, into: &bytes)
        var body = data[...]
        while body.last == lineFeed { body.removeLast() }
        var lineStart = body.startIndex
        while true {
            let lineEnd = body[lineStart...].firstIndex(of: lineFeed) ?? body.endIndex
            bytes.append(contentsOf: dataPrefix)
            bytes.append(contentsOf: body[lineStart..<lineEnd])
            bytes.append(lineFeed)
            guard lineEnd < body.endIndex else { break }
            lineStart = body.index(after: lineEnd)
        }
        bytes.append(lineFeed)
        return bytes
    }

    /// A comment line: ignored by `EventSource`, but it keeps a proxy from closing a quiet stream
    /// (most close after 30–60 s of silence).
    public static let keepAlive: [UInt8] = Array(": keep-alive\n\n".utf8)

    /// How long a browser waits before reconnecting after the stream breaks (the spec leaves the
    /// default to the browser; Chromium's is 3 s): said once at the start of each stream.
    public static func retry(milliseconds: Int) -> [UInt8] {
        Array("retry: \(milliseconds)\n\n".utf8)
    }

    private static let lineFeed = UInt8(ascii: "\n")
    private static let dataPrefix: [UInt8] = Array("data: ".utf8)

    private static func field(_ name: String, _ value: String, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
        for byte in value.utf8 {
            bytes.append(byte == lineFeed || byte == UInt8(ascii: "\r") || byte == 0 ? UInt8(ascii: "?") : byte)
        }
        bytes.append(lineFeed)
    }
}
