/// Where one strap's updates go (issue 5's sinks); a strap may have several.
public enum SinkConfiguration: Sendable, Equatable {
    /// NDJSON on standard output (the journal, under systemd).
    case standardOutput
    /// NDJSON appended to a file.
    case file(path: String)
    /// A lifecycle server: start / update / end posted to `url`.
    case lifecycle(url: String, token: BearerToken?)
    /// APNs pushes to this activity's tokens, with the file's `apns` team settings.
    case apns(deviceToken: FileReference?, pushToStartToken: FileReference?)
}

/// A lifecycle server's bearer token: from a file, or from an environment variable (never inline,
/// never from argv, so it cannot leak through `ps`, shell history or `config check`).
public enum BearerToken: Sendable, Equatable {
    case file(FileReference)
    case environment(String)
}

/// Team-wide APNs settings (Apple developer account), shared by every apns sink.
public struct APNsSettings: Sendable, Equatable {
    /// The .p8 auth key; its contents are read by the sink, never by the configuration.
    public var keyFile: FileReference
    public var keyID: String
    public var teamID: String
    /// The app's bundle id; the topic is `<bundleID>.push-type.liveactivity`.
    public var bundleID: String
    public var server: APNsServer
}

public enum APNsServer: Sendable, Equatable {
    case production
    case sandbox
    /// A push server of our own (tests, staging).
    case custom(url: String)
}

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
