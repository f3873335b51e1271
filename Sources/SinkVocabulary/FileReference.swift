import Platform
#if canImport(Glibc)
import Glibc
#endif

/// Where a secret (token, key) is read from. The configuration names the file; its contents are
/// read only when a sink starts, never by `config check`, and never printed.
public enum FileReference: Sendable, Hashable, CustomStringConvertible {
    /// An absolute path.
    case path(String)
    /// `credential:NAME`: the file NAME in `$CREDENTIALS_DIRECTORY`, where systemd puts the copies it
    /// made for the service (LoadCredential=); the unit loads /etc/hrbridge/credentials/.
    case credential(String)

    static let credentialPrefix = "credential:"

    public struct Problem: Error, Sendable, Equatable {
        public var message: String
    }

    /// A flag's path may be relative (to the shell that gave it); the file's must be absolute.
    public init(parsing text: String, from origin: SinkValueOrigin = .configuration) throws(Problem) {
        if text.startsWithScalars(of: Self.credentialPrefix) {
            let name = String(text.unicodeScalars.dropFirst(Self.credentialPrefix.unicodeScalars.count))
            // systemd's rule for credential names: a file name, no directories. The slash is looked for
            // by scalar: "/" and a combining mark after it are one Character, yet still a slash to open().
            guard !name.isEmpty, name != ".", name != "..", !name.unicodeScalars.contains("/") else {
                throw Problem(message: "expected credential:NAME with a file name, got \(text.jsonQuoted)")
            }
            self = .credential(name)
            return
        }
        guard text.startsWithScalars(of: "/") || (origin == .commandLine && !text.isEmpty) else {
            throw Problem(message: "expected an absolute path or credential:NAME, got \(text.jsonQuoted)")
        }
        self = .path(text)
    }

    public var description: String {
        switch self {
        case let .path(path): path
        case let .credential(name): Self.credentialPrefix + name
        }
    }

    /// systemd names each file NAME that `LoadCredential=hrbridge:/etc/hrbridge/credentials` loads from
    /// the directory `hrbridge_NAME` (the load's id, '_', the file's path in the directory).
    public static let directoryCredentialPrefix = "hrbridge_"

    /// The file to open, given the process environment. Inside the service, `credential:NAME` is
    /// `$CREDENTIALS_DIRECTORY/NAME` when a drop-in loads it under that id (LoadCredential=NAME:PATH),
    /// else the copy the unit's directory load made, `$CREDENTIALS_DIRECTORY/hrbridge_NAME`.
    public func resolvedPath(
        environment: [String: String],
        exists: (String) -> Bool = { access($0, F_OK) == 0 }
    ) throws(Problem) -> String {
        switch self {
        case let .path(path):
            return path
        case let .credential(name):
            guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else {
                throw Problem(message: "\(self) needs $CREDENTIALS_DIRECTORY, which systemd sets for the service "
                    + "(LoadCredential=); outside the service, name the file by its absolute path")
            }
            let loadedByName = directory + "/" + name
            return exists(loadedByName) ? loadedByName : directory + "/" + Self.directoryCredentialPrefix + name
        }
    }
}
