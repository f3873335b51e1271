#if canImport(Glibc)
import Glibc
#endif
import SinkVocabulary
import FoundationEssentials

/// The files a configuration makes the bridge read at run time (keys, tokens, CA), so
/// `config check` can say which are missing before the service needs them. It looks for them
/// (access(2)); it never opens them.
public enum ReferencedFiles {
    /// Where the unit's LoadCredential= takes credentials from: `credential:NAME` is looked up
    /// here when checking outside the service.
    public static let credentialSource = "/etc/hrbridge/credentials"

    /// Each file with the key that names it, in file order.
    public static func list(_ configuration: BridgeConfiguration, kinds: SinkCatalog) -> [(key: String, file: FileReference)] {
        var files: [(key: String, file: FileReference)] = []
        for (strapIndex, strap) in configuration.straps.enumerated() {
            for (sinkIndex, sink) in strap.sinks.enumerated() {
                files += secretFiles(sink.values, of: kinds.named(sink.kind)?.ownOptions ?? [], prefix: "straps[\(strapIndex)].sinks[\(sinkIndex)].")
            }
        }
        for sharedObject in kinds.sharedObjects {
            if let values = configuration.shared[sharedObject.name] {
                files += secretFiles(values, of: sharedObject.options, prefix: sharedObject.name + ".")
            }
        }
        if let ca = configuration.http.certificateAuthorityFile { files.append(("http.certificateAuthorityFile", .path(ca))) }
        if let listen = configuration.listen {
            if case let .file(token)? = listen.token { files.append(("listen.tokenFile", token)) }
            if let certificate = listen.certificate { files.append(("listen.certificateFile", certificate)) }
            if let key = listen.key { files.append(("listen.keyFile", key)) }
        }
        return files
    }

    /// The secrets among `values` that are read from files, under the keys that name them.
    private static func secretFiles(_ values: SinkValues, of options: [SinkOption], prefix: String) -> [(key: String, file: FileReference)] {
        options.compactMap { option in
            guard case let .secret(.file(reference))? = values[option.key] else { return nil }
            return (prefix + option.key + "File", reference)
        }
    }

    /// One line per file that will not be readable: `apns.keyFile: /etc/hrbridge/credentials/AuthKey.p8: No such file or directory`.
    public static func problems(
        _ configuration: BridgeConfiguration,
        kinds: SinkCatalog,
        environment: [String: String],
        check: (String) -> Int32? = accessProblem
    ) -> [String] {
        list(configuration, kinds: kinds).compactMap { key, file in
            let path: String
            switch file {
            case let .credential(name) where (environment["CREDENTIALS_DIRECTORY"] ?? "").isEmpty:
                path = credentialSource + "/" + name
            default:
                path = (try? file.resolvedPath(environment: environment, exists: { check($0) == nil })) ?? file.description
            }
            return check(path).map { "\(key): \(path): \(String(cString: strerror($0)))" }
        }
    }

    /// The errno that keeps `path` from being read, or nil.
    public static func accessProblem(_ path: String) -> Int32? {
        access(path, R_OK) == 0 ? nil : errno
    }
}
