import CMicroHTTPD
import Synchronization

/// The streams being sent, so that stopping the server can close them first: a stream blocked in
/// `next` holds its connection's thread, which the library joins when it stops.
final class LiveStreams: Sendable {
    private let streams = Mutex<[ObjectIdentifier: any HTTPStream]>([:])
    private let stopped = Mutex(false)

    /// false once the server is stopping (the stream is then closed at once).
    func add(_ stream: any HTTPStream) -> Bool {
        guard !stopped.withLock({ $0 }) else { return false }
        streams.withLock { $0[ObjectIdentifier(stream)] = stream }
        return true
    }

    func remove(_ stream: any HTTPStream) {
        _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    func closeAll() {
        stopped.withLock { $0 = true }
        for stream in streams.withLock({ Array($0.values) }) { stream.close() }
    }
}

/// One streamed body handed to the library's content reader (the context pointer it keeps).
final class StreamedBody {
    let stream: any HTTPStream
    let live: LiveStreams

    init(_ stream: any HTTPStream, live: LiveStreams) {
        self.stream = stream
        self.live = live
    }

    /// libmicrohttpd's content reader: the next bytes, or the end of the body.
    static let read: MHD_ContentReaderCallback = { context, _, buffer, limit in
        let body = Unmanaged<StreamedBody>.fromOpaque(context!).takeUnretainedValue()
        guard let bytes = body.stream.next(limit: limit), !bytes.isEmpty, let buffer else {
            return -1 // MHD_CONTENT_READER_END_OF_STREAM
        }
        let count = min(bytes.count, limit)
        bytes.withUnsafeBytes { buffer.update(from: $0.bindMemory(to: CChar.self).baseAddress!, count: count) }
        return count
    }

    /// The library is done with the body (sent, or the client went away).
    static let release: MHD_ContentReaderFreeCallback = { context in
        let body = Unmanaged<StreamedBody>.fromOpaque(context!).takeRetainedValue()
        body.stream.close()
        body.live.remove(body.stream)
    }
}
