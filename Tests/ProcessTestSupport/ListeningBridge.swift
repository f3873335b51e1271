import Foundation
import TestSupport
import Testing

/// `hrbridge replay --speed N --listen 127.0.0.1:0 …` as a child process, with the address it said
/// on stderr and curl to talk to it. Each exchange is recorded (request and answer) for the
/// OpenAPI contract test.
public final class ListeningBridge {
    public let bridge: BridgeProcess
    public let base: String
    public let files: TemporaryDirectory
    public private(set) var exchanges: [String] = []

    /// `arguments` after `replay`; the listener and the state directory are added. `files`: an
    /// earlier bridge's, to start again on its state directory.
    public init(_ arguments: [String], environment: [String: String]? = nil, listen: [String] = ["--listen", "127.0.0.1:0"],
         files: TemporaryDirectory? = nil) throws {
        self.files = try files ?? TemporaryDirectory()
        let bridge = try BridgeProcess(["replay", "--state-dir", self.files.path("state")] + listen + arguments, environment: environment)
        self.bridge = bridge
        let said = bridge.wait(timeout: 10) { Self.address(in: bridge.log) != nil }
        base = try #require(said ? Self.address(in: bridge.log) : nil, "no listen address on stderr: \(bridge.log)")
    }

    /// `http://127.0.0.1:PORT` from `hrbridge: listen: http://127.0.0.1:PORT (…`.
    public static func address(in log: String) -> String? {
        guard let range = log.range(of: #"listen: https?://[0-9.\[\]:]+"#, options: .regularExpression) else { return nil }
        return String(log[range].dropFirst("listen: ".count))
    }

    public struct Answer {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: String
        public var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    }

    /// One request with curl; `record`: keep it for the contract test (not for paths outside it).
    @discardableResult
    public func curl(_ method: String, _ path: String, json: String? = nil, headers: [(String, String)] = [], bodyFile: String? = nil,
              record: Bool = true, extra: [String] = []) throws -> Answer {
        let headerFile = files.path("headers-\(exchanges.count)")
        let bodyOut = files.path("body-\(exchanges.count)")
        var arguments = ["-s", "-S", "--max-time", "30", "-X", method, "-D", headerFile, "-o", bodyOut, "-w", "%{http_code}"] + extra
        var sent = headers
        if let json {
            sent.append(("Content-Type", "application/json"))
            arguments += ["--data-binary", json]
        }
        if let bodyFile { arguments += ["--data-binary", "@" + bodyFile] }
        for (name, value) in sent { arguments += ["-H", "\(name): \(value)"] }
        let status = Int(try runTool("/usr/bin/curl", arguments + [base + path])) ?? 0
        let headerLines = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        let answerHeaders = headerLines.split(separator: "\r\n").dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let answer = Answer(status: status, headers: answerHeaders, body: (try? String(contentsOfFile: bodyOut, encoding: .utf8)) ?? "")
        if record {
            let exchange: [String: Any] = [
                "method": method, "path": path, "requestHeaders": sent.map { [$0.0, $0.1] }, "requestBody": json ?? "",
                "status": status, "responseHeaders": answer.headers.map { [$0.name, $0.value] }, "responseBody": answer.body,
            ]
            exchanges.append(String(decoding: try JSONSerialization.data(withJSONObject: exchange), as: UTF8.self))
        }
        return answer
    }

    /// The running activity's id, from GET /v1/activities (waiting for the start).
    public func activityID() throws -> String {
        var id: String?
        _ = bridge.wait(timeout: 10) {
            let listed = (try? curl("GET", "/v1/activities", record: false))?.json["activities"] as? [[String: Any]]
            id = listed?.first?["activity"] as? String
            return id != nil
        }
        return try #require(id, "no activity listed: \(bridge.log)")
    }

    /// The recorded exchanges through openapi-core against the listener's contract: "ok N".
    public func validateExchanges() throws -> String {
        try #require(FileManager.default.isExecutableFile(atPath: TestScripts.openAPIPython))
        let contract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ListenerAPI/bridge-api.openapi.json").path
        let validator = TestScripts.path("validate_openapi_exchanges.py")
        let log = try files.write("exchanges.ndjson", exchanges.joined(separator: "\n") + "\n")
        return try runTool(TestScripts.openAPIPython, [validator, contract, log, base])
    }

    public func stop() -> Int32? {
        bridge.send(SIGTERM)
        return bridge.exitStatus(timeout: 20)
    }
}
