import Config
import HTTPServer
import Session
import ListenerAPI

extension FuzzTarget {
    /// A request to the listener's API, as the library would hand it over: the first line is
    /// `METHOD PATH`, the lines after it `Name: value` headers up to an empty line, the rest the body.
    /// It goes through the real route table, gate and handlers (over a run with no sessions: every
    /// activity is unknown). Contracts: the status is one the API answers with; 401 challenges with
    /// `WWW-Authenticate: Bearer`, 405 says `Allow`; every JSON body is JSON our strict reader takes;
    /// a label body the API accepts, written again, reads back to the same label; so does a push-token body.
    static let httpRequest = FuzzTarget(name: "http-request", summary: "the listener's routing, gate and request bodies") { bytes throws(ContractViolation) in
        let request = ListenerFuzzInput.request(bytes)
        let response = ListenerFuzzInput.api.answer(request)
        guard [200, 400, 401, 404, 405, 409, 415, 503].contains(response.status) else {
            throw ContractViolation("http-request: status \(response.status) for \(request.method) \(request.path)")
        }
        if response.status == 401, response.header("WWW-Authenticate") != "Bearer" {
            throw ContractViolation("http-request: 401 without WWW-Authenticate: Bearer")
        }
        if response.status == 405, (response.header("Allow") ?? "").isEmpty {
            throw ContractViolation("http-request: 405 without Allow for \(request.method) \(request.path)")
        }
        if response.header("Content-Type") == "application/json" {
            do {
                _ = try JSONParser.parse(response.bytes ?? [])
            } catch {
                throw ContractViolation("http-request: a JSON answer our reader refuses: \(String(decoding: response.bytes ?? [], as: UTF8.self))")
            }
        }
        if case let .success(body) = PushTokenBody.parse(request.body) {
            var written = #"{"token":"\#(body.token.hex)""#
            if let issuedAt = body.issuedAt { written += #","issuedAt":\#(issuedAt)"# }
            if let activity = body.activity { written += #","activity":\#(activity.jsonQuoted)"# }
            guard case let .success(again) = PushTokenBody.parse(Array((written + "}").utf8)) else {
                throw ContractViolation("http-request: push-token body \(written)} written back is refused")
            }
            try expectSame(body, again, "http-request: push-token body written back")
        }
        guard case let .success(.label(label)) = LabelBody.parse(request.body) else { return }
        let written = Array("{\"label\":\(label.jsonQuoted)}".utf8)
        guard case let .success(.label(again)) = LabelBody.parse(written) else {
            throw ContractViolation("http-request: label \(label.jsonQuoted) written back is refused")
        }
        try expectSame(label, again, "http-request: label written back")
    }
}

/// The fuzz input's request, and the API it goes to (built once).
enum ListenerFuzzInput {
    static let api = BridgeAPI(controls: SessionControls([]), preview: PreviewHub(), stateDirectory: "/nonexistent", version: "fuzz",
                               token: BearerToken("fuzz-token"))

    static func request(_ bytes: [UInt8]) -> HTTPRequest {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 32, omittingEmptySubsequences: false)[...]
        let first = String(decoding: lines.popFirst() ?? [], as: UTF8.self).split(separator: " ", maxSplits: 1)
        var request = HTTPRequest(method: first.first.map(String.init) ?? "", path: first.count > 1 ? String(first[1]) : "")
        while let line = lines.popFirst(), !line.isEmpty {
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { continue }
            request.headers.append((String(text[..<colon]), String(text[text.index(after: colon)...]).trimmingSpaces))
        }
        request.body = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
        return request
    }
}

private extension String {
    var trimmingSpaces: String { String(drop { $0 == " " }) }
}
