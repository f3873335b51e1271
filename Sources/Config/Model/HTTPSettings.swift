/// How HTTP sinks connect (Forwarding's `HTTPClientConfiguration`); nil keeps its default.
public struct HTTPSettings: Sendable, Equatable {
    /// PEM CA file to trust instead of the system store (a local push server's CA).
    public var certificateAuthorityFile: String?
    public var connectTimeout: Double?
    public var requestTimeout: Double?

    public init(certificateAuthorityFile: String? = nil, connectTimeout: Double? = nil, requestTimeout: Double? = nil) {
        self.certificateAuthorityFile = certificateAuthorityFile
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
    }
}
