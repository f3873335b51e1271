/// Every limit the listener runs with, set explicitly rather than left to the library's defaults
/// (a listening socket is attacked like any public port). Tests shorten the times.
public struct ServerLimits: Sendable {
    /// 16 KiB: the largest body any endpoint takes is a label or a token (ActivityKit's whole
    /// payload is 4 KB); a larger one is answered 413 without being kept.
    public var maximumBodySize = 16 * 1024
    /// 4 MiB: how much of a body declared over `maximumBodySize` is still read, and dropped, before
    /// the 413, for a client that sends its whole body before reading an answer (no `Expect:
    /// 100-continue`: Python's urllib and many libraries). Closing while its body still arrives
    /// would reset the connection and lose the answer (RFC 9112 §9.6); a larger body gets the 413
    /// at once and the connection closes.
    public var maximumDiscardedBodySize = 4 * 1024 * 1024
    /// 96 at once: each connection is a thread while it lasts. A gateway's callers are an app's
    /// backend, a Prometheus and a few browsers (32), plus the preview's event streams, which stay
    /// open (at most 64: Session's PreviewHub.clientLimit).
    public var connections = 96
    /// 8 from one address: one client cannot take every connection (a browser opens 6 per host).
    public var connectionsPerAddress = 8
    /// 10 s without a byte closes a connection (an idle keep-alive one, a client that went quiet).
    public var idleSeconds = 10
    /// 10 s for a whole request, headers and body: the idle timeout alone would let a client that
    /// sends one byte a second hold a connection for ever. Answers (a stream) are not timed.
    public var requestSeconds: Double = 10
    /// 32 KiB of the library's buffer per connection: the request line and headers must fit (a
    /// longer one is answered 431 by the library).
    public var connectionMemory = 32 * 1024
    /// 4 KiB: how much a streamed body is asked for at a time.
    public var streamBlockSize = 4 * 1024

    public init() {}
}
