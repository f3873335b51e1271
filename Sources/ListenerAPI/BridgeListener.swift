import Platform
import Config
import Forwarding
import FoundationEssentials
import HTTPServer
import SinkVocabulary
import SessionState
import Session

/// The HTTP listener of a run (`--listen`, the configuration's `listen`, or the socket systemd
/// passes through hrbridge.socket) serving `BridgeAPI` over the run's sessions. Nothing is loaded
/// or bound without one of those: a run without a listener never maps libmicrohttpd.
public final class BridgeListener: Sendable {
    private let server: HTTPServer
    private let preview: PreviewHub

    public struct Context: Sendable {
        var stateDirectory: String
        var version: String
        var environment: [String: String]
        var console: any SessionConsole
        var limits: ServerLimits

        public init(stateDirectory: String, version: String, environment: [String: String], console: any SessionConsole,
                    limits: ServerLimits = ServerLimits()) {
            self.stateDirectory = stateDirectory
            self.version = version
            self.environment = environment
            self.console = console
            self.limits = limits
        }
    }

    private init(server: HTTPServer, preview: PreviewHub) {
        self.server = server
        self.preview = preview
    }

    /// Listens when asked to (nil otherwise). A socket systemd passed is used in place of binding
    /// `settings.address`. Refused before anything listens: an address other machines can reach
    /// with no bearer token (`misconfigured`, exit 64), an unreadable token or TLS file.
    public static func start(_ settings: ListenSettings?, controls: SessionControls, context: Context) throws(SessionError) -> BridgeListener? {
        let socket: ListeningSocket
        let address: ListenAddress
        switch SocketActivation.take(environment: context.environment) {
        case let .failure(problem): throw .misconfigured("listen: \(problem)")
        case let .success(passed?):
            (socket, address) = (.descriptor(passed.descriptor), passed.address)
        case .success(nil):
            guard let configured = settings?.address else {
                if settings != nil {
                    context.console.warn("listen: no address given and no socket from systemd (hrbridge.socket): not listening")
                }
                return nil
            }
            (socket, address) = (.address(configured), configured)
        }
        let settings = settings ?? ListenSettings()
        let token = try readToken(settings.token, environment: context.environment)
        if token == nil, let problem = ListenSettings(address: address).problem(
            tokenKeys: "--listen-token-file or --listen-token-env; listen.tokenFile in the configuration", address: "listen: address") {
            throw .misconfigured(problem)
        }
        let tls = try readTLS(settings, environment: context.environment)
        // Every session's updates also go to the preview's streams, from its first (call before they start).
        let preview = PreviewHub()
        for target in controls.targets { target.session.showPreview(in: preview, as: target.name) }
        let api = BridgeAPI(controls: controls, preview: preview, stateDirectory: context.stateDirectory, version: context.version,
                            token: token?.token)
        let console = context.console
        let configuration = HTTPServer.Configuration(socket: socket, tls: tls, limits: context.limits,
                                                     log: { console.warn($0) }, reject: BridgeAPI.rejected)
        let server: HTTPServer
        do {
            server = try HTTPServer.start(configuration) { api.answer($0) }
        } catch {
            switch error {
            case let .unavailable(text): throw .unavailable("listen: \(text)")
            case let .cannotListen(text):
                throw .unavailable("listen: cannot listen on \(address): \(text); is another process on that port? The service "
                    + "binds no port itself (SocketBindDeny=any): give it udev/hrbridge.socket instead of an address")
            }
        }
        let bound = server.boundAddress ?? address
        let guarded = token.map { "; bearer token from \($0.origin)" } ?? ""
        console.warn("listen: \(tls == nil ? "http" : "https")://\(bound) (the preview at /, GET /livez, /readyz, /metrics, /v1/activities)\(guarded)")
        return BridgeListener(server: server, preview: preview)
    }

    /// Stops listening; a request being answered finishes first.
    public func close() {
        preview.closeAll() // a browser's stream ends now; the requests under way are answered
        server.stop()
    }

    private static func readToken(_ source: SecretSource?, environment: [String: String]) throws(SessionError) -> (token: BearerToken, origin: String)? {
        guard let source else { return nil }
        let line: (line: String, origin: String)
        do {
            line = try source.readLine(environment: environment, what: "listener's bearer token")
        } catch {
            throw SessionError(error)
        }
        guard let token = BearerToken(line.line) else {
            throw .invalid("\(line.origin): the listener's bearer token has spaces or control characters, which no Authorization header carries")
        }
        return (token, line.origin)
    }

    private static func readTLS(_ settings: ListenSettings, environment: [String: String]) throws(SessionError) -> TLSCredentials? {
        guard let certificate = settings.certificate, let key = settings.key else { return nil }
        return TLSCredentials(certificatePEM: try readPEM(certificate, "certificate", environment),
                              keyPEM: try readPEM(key, "private key", environment))
    }

    private static func readPEM(_ reference: FileReference, _ what: String, _ environment: [String: String]) throws(SessionError) -> String {
        let path: String
        do {
            path = try reference.resolvedPath(environment: environment)
        } catch {
            throw .unreadable("listen: \(error.message)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable("listen: \(path): cannot read the TLS \(what)") }
        let text = String(decoding: data, as: UTF8.self)
        guard text.contains("-----BEGIN ") else { throw .invalid("listen: \(path): expected the TLS \(what) in PEM (-----BEGIN …)") }
        return text
    }
}
