import FoundationEssentials
import Platform
import SinkVocabulary

extension SecretSource {
    /// A short secret (a token): one line from its file (`credential:NAME` inside the service's
    /// credentials directory) or variable, surrounding whitespace trimmed, and where it came from (a
    /// path, a variable's name) for messages. `what` names it in errors; the secret itself never
    /// appears in one. Sinks read theirs this way (`SinkSetup`), and so does the HTTP listener.
    public func readLine(environment: [String: String], what: String) throws(SinkSetupError) -> (line: String, origin: String) {
        let text: String
        let origin: String
        switch self {
        case let .file(reference):
            let path: String
            do {
                path = try reference.resolvedPath(environment: environment)
            } catch {
                throw .unreadable(error.message)
            }
            guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable("\(path): cannot read the \(what) file") }
            text = String(decoding: data, as: UTF8.self)
            origin = path
        case let .environment(name):
            guard let value = environment[name] else { throw .unreadable("environment variable \(name) (the \(what)) is not set") }
            text = value
            origin = "environment variable \(name)"
        }
        let line = text.trimmed
        guard !line.isEmpty, !line.contains(where: \.isNewline) else { throw .invalid("\(origin): expected one line holding the \(what)") }
        return (line, origin)
    }
}
