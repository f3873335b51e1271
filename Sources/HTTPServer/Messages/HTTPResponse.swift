/// What a handler answers: a status, header fields and a body, either whole or produced while it
/// is sent (`HTTPStream`: Server-Sent Events, a long download).
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        /// Sent chunked as the stream produces it, on the connection's own thread.
        case stream(any HTTPStream)
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body (already encoded: Platform's `JSONBytes` is the one writer).
    public static func json(_ status: Int, _ bytes: [UInt8], headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: .bytes(bytes))
    }

    /// A plain-text body with `contentType` (Prometheus' text format names its version in it).
    public static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: .bytes(Array(text.utf8)))
    }

    /// The first field named `name`, ASCII case ignored.
    public func header(_ name: String) -> String? {
        headers.first { HTTPRequest.sameName($0.name, name) }?.value
    }

    /// The body's bytes; nil for a stream.
    public var bytes: [UInt8]? {
        if case let .bytes(bytes) = body { bytes } else { nil }
    }
}

/// A body produced while it is sent. `next` runs on the connection's own thread and may block
/// until there is something to send (an event, a heartbeat); the server calls `close` when the
/// client has gone or the server stops, and a blocked `next` must then return nil promptly.
public protocol HTTPStream: AnyObject, Sendable {
    /// The next bytes (at most `limit`, not empty), or nil: the body is complete.
    func next(limit: Int) -> [UInt8]?
    func close()
}
