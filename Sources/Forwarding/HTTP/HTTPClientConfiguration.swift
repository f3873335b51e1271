/// How a sink's HTTP client connects.
public struct HTTPClientConfiguration: Sendable, Equatable {
    /// PEM file of CA certificates to trust instead of the system store (a local push server's CA);
    /// nil trusts the system store. Verification itself is never switched off.
    public var certificateAuthorityFile: String?
    /// APNs speaks only HTTP/2: refuse to treat an HTTP/1.1 answer as delivered.
    public var requireHTTP2: Bool
    /// Seconds to wait for a TCP + TLS connection; a down server should fail fast and be retried.
    public var connectTimeout: Double
    /// Seconds for a whole request; a stuck server must not hold the queue for long.
    public var requestTimeout: Double

    public init(certificateAuthorityFile: String? = nil, requireHTTP2: Bool = false, connectTimeout: Double = 5, requestTimeout: Double = 15) {
        self.certificateAuthorityFile = certificateAuthorityFile
        self.requireHTTP2 = requireHTTP2
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
    }
}
