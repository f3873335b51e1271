import Config
import Forwarding

/// Builds a strap's sinks from the configuration file (for `run`): each through its kind's
/// description, as `--sink` does, with the kind's shared settings (the team's `apns`) under its own.
enum ConfiguredSinks {
    struct Context {
        var shared: [String: SinkValues]
        var http: HTTPSettings
        var environment: [String: String]
        var spoolDirectory: String
        var console: any SessionConsole
        var flushEachLine: Bool
        var log: @Sendable (String) -> Void
        /// The strap, as the file names it.
        var source: String? = nil
        var control = SinkControlRelay()
    }

    static func make(_ sinks: [SinkSettings], context: Context) throws(SessionError) -> [any UpdateSink] {
        var http = HTTPClientConfiguration(certificateAuthorityFile: context.http.certificateAuthorityFile)
        if let seconds = context.http.connectTimeout { http.connectTimeout = seconds }
        if let seconds = context.http.requestTimeout { http.requestTimeout = seconds }
        let setup = SinkSetup(http: http, spoolDirectory: context.spoolDirectory,
                              standardOutput: ConsoleLineOutput(console: context.console, flushEachLine: context.flushEachLine),
                              environment: context.environment, log: context.log,
                              source: context.source, control: context.control)
        var built: [any UpdateSink] = []
        for sink in sinks {
            guard let kind = SinkKinds.named(sink.kind) else { throw .invalid("no sink kind \(sink.kind)") }
            do {
                let shared = kind.sharedObject.flatMap { context.shared[$0] } ?? SinkValues()
                built.append(try kind.make(sink.values.merging(shared), setup))
            } catch {
                throw SessionError(error)
            }
        }
        return built
    }
}

extension SessionError {
    /// A sink that could not be built, as a session failure (the CLI maps both to exit statuses).
    public init(_ error: SinkSetupError) {
        switch error {
        case let .unreadable(text): self = .unreadable(text)
        case let .invalid(text): self = .invalid(text)
        case let .unavailable(text): self = .unavailable(text)
        case let .cannotCreate(text): self = .unwritable(text)
        }
    }
}
