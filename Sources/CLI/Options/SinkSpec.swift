import Foundation

/// One `--sink` value: `stdout`, `file:PATH`, `http://…`/`https://…` (a lifecycle server) or `apns`.
enum SinkSpec: Equatable {
    case standardOutput
    case file(String)
    case lifecycleServer(String)
    case apns

    init(parsing text: String) throws(CLIError) {
        switch text {
        case "stdout": self = .standardOutput
        case "apns": self = .apns
        case _ where text.hasPrefix("file:") && text.count > 5: self = .file(Self.absolute(String(text.dropFirst(5))))
        case _ where text.hasPrefix("http://") || text.hasPrefix("https://"):
            guard !text.contains("@") else {
                throw .usage("--sink '\(text)': no credentials in the URL; use --token-file or --token-env", nil)
            }
            self = .lifecycleServer(text)
        default:
            throw .usage("--sink '\(text)': expected stdout, file:PATH, an http(s) URL or apns", nil)
        }
    }

    /// A relative file path against the working directory: the sink's name holds the path, the state
    /// file records the name, and a later run (or `recover`) started elsewhere must find the same file.
    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
