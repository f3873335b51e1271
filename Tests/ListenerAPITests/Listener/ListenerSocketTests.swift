import Foundation
import ProcessTestSupport
import TestSupport
import Testing

/// The listener's other ways in: a socket systemd bound (systemd-socket-activate, the tool systemd
/// ships for exactly this), TLS from certificate and key files, and a machine without libmicrohttpd.
@Suite(.timeLimit(.minutes(1))) struct ListenerSocketTests {
    /// As hrbridge.socket hands it over: the socket named `http`, no --listen needed, and the
    /// listener says the address systemd bound.
    @Test func aSocketFromSystemdIsServed() throws {
        let port = try MosquittoBroker.freePort()
        let files = try TemporaryDirectory()
        // Under a shell: Foundation's Process takes a child's later exec for its exit, so the tool
        // (which execs hrbridge when the first connection comes) cannot be its direct child.
        let bridge = try BridgeProcess(["-c", #"systemd-socket-activate "$@"; status=$?; exit $status"#, "sh",
                                        "--listen=127.0.0.1:\(port)", "--fdname=http", BridgeProcess.executable,
                                        "replay", "--speed", "30", "--control-bus", "none", "--state-dir", files.path("state")],
                                       executable: "/bin/sh")
        // The tool binds, and execs hrbridge with the socket when the first connection comes.
        let answer = try runTool("/usr/bin/curl", ["-s", "--max-time", "10", "--retry", "5", "--retry-connrefused",
                                                   "http://127.0.0.1:\(port)/livez"])
        #expect(answer == #"{"live":true}"#)
        #expect(bridge.log.contains("hrbridge: listen: http://127.0.0.1:\(port) "), "no --listen, the socket systemd bound: \(bridge.log)")
        let shell = bridge.process.processIdentifier
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        let hrbridge = try #require(children.split(separator: " ").first.flatMap { Int32($0) }, "the shell's child")
        kill(hrbridge, SIGTERM)
        #expect(bridge.exitStatus(timeout: 20) == 143, "\(bridge.log)")
    }

    @Test func tlsFromCertificateAndKeyFiles() throws {
        let certificates = try TestCertificates.make()
        let listening = try ListeningBridge(["--speed", "30", "--control-bus", "none"], listen: [
            "--listen", "127.0.0.1:0", "--listen-tls-cert", certificates.serverCertificate, "--listen-tls-key", certificates.serverKey,
        ])
        #expect(listening.base.hasPrefix("https://127.0.0.1:"), "\(listening.bridge.log)")
        let verified = try listening.curl("GET", "/livez", extra: ["--cacert", certificates.caFile])
        #expect(verified.status == 200 && verified.body == #"{"live":true}"#)
        let plain = try? runTool("/usr/bin/curl", ["-s", "-S", "--max-time", "5", "http" + listening.base.dropFirst("https".count) + "/livez"])
        #expect(plain == nil || plain?.contains("live") == false, "plain HTTP on the TLS port gets no answer")
        #expect(listening.stop() == 143)
    }

    /// Without libmicrohttpd, --listen says what to install and exits 69; nothing else needs it.
    @Test(.enabled(if: HiddenLibrary.available)) func withoutLibmicrohttpdTheListenerSaysWhatToInstall() throws {
        let files = try TemporaryDirectory()
        let result = try HiddenLibrary.run("libmicrohttpd.so.12", [
            "replay", "--speed", "30", "--control-bus", "none", "--listen", "127.0.0.1:0", "--state-dir", files.path("state"),
        ])
        #expect(result.status == 69, "\(result.log)")
        #expect(result.log.contains("libmicrohttpd could not be loaded") && result.log.contains("install libmicrohttpd12"), "\(result.log)")
    }
}
