import Foundation
import TestSupport

/// A test server script from `Scripts/`, run by Debian's /usr/bin/python3 on 127.0.0.1, recording
/// every request it receives as one JSON line in a log file the test reads back.
public final class ServerProcess: @unchecked Sendable {
    public let port: Int
    public let logPath: String
    private let process: Process
    private let directory: TemporaryDirectory

    /// Starts `script` with `arguments` after the log path; waits for its "PORT n" line.
    /// `port`: listen there (a restart on the same port); 0 lets the system choose.
    public init(script: String, arguments: [String], port: Int = 0) throws {
        directory = try TemporaryDirectory()
        let log = directory.path("requests.ndjson")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [TestScripts.path(script), log] + arguments + (port == 0 ? [] : [String(port)])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw ServerStartError(script: script, output: text)
        }
        self.port = port
        self.logPath = log
        self.process = process
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request received so far, in arrival order.
    public func requests() -> [RecordedRequest] {
        guard let data = FileManager.default.contents(atPath: logPath) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            try? JSONDecoder().decode(RecordedRequest.self, from: Data(line.utf8))
        }
    }

    /// SIGKILL: a child spawned from a test thread inherits that thread's blocked signals, SIGTERM
    /// included, so terminate() alone can leave it running.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

public struct ServerStartError: Error, CustomStringConvertible {
    public let script: String
    public let output: String
    public var description: String { "\(script) did not start (first line: '\(output)')" }
}

/// One request as a test server saw it.
public struct RecordedRequest: Decodable, Equatable {
    public var method: String?
    public var path: String?
    public var version: String?
    public var alpn: String?
    public var headers: [[String]]?
    public var body: String?
    /// Why a server that checks what it gets (fcm_server.py's token endpoint) refused it.
    public var refused: String?

    public func header(_ name: String) -> String? {
        headers?.first { $0.first == name }?.last
    }

    public func headerNames() -> [String] { headers?.compactMap(\.first) ?? [] }

    public var jsonBody: [String: Any]? {
        guard let body else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
    }
}
