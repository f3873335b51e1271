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
        case _ where text.hasPrefix("file:") && text.count > 5: self = .file(String(text.dropFirst(5)))
        case _ where text.hasPrefix("http://") || text.hasPrefix("https://"):
            guard !text.contains("@") else {
                throw .usage("--sink '\(text)': no credentials in the URL; use --token-file or --token-env", nil)
            }
            self = .lifecycleServer(text)
        default:
            throw .usage("--sink '\(text)': expected stdout, file:PATH, an http(s) URL or apns", nil)
        }
    }
}
