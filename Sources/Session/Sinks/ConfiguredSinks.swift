import Config
import Forwarding
import Foundation

/// Builds a strap's sinks from the configuration file (for `run`): the same sinks as `--sink`, with
/// secrets (lifecycle token, .p8 key, device tokens) read from the files the configuration names.
enum ConfiguredSinks {
    struct Context {
        var apns: Config.APNsSettings?
        var http: HTTPSettings
        var environment: [String: String]
        var spoolDirectory: String
        var console: any SessionConsole
        var flushEachLine: Bool
        var log: @Sendable (String) -> Void
    }

    static func make(_ sinks: [SinkConfiguration], context: Context) throws(SessionError) -> [any UpdateSink] {
        var http = HTTPClientConfiguration(certificateAuthorityFile: context.http.certificateAuthorityFile)
        if let seconds = context.http.connectTimeout { http.connectTimeout = seconds }
        if let seconds = context.http.requestTimeout { http.requestTimeout = seconds }
        var built: [any UpdateSink] = []
        for sink in sinks {
            switch sink {
            case .standardOutput:
                built.append(LineSink(name: "stdout", output: ConsoleLineOutput(console: context.console, flushEachLine: context.flushEachLine)))
            case let .file(path):
                do {
                    built.append(try LineSink.appending(toFile: path))
                } catch {
                    throw .unwritable(error.description)
                }
            case let .lifecycle(url, token):
                let source: BearerTokenSource? = switch token {
                case let .file(reference)?: .file(try resolve(reference, context))
                case let .environment(name)?: .environment(name)
                case nil: nil
                }
                built.append(NetworkSink.lifecycleServer(baseURL: url, token: source, http: http,
                                                         spoolDirectory: context.spoolDirectory, log: context.log))
            case let .apns(deviceToken, pushToStartToken):
                guard let team = context.apns else { throw .invalid("an apns sink needs the configuration's \"apns\" object") }
                let key: SigningKey
                do {
                    key = try SigningKey(contentsOfFile: try resolve(team.keyFile, context))
                } catch let error as SigningKeyError {
                    if case .unreadable = error { throw .unreadable(error.description) }
                    if case .libcryptoMissing = error { throw .unavailable(error.description) }
                    throw .invalid(error.description)
                } catch let error as SessionError {
                    throw error
                } catch {
                    throw .invalid("\(error)")
                }
                let baseURL = switch team.server {
                case .production: APNsSinkSettings.productionURL
                case .sandbox: APNsSinkSettings.sandboxURL
                case let .custom(url): url
                }
                let settings = APNsSinkSettings(baseURL: baseURL, bundleID: team.bundleID,
                                                deviceToken: try deviceToken.map { reference throws(SessionError) in try readToken(reference, context) },
                                                pushToStartToken: try pushToStartToken.map { reference throws(SessionError) in try readToken(reference, context) })
                built.append(NetworkSink.apns(settings: settings, tokens: ProviderTokenSource(key: key, keyID: team.keyID, teamID: team.teamID),
                                              http: http, spoolDirectory: context.spoolDirectory, log: context.log))
            }
        }
        return built
    }

    private static func resolve(_ reference: FileReference, _ context: Context) throws(SessionError) -> String {
        do {
            return try reference.resolvedPath(environment: context.environment)
        } catch {
            throw .unreadable(error.message)
        }
    }

    /// A device or push-to-start token file: one line of hex digits.
    private static func readToken(_ reference: FileReference, _ context: Context) throws(SessionError) -> String {
        let path = try resolve(reference, context)
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable("\(path): cannot read the APNs token file") }
        guard let token = APNsSinkSettings.normalizedToken(String(decoding: data, as: UTF8.self)) else {
            throw .invalid("\(path): expected one line of hex digits (the APNs token)")
        }
        return token
    }
}
