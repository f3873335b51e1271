import SinkVocabulary
import Platform

/// The HTTP listener of `run` and paced `replay` (`--listen`, the configuration's `listen`): where
/// it binds, the bearer token callers must send, and TLS. Secrets are where to read them, never
/// their contents; they are read when the listener starts.
public struct ListenSettings: Sendable, Equatable {
    /// nil: only a socket systemd passes (hrbridge.socket) is listened on.
    public var address: ListenAddress?
    public var token: SecretSource?
    /// PEM certificate chain and its private key: TLS when both are given.
    public var certificate: FileReference?
    public var key: FileReference?

    public init(address: ListenAddress? = nil, token: SecretSource? = nil, certificate: FileReference? = nil, key: FileReference? = nil) {
        self.address = address
        self.token = token
        self.certificate = certificate
        self.key = key
    }

    /// What is wrong with the combination, if anything: a listener others can reach needs a token,
    /// and TLS needs both files. Said the same way for flags and the file (`keys` name them).
    public func problem(tokenKeys: String, address addressKey: String) -> String? {
        if (certificate == nil) != (key == nil) { return "TLS needs both the certificate and its key" }
        if let address, !address.isLoopback, token == nil {
            return "\(addressKey) \(address) is reachable from other machines: give it a bearer token (\(tokenKeys)), "
                + "or listen on loopback (127.0.0.1:PORT)"
        }
        return nil
    }
}
