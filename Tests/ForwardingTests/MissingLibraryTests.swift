import Foundation
import TestSupport
import Testing

/// libcurl and libcrypto are loaded on first use (dlopen), not linked: a machine without them still
/// runs hrbridge, and a network sink says what is missing instead of the loader refusing to start.
/// Each test hides the library in a private mount namespace (root and unshare --mount, as CI has).
@Suite(.enabled(if: MountNamespace.available), .timeLimit(.minutes(1)))
struct MissingLibraryTests {
    /// `hrbridge ARGUMENTS` with `library` (a soname) made unreadable: /dev/null mounted over its file.
    static func withoutLibrary(_ library: String, _ arguments: [String]) throws -> (status: Int32, log: String) {
        let directories = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
        let file = try #require(directories.map { "\($0)/\(library)" }.first { FileManager.default.fileExists(atPath: $0) })
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--mount", "/bin/sh", "-c", #"mount --bind /dev/null "$(readlink -f "$0")" && exec "$@""#,
                             file, BridgeProcess.executable] + arguments
        let log = Pipe()
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func withoutLibcurlALifecycleSinkSpoolsAndSaysWhatToInstall() throws {
        let spool = try TemporaryDirectory()
        let result = try Self.withoutLibrary("libcurl.so.4", ["replay", "--fast", "--sink", "http://127.0.0.1:9/hooks",
                                                               "--sink-grace", "0", "--spool", spool.url.path])
        #expect(result.status == 0, "\(result.log)")
        #expect(result.log.contains("libcurl could not be loaded") && result.log.contains("install libcurl4"), "\(result.log)")
        #expect(result.log.contains("2 undelivered lifecycle steps spooled"), "start and end kept for the next run: \(result.log)")
    }

    @Test func withoutLibcryptoAnAPNsSinkIsRefusedWithWhatToInstall() throws {
        let directory = try TemporaryDirectory()
        let key = try TestCertificates.makeAPNsKey(in: directory)
        let result = try Self.withoutLibrary("libcrypto.so.3", [
            "replay", "--fast", "--sink", "apns", "--apns-key-file", key, "--apns-key-id", "KEY1234567", "--apns-team-id", "TEAM123456",
            "--apns-bundle-id", "a.b", "--apns-device-token-env", "HRBRIDGE_TEST_TOKEN", "--spool", directory.path("spool"),
        ])
        #expect(result.status == 69, "\(result.log)")
        #expect(result.log.contains("libcrypto, which could not be loaded") && result.log.contains("install libssl3"), "\(result.log)")
    }
}

extension MissingLibraryTests {
    @Test func withoutLibmosquittoAnMQTTSinkIsRefusedWithWhatToInstall() throws {
        let result = try Self.withoutLibrary("libmosquitto.so.1", ["replay", "--fast", "--sink", "mqtt://127.0.0.1:9"])
        #expect(result.status == 69, "\(result.log)")
        #expect(result.log.contains("libmosquitto could not be loaded") && result.log.contains("install libmosquitto1"), "\(result.log)")
    }
}

/// Whether this process may make a private mount namespace (root, util-linux's unshare).
enum MountNamespace {
    static let available: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["--mount", "true"]
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()
}
