import HTTPServer
import LiveState
import Platform

/// `GET /livez` (the process answers), `GET /readyz` (it can do its job: a sensor link is up for
/// every strap, no sink has stopped for good, the state directory takes writes) and `GET /metrics`.
extension BridgeAPI {
    func livez() -> HTTPResponse {
        .json(HTTPStatus.ok, Array(#"{"live":true}"#.utf8))
    }

    func readyz() -> HTTPResponse {
        let reasons = notReadyReasons()
        guard !reasons.isEmpty else { return .json(HTTPStatus.ok, Array(#"{"ready":true}"#.utf8)) }
        var json = JSONBytes()
        json.beginObject()
        json.key("ready")
        json.bool(false)
        json.key("reason")
        json.string(reasons.joined(separator: "; "), escapingSlash: false)
        json.endObject()
        return .json(HTTPStatus.serviceUnavailable, json.bytes)
    }

    /// Why the bridge cannot do its job now, one reason per thing wrong, strap by strap.
    func notReadyReasons() -> [String] {
        var reasons: [String] = []
        for target in controls.targets {
            let metrics = target.session.metrics()
            if !metrics.running {
                reasons.append("\(target.name): not running")
                continue
            }
            if !metrics.tally.linksUp.contains(.strap) { reasons.append("\(target.name): no sensor link is up") }
            for sink in metrics.sinks {
                if let halted = sink.halted { reasons.append("\(target.name): sink \(sink.kind) halted: \(halted)") }
            }
        }
        if !FilePath.isWritableDirectory(stateDirectory) {
            reasons.append("the state directory \(stateDirectory) is not writable")
        }
        return reasons
    }

    func metrics() -> HTTPResponse {
        let sessions = controls.targets.map { ($0.name, $0.session.metrics()) }
        return .text(HTTPStatus.ok, MetricsText.exposition(sessions, version: version),
                     contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
