import SinkVocabulary
/// Where the broker is: `mqtt://HOST[:PORT]` (plain, 1883) or `mqtts://HOST[:PORT]` (TLS, 8883).
/// No user:password (the password is a secret, read from a file), no path: topics are options.
public struct MQTTBroker: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var tls: Bool

    public init(host: String, port: Int, tls: Bool) {
        self.host = host
        self.port = port
        self.tls = tls
    }

    /// The broker a URL names, or nil. An IPv6 address is written in brackets: `mqtt://[::1]:1883`.
    public init?(url text: String) {
        let lowered = text.lowercased()
        let tls: Bool
        if lowered.startsWithScalars(of: "mqtts://") { tls = true } else if lowered.startsWithScalars(of: "mqtt://") { tls = false } else { return nil }
        var rest = Substring(text.dropFirst(tls ? 8 : 7))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.isEmpty, !rest.contains("@"), !rest.contains("/"), !rest.contains("?"), !rest.contains("#") else { return nil }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else {
            let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            host = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
        }
        guard !host.isEmpty, host.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 }) else { return nil }
        var port = tls ? 8883 : 1883
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else { return nil }
            port = number
        }
        self.init(host: String(host), port: port, tls: tls)
    }

    /// `mqtts://host:8883`: how logs, the sink's name and its spool name it.
    public var description: String {
        (tls ? "mqtts://" : "mqtt://") + (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }
}

extension SinkOption.TextRule {
    static let mqttBroker = Self(expected: "mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (no user:password: use --mqtt-password-file)") {
        MQTTBroker(url: $0) != nil
    }
}
