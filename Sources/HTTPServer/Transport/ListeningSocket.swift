import Platform

/// Where the server takes connections: an address it binds (`--listen`), or a socket systemd bound
/// and passed (`hrbridge.socket`, socket activation).
public enum ListeningSocket: Sendable {
    case address(ListenAddress)
    case descriptor(Int32)
}

/// TLS for the listener: the certificate chain and its private key, as PEM text (the library,
/// through GnuTLS, does the rest). The key is a secret: read from a file or a credential, never logged.
public struct TLSCredentials: Sendable {
    public var certificatePEM: String
    public var keyPEM: String

    public init(certificatePEM: String, keyPEM: String) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }
}

/// Why the server did not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libmicrohttpd is not installed.
    case unavailable(String)
    /// The library refused to listen (address in use, not permitted, a bad certificate); its log says why.
    case cannotListen(String)

    public var description: String {
        switch self {
        case let .unavailable(text), let .cannotListen(text): text
        }
    }
}
