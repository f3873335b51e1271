import Foundation
import ProcessTestSupport
import TestSupport
import Testing

/// libcurl and libcrypto are loaded on first use (dlopen), not linked: a machine without them still
/// runs hrbridge, and a network sink says what is missing instead of the loader refusing to start.
/// Each test hides the library in a private mount namespace (root and unshare --mount, as CI has).
@Suite(.enabled(if: HiddenLibrary.available), .timeLimit(.minutes(1)))
struct MissingLibraryTests {
    @Test func withoutLibcurlALifecycleSinkSpoolsAndSaysWhatToInstall() throws {
        let spool = try TemporaryDirectory()
        let result = try HiddenLibrary.run("libcurl.so.4", ["replay", "--fast", "--sink", "http://127.0.0.1:9/hooks",
                                                               "--sink-grace", "0", "--spool", spool.url.path])
        #expect(result.status == 0, "\(result.log)")
        #expect(result.log.contains("libcurl could not be loaded") && result.log.contains("install libcurl4"), "\(result.log)")
        #expect(result.log.contains("2 undelivered lifecycle steps spooled"), "start and end kept for the next run: \(result.log)")
    }

    @Test func withoutLibcryptoAnAPNsSinkIsRefusedWithWhatToInstall() throws {
        let directory = try TemporaryDirectory()
        let key = try TestCertificates.makeAPNsKey(in: directory)
        let result = try HiddenLibrary.run("libcrypto.so.3", [
            "replay", "--fast", "--sink", "apns", "--apns-key-file", key, "--apns-key-id", "KEY1234567", "--apns-team-id", "TEAM123456",
            "--apns-bundle-id", "a.b", "--apns-device-token-env", "HRBRIDGE_TEST_TOKEN", "--spool", directory.path("spool"),
        ])
        #expect(result.status == 69, "\(result.log)")
        #expect(result.log.contains("libcrypto, which could not be loaded") && result.log.contains("install libssl3"), "\(result.log)")
    }
}

extension MissingLibraryTests {
    @Test func withoutLibmosquittoAnMQTTSinkIsRefusedWithWhatToInstall() throws {
        let result = try HiddenLibrary.run("libmosquitto.so.1", ["replay", "--fast", "--sink", "mqtt://127.0.0.1:9"])
        #expect(result.status == 69, "\(result.log)")
        #expect(result.log.contains("libmosquitto could not be loaded") && result.log.contains("install libmosquitto1"), "\(result.log)")
    }
}
