import CMicroHTTPD
import Platform

/// What the library calls: a connection opened or closed, a request's headers, its body in parts
/// and its end, a request done. All of a connection's calls come on its own thread; the context
/// pointer is the server's `ServerCallbacks`, and each request's is its `PendingRequest`.
final class ServerCallbacks: @unchecked Sendable {
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let reject: @Sendable (Rejection) -> HTTPResponse
    let limits: ServerLimits
    let deadlines: RequestDeadlines
    let streams = LiveStreams()
    /// Requests from their headers until the library is done with them (answered or dropped): a
    /// stop waits for them, so an answer being sent (an end that flushed the sinks) is not cut off.
    let inFlight = InFlightRequests()

    init(limits: ServerLimits, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
         reject: @escaping @Sendable (Rejection) -> HTTPResponse) {
        self.limits = limits
        self.handler = handler
        self.reject = reject
        deadlines = RequestDeadlines(seconds: limits.requestSeconds)
    }

    /// A request on its way: its line and headers, then its body as it arrives.
    final class PendingRequest {
        var request: HTTPRequest
        /// Past `maximumBodySize`: the rest is read and dropped, and 413 is the answer.
        var tooLarge = false

        init(_ request: HTTPRequest) { self.request = request }
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> ServerCallbacks {
        Unmanaged<ServerCallbacks>.fromOpaque(context!).takeUnretainedValue()
    }

    static let access: MHD_AccessHandlerCallback = { context, connection, url, method, _, upload, uploadSize, requestContext in
        let callbacks = from(context)
        guard let connection, let uploadSize, let requestContext else { return MHD_Result.NO }
        guard let stored = requestContext.pointee else {
            // First call: the line and headers are in. A declared length over the limit is answered at once.
            var request = HTTPRequest(method: String(cString: method!), path: String(cString: url!))
            _ = withUnsafeMutablePointer(to: &request.headers) { headers in
                hrb_mhd_each_header(connection, { headers, _, name, value in
                    guard let name else { return MHD_Result.YES }
                    headers!.assumingMemoryBound(to: [(name: String, value: String)].self).pointee
                        .append((String(cString: name), value.map { String(cString: $0) } ?? ""))
                    return MHD_Result.YES
                }, headers)
            }
            let pending = PendingRequest(request)
            callbacks.inFlight.begin()
            requestContext.pointee = Unmanaged.passRetained(pending).toOpaque()
            if let length = request.header("Content-Length").flatMap(Int.init), length > callbacks.limits.maximumBodySize {
                pending.tooLarge = true
                // A client waiting for 100 Continue sends no body after this answer; one that sends
                // it regardless gets the answer once it is read and dropped (ServerLimits).
                let waitsForContinue = request.header("Expect")?.lowercased() == "100-continue"
                if waitsForContinue || length > callbacks.limits.maximumDiscardedBodySize {
                    return callbacks.answer(connection, callbacks.reject(callbacks.tooLarge))
                }
            }
            return MHD_Result.YES
        }
        let pending = Unmanaged<PendingRequest>.fromOpaque(stored).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            if pending.request.body.count + count > callbacks.limits.maximumBodySize {
                pending.tooLarge = true
                pending.request.body = []
            } else if !pending.tooLarge, let upload {
                upload.withMemoryRebound(to: UInt8.self, capacity: count) {
                    pending.request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
            uploadSize.pointee = 0
            return MHD_Result.YES
        }
        let response = pending.tooLarge ? callbacks.reject(callbacks.tooLarge) : callbacks.handler(pending.request)
        return callbacks.answer(connection, response)
    }

    var tooLarge: Rejection {
        Rejection(HTTPStatus.contentTooLarge, "the body is larger than \(limits.maximumBodySize / 1024) KiB")
    }

    /// Queues `response` on the connection (its body copied, or streamed from its `HTTPStream`).
    private func answer(_ connection: OpaquePointer, _ response: HTTPResponse) -> MHD_Result {
        deadlines.answering(Self.key(connection))
        let made: OpaquePointer?
        switch response.body {
        case let .bytes(bytes):
            made = bytes.withUnsafeBytes { hrb_mhd_response_copying($0.count, $0.baseAddress) }
        case let .stream(stream):
            guard streams.add(stream) else {
                stream.close()
                return MHD_Result.NO
            }
            let body = Unmanaged.passRetained(StreamedBody(stream, live: streams)).toOpaque()
            made = hrb_mhd_response_streaming(limits.streamBlockSize, StreamedBody.read, body, StreamedBody.release)
            if made == nil { StreamedBody.release(body) }
        }
        guard let made else { return MHD_Result.NO }
        defer { hrb_mhd_release(made) }
        for (name, value) in response.headers { _ = hrb_mhd_add_header(made, name, value) }
        guard hrb_mhd_queue(connection, UInt32(response.status), made) != 0 else { return MHD_Result.NO }
        // A stream is quiet between its events (an event stream's keep-alive comes every 15 s):
        // the idle timeout is for requests, not for it. A client gone is seen at the next write.
        if case .stream = response.body { _ = hrb_mhd_no_idle_timeout(connection) }
        return MHD_Result.YES
    }

    static let completed: MHD_RequestCompletedCallback = { context, connection, requestContext, _ in
        if let stored = requestContext?.pointee {
            Unmanaged<PendingRequest>.fromOpaque(stored).release()
            requestContext?.pointee = nil
            from(context).inFlight.end()
        }
        if let connection { from(context).deadlines.awaitingNext(key(connection)) }
    }

    static let connection: MHD_NotifyConnectionCallback = { context, connection, _, code in
        guard let connection else { return }
        let deadlines = from(context).deadlines
        if code == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED {
            deadlines.opened(key(connection), descriptor: hrb_mhd_connection_fd(connection))
        } else {
            deadlines.closed(key(connection))
        }
    }

    static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }

    /// The library's error log, one line at a time.
    static let logLine: hrb_mhd_log_line = { context, line in
        guard let context, let line else { return }
        let log = Unmanaged<LogSink>.fromOpaque(context).takeUnretainedValue()
        log.write("listen: " + String(cString: line).trimmingTrailingNewlines)
    }
}

/// How many requests are under way, and a wait for none.
final class InFlightRequests: @unchecked Sendable {
    private let condition = ConditionLock()
    private var count = 0

    func begin() {
        condition.lock()
        count += 1
        condition.unlock()
    }

    func end() {
        condition.lock()
        count -= 1
        if count == 0 { condition.broadcast() }
        condition.unlock()
    }

    /// Until none is under way, or `seconds` have passed.
    func waitForNone(within seconds: Double) {
        let deadline = MonotonicClock.seconds() + seconds
        condition.lock()
        while count > 0, condition.wait(until: deadline) {}
        condition.unlock()
    }
}

/// Where the library's error log goes (kept alive as long as the daemon).
final class LogSink: Sendable {
    let write: @Sendable (String) -> Void
    init(_ write: @escaping @Sendable (String) -> Void) { self.write = write }
}

private extension String {
    var trimmingTrailingNewlines: String {
        var text = Substring(self)
        while text.last == "\n" || text.last == "\r" { text = text.dropLast() }
        return String(text)
    }
}
