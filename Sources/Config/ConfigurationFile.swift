#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import SinkVocabulary

/// Which configuration file a run uses, and loading it: `--config PATH` if given, else
/// /etc/hrbridge/config.json, else ~/.config/hrbridge/config.json (XDG_CONFIG_HOME honoured).
public enum ConfigurationFile {
    public static let systemPath = "/etc/hrbridge/config.json"

    /// The places searched when no --config is given, in order.
    public static func searchPaths(environment: [String: String]) -> [String] {
        var paths = [systemPath]
        if let configHome = environment["XDG_CONFIG_HOME"], configHome.startsWithScalars(of: "/") {
            paths.append(configHome + "/hrbridge/config.json")
        } else if let home = environment["HOME"], !home.isEmpty {
            paths.append(home + "/.config/hrbridge/config.json")
        }
        return paths
    }

    /// The file to read: the explicit one (even if missing: that is an error to report), else the
    /// first search path that exists.
    public static func locate(
        explicit: String?,
        environment: [String: String],
        exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) throws(ConfigError) -> String {
        if let explicit { return explicit }
        let candidates = searchPaths(environment: environment)
        guard let found = candidates.first(where: exists) else { throw .notFound(searched: candidates) }
        return found
    }

    /// Larger than any real configuration; stops `--config /dev/zero` from eating memory.
    public static let maximumSize = 1 << 20

    public static func load(path: String, kinds: SinkCatalog) throws(ConfigError) -> BridgeConfiguration {
        try ConfigurationReader.read(try readBytes(path), file: path, kinds: kinds)
    }

    private static func readBytes(_ path: String) throws(ConfigError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(file: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(file: path, reason: String(cString: strerror(errno))) }
            guard count > 0 else { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= maximumSize else {
                throw .unreadable(file: path, reason: "larger than \(maximumSize / 1024) KiB; not a configuration file")
            }
        }
    }
}
