#if canImport(Glibc)
import Platform
import Glibc
#endif
import CMicroHTTPD
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd (loaded on first use): the library owns the socket, the
/// parsing, TLS and the connections; a handler gets each complete request (`HTTPRequest`) and
/// answers it. A thread per connection (bounded by `ServerLimits.connections`), so a handler may
/// block (an end flushing the sinks) and a streamed body may wait for its next event, while
/// other connections are served. Nothing runs while nobody connects: the listening thread sleeps
/// in poll(2) with no timeout, and the request timer is not set.
public final class HTTPServer: @unchecked Sendable {
    private let daemon: OpaquePointer
    private let callbacks: ServerCallbacks
    private let retained: Unmanaged<ServerCallbacks>
    private let log: Unmanaged<LogSink>
    private let logger: UnsafeMutablePointer<hrb_mhd_logger>
    /// Where it listens, as the kernel says (port 0 made concrete).
    public let boundAddress: ListenAddress?

    public struct Configuration: Sendable {
        public var socket: ListeningSocket
        public var tls: TLSCredentials?
        public var limits: ServerLimits
        /// The library's error log (bad TLS handshakes, refused connections), one line each.
        public var log: @Sendable (String) -> Void
        /// How a rejection the transport makes itself (413 while a body arrives) is written.
        public var reject: @Sendable (Rejection) -> HTTPResponse

        public init(socket: ListeningSocket, tls: TLSCredentials? = nil, limits: ServerLimits = ServerLimits(),
                    log: @escaping @Sendable (String) -> Void, reject: @escaping @Sendable (Rejection) -> HTTPResponse) {
            self.socket = socket
            self.tls = tls
            self.limits = limits
            self.log = log
            self.reject = reject
        }
    }

    /// Starts listening; `handler` runs on the connection's thread for each complete request.
    public static func start(_ configuration: Configuration,
                             handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(HTTPServerError) -> HTTPServer {
        if let reason = hrb_mhd_unavailable() {
            throw .unavailable("libmicrohttpd could not be loaded (\(String(cString: reason))); install libmicrohttpd12")
        }
        let callbacks = ServerCallbacks(limits: configuration.limits, handler: handler, reject: configuration.reject)
        let retained = Unmanaged.passRetained(callbacks)
        let lines = LogLines()
        let log = Unmanaged.passRetained(LogSink { line in
            lines.append(line)
            configuration.log(line)
        })
        let logger = UnsafeMutablePointer<hrb_mhd_logger>.allocate(capacity: 1)
        logger.initialize(to: hrb_mhd_logger(callback: ServerCallbacks.logLine, context: log.toOpaque()))
        let limits = configuration.limits
        // Thread per connection (handlers may block), poll(2) rather than select(2) (no FD_SETSIZE
        // ceiling), an inter-thread channel so that stopping wakes the listening thread at once.
        var flags = UInt32(MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue)
        if configuration.tls != nil { flags |= UInt32(MHD_USE_TLS.rawValue) }
        let started: OpaquePointer? = withCString(configuration.tls?.certificatePEM) { certificate in
            withCString(configuration.tls?.keyPEM) { key in
                var settings = hrb_mhd_settings(
                    flags: flags, address: nil, listen_fd: -1, connection_limit: UInt32(limits.connections),
                    per_ip_connection_limit: UInt32(limits.connectionsPerAddress), idle_timeout_seconds: UInt32(limits.idleSeconds),
                    connection_memory_limit: limits.connectionMemory, certificate: certificate, key: key, logger: logger
                )
                switch configuration.socket {
                case let .descriptor(descriptor):
                    settings.listen_fd = descriptor
                    if ListenAddress(boundSocket: descriptor)?.isIPv6 == true { settings.flags |= UInt32(MHD_USE_IPv6.rawValue) }
                    return hrb_mhd_start(&settings, ServerCallbacks.access, retained.toOpaque(), ServerCallbacks.completed, ServerCallbacks.connection)
                case let .address(address):
                    if address.isIPv6 { settings.flags |= UInt32(MHD_USE_IPv6.rawValue) }
                    return address.withSocketAddress { socketAddress in
                        settings.address = socketAddress
                        return hrb_mhd_start(&settings, ServerCallbacks.access, retained.toOpaque(), ServerCallbacks.completed, ServerCallbacks.connection)
                    }
                }
            }
        }
        guard let daemon = started else {
            callbacks.deadlines.cancel()
            retained.release()
            let why = lines.all.last ?? "the library gave no reason"
            log.release()
            logger.deallocate()
            throw .cannotListen(why)
        }
        let descriptor = hrb_mhd_listen_fd(daemon)
        return HTTPServer(daemon: daemon, callbacks: callbacks, retained: retained, log: log, logger: logger,
                          boundAddress: descriptor >= 0 ? ListenAddress(boundSocket: descriptor) : nil)
    }

    private init(daemon: OpaquePointer, callbacks: ServerCallbacks, retained: Unmanaged<ServerCallbacks>,
                 log: Unmanaged<LogSink>, logger: UnsafeMutablePointer<hrb_mhd_logger>, boundAddress: ListenAddress?) {
        self.daemon = daemon
        self.callbacks = callbacks
        self.retained = retained
        self.log = log
        self.logger = logger
        self.boundAddress = boundAddress
    }

    /// Up to 5 s for the requests under way to be answered at a stop: an end flushing the sinks
    /// answers only once they are flushed, and its caller should hear it.
    static let stopGrace = 5.0

    /// Closes the streams being sent, stops taking connections, lets the requests under way be
    /// answered (within `stopGrace`), then stops each connection's thread and closes the listening
    /// socket. Once only.
    public func stop() {
        callbacks.streams.closeAll()
        let listening = hrb_mhd_quiesce(daemon)
        callbacks.inFlight.waitForNone(within: Self.stopGrace)
        hrb_mhd_stop(daemon)
        if listening >= 0 { close(listening) }
        callbacks.deadlines.cancel()
        retained.release()
        log.release()
        logger.deallocate()
    }

    private static func withCString<Result>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }
}

/// The log lines of a start that failed: the last says why.
private final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
