import Foundation
import ProcessTestSupport
import TestSupport
import Testing

/// The listener of a real `hrbridge replay --speed N --listen 127.0.0.1:0`, from curl and Python's
/// http.client: health, metrics (checked by promtool), the controls, and every bad input with its
/// status, each exchange placed under the OpenAPI contract by openapi-core.
@Suite(.timeLimit(.minutes(2))) struct ListenerProcessTests {
    @Test func curlAndPythonReadAndControlARunningReplay() throws {
        let listening = try ListeningBridge(["--speed", "30", "--control-bus", "none"])
        #expect(try listening.curl("GET", "/livez").json["live"] as? Bool == true)
        let id = try listening.activityID()
        let ready = try listening.curl("GET", "/readyz")
        #expect(ready.status == 200 && ready.json["ready"] as? Bool == true, "\(ready.body)")
        let paused = try listening.curl("POST", "/v1/activities/\(id)/pause")
        #expect(paused.status == 200 && paused.json["state"] as? String == "paused", "\(paused.body)")
        let labelled = try listening.curl("PUT", "/v1/activities/\(id)/label", json: #"{"label": "Intervals 4x4"}"#)
        #expect(labelled.json["intervalLabel"] as? String == "Intervals 4x4" && labelled.json["state"] as? String == "paused")

        // Python's http.client, a second client: metrics on a kept-alive connection, then a resume.
        let python = try runTool("/usr/bin/python3", ["-c", """
            import http.client, sys
            host, port = sys.argv[1].rsplit(":", 1)
            connection = http.client.HTTPConnection(host, int(port), timeout=10)
            connection.request("GET", "/metrics")
            metrics = connection.getresponse()
            open(sys.argv[3], "wb").write(metrics.read())
            connection.request("POST", "/v1/activities/" + sys.argv[2] + "/resume")
            resumed = connection.getresponse()
            print(metrics.status, metrics.getheader("Content-Type"), resumed.status, resumed.read().decode())
            """, String(listening.base.dropFirst("http://".count)), id, listening.files.path("metrics.txt")])
        #expect(python.hasPrefix("200 text/plain; version=0.0.4; charset=utf-8 200 {\"activity\":\"\(id)\""), "\(python)")
        #expect(python.contains(#""state":"running""#), "\(python)")
        let promtool = try runTool("/bin/sh", ["-c", "promtool check metrics < \"$0\" 2>&1; echo \"exit $?\"", listening.files.path("metrics.txt")])
        #expect(promtool == "exit 0\n", "promtool: \(promtool)")
        let metrics = try String(contentsOfFile: listening.files.path("metrics.txt"), encoding: .utf8)
        #expect(metrics.contains(#"hrbridge_updates_total{strap="replay",reason="label",priority="5"} 1"#), "\(metrics)")
        #expect(!metrics.contains(id), "no activity id in the metrics")

        let ended = try listening.curl("POST", "/v1/activities/\(id)/end")
        #expect(ended.status == 200 && ended.json["state"] as? String == "ended" && ended.json["reason"] as? String == "end:stopped")
        #expect(listening.bridge.exitStatus(timeout: 20) == 0, "the replay's only activity ended: \(listening.bridge.log)")
        let controlled = [#""reason":"paused""#, #""reason":"label""#, #""reason":"resumed""#, #""reason":"end:stopped""#]
        let reasons = listening.bridge.outputLines.compactMap { line in
            line.range(of: #""reason":"[^"]*""#, options: .regularExpression).map { String(line[$0]) }
        }
        #expect(reasons.filter(controlled.contains) == controlled, "each control's update, in order: \(reasons)")
        #expect(try listening.validateExchanges() == "ok \(listening.exchanges.count)\n")
    }

    @Test func badInputGetsItsStatusAndChangesNothing() throws {
        let listening = try ListeningBridge(["--speed", "30", "--control-bus", "none"])
        let id = try listening.activityID()
        let label = "/v1/activities/\(id)/label"
        let malformed = try listening.curl("PUT", label, json: #"{"label": "x""#)
        #expect(malformed.status == 400 && (malformed.json["error"] as? String ?? "").contains("not JSON"), "\(malformed.body)")
        let wrongType = try listening.curl("PUT", label, headers: [("Content-Type", "text/plain")], extra: ["--data-binary", "label x"])
        #expect(wrongType.status == 415, "\(wrongType.body)")
        let large = try listening.files.write("large.json", #"{"label": ""# + String(repeating: "x", count: 20_000) + #""}"#)
        let oversized = try listening.curl("PUT", label, headers: [("Content-Type", "application/json")], bodyFile: large)
        #expect(oversized.status == 413 && (oversized.json["error"] as? String ?? "").contains("16 KiB"), "\(oversized.body)")
        #expect(try listening.curl("POST", "/v1/activities/hrbridge-19700101T000000Z-9/pause").status == 404)
        let wrongMethod = try listening.curl("GET", "/v1/activities/\(id)/pause", record: false) // no operation of the contract
        #expect(wrongMethod.status == 405 && wrongMethod.header("Allow") == "POST")
        #expect(try listening.curl("POST", "/v1/activities/\(id)/pause", json: "{}").status == 415, "pause takes no body")
        #expect(try listening.curl("GET", "/nowhere", record: false).status == 404)
        let unchanged = try listening.curl("GET", "/v1/activities").json["activities"] as? [[String: Any]]
        #expect(unchanged?.first?["intervalLabel"] as? String == "" && unchanged?.first?["state"] as? String == "running")
        #expect(!listening.bridge.output.contains(#""reason":"label""#) && !listening.bridge.output.contains(#""reason":"paused""#))
        #expect(try listening.validateExchanges() == "ok \(listening.exchanges.count)\n")
        #expect(listening.stop() == 143)
    }

    @Test func withABearerTokenOnlyTheProbesAreOpen() throws {
        let directory = try TemporaryDirectory()
        let token = try directory.write("token", "listener-s3cret\n")
        let listening = try ListeningBridge(["--speed", "30", "--control-bus", "none"],
                                            listen: ["--listen", "127.0.0.1:0", "--listen-token-file", token])
        #expect(listening.bridge.log.contains("bearer token from \(token)") && !listening.bridge.log.contains("listener-s3cret"))
        #expect(try listening.curl("GET", "/livez").status == 200)
        let missing = try listening.curl("GET", "/metrics")
        #expect(missing.status == 401 && missing.header("WWW-Authenticate") == "Bearer", "\(missing.headers)")
        #expect(try listening.curl("GET", "/v1/activities", headers: [("Authorization", "Bearer listener-s3cre")]).status == 401)
        #expect(try listening.curl("POST", "/v1/activities/x/pause", headers: [("Authorization", "Basic listener-s3cret")]).status == 401)
        let good = try listening.curl("GET", "/v1/activities", headers: [("Authorization", "Bearer listener-s3cret")])
        #expect(good.status == 200 && (good.json["activities"] as? [Any]) != nil, "\(good.body)")
        #expect(try listening.validateExchanges() == "ok \(listening.exchanges.count)\n")
        #expect(listening.stop() == 143)
    }

    /// Off loopback without a token is refused before anything listens, with the fix; so is a
    /// configuration file saying it (`config check` too).
    @Test func aListenerOthersCanReachNeedsAToken() throws {
        let bridge = try BridgeProcess(["replay", "--speed", "30", "--control-bus", "none", "--listen", "0.0.0.0:0"])
        #expect(bridge.exitStatus(timeout: 10) == 64)
        #expect(bridge.log.contains("--listen 0.0.0.0:0 is reachable from other machines") && bridge.log.contains("--listen-token-file"),
                "\(bridge.log)")
        let directory = try TemporaryDirectory()
        let configuration = try directory.write("config.json", #"""
            {"straps": [{"address": "C8:5F:33:12:34:56", "workoutName": "Run", "sinks": [{"type": "stdout"}]}],
             "listen": {"address": "[::]:8787"}}
            """#)
        let check = try BridgeProcess(["config", "check", "--config", configuration])
        #expect(check.exitStatus(timeout: 10) == 65)
        #expect(check.log.contains("listen: address [::]:8787 is reachable from other machines") && check.log.contains("tokenFile"), "\(check.log)")
    }

    /// libmicrohttpd is loaded by the listener only: a replay without --listen never maps it.
    @Test func onlyARunWithAListenerMapsLibmicrohttpd() throws {
        for listen in [false, true] {
            let files = try TemporaryDirectory()
            let bridge = try BridgeProcess(["replay", "--speed", "1", "--control-bus", "none", "--state-dir", files.path("state")]
                + (listen ? ["--listen", "127.0.0.1:0"] : []))
            #expect(bridge.wait(timeout: 10) { !bridge.outputLines.isEmpty }, "\(bridge.log)")
            let maps = try runTool("/bin/cat", ["/proc/\(bridge.process.processIdentifier)/maps"])
            #expect(maps.contains("libmicrohttpd") == listen, "listen: \(listen)")
            #expect(maps.contains("libgnutls") == listen, "GnuTLS comes with it, and only with it")
            bridge.send(SIGKILL)
            #expect(bridge.exitStatus(timeout: 5) == 128 + SIGKILL)
        }
    }
}
