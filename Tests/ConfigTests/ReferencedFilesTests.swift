import Foundation
import Testing
import TestSupport
@testable import Config
import Forwarding

@Suite struct ReferencedFilesTests {
    static let json = #"""
    {"straps": [{"name": "A", "workoutName": "Run", "sinks": [
       {"type": "stdout"},
       {"type": "lifecycle", "url": "https://x.example", "tokenFile": "/etc/hrbridge/token"},
       {"type": "apns", "deviceTokenFile": "credential:device", "pushToStartTokenFile": "/p2s"}]}],
     "apns": {"keyFile": "credential:AuthKey.p8", "keyID": "ABC123DEFG", "teamID": "DEF123GHIJ", "bundleID": "com.example.Workout"},
     "http": {"certificateAuthorityFile": "/ca.pem"}}
    """#

    @Test func listsEveryFileWithItsKey() throws {
        let configuration = try ConfigurationReader.read(Array(Self.json.utf8), file: "c.json", kinds: SinkKinds.catalog)
        #expect(ReferencedFiles.list(configuration, kinds: SinkKinds.catalog).map { "\($0.key)=\($0.file)" } == [
            "straps[0].sinks[1].tokenFile=/etc/hrbridge/token",
            "straps[0].sinks[2].deviceTokenFile=credential:device",
            "straps[0].sinks[2].pushToStartTokenFile=/p2s",
            "apns.keyFile=credential:AuthKey.p8",
            "http.certificateAuthorityFile=/ca.pem",
        ])
    }

    @Test func credentialsAreLookedForWhereTheUnitLoadsThem() throws {
        let configuration = try ConfigurationReader.read(Array(Self.json.utf8), file: "c.json", kinds: SinkKinds.catalog)
        var looked: [String] = []
        let outside = ReferencedFiles.problems(configuration, kinds: SinkKinds.catalog, environment: [:]) { path in
            looked.append(path)
            return path == "/p2s" ? ENOENT : nil
        }
        #expect(looked.contains("/etc/hrbridge/credentials/device") && looked.contains("/etc/hrbridge/credentials/AuthKey.p8"))
        #expect(outside == ["straps[0].sinks[2].pushToStartTokenFile: /p2s: No such file or directory"])

        // Inside the service only the unit's directory load is there (hrbridge_NAME): found, no problem.
        looked = []
        let inside = ReferencedFiles.problems(configuration, kinds: SinkKinds.catalog, environment: ["CREDENTIALS_DIRECTORY": "/run/credentials/hrbridge.service"]) {
            looked.append($0)
            return $0.hasPrefix("/run/credentials/") && !$0.contains("/hrbridge_") ? ENOENT : nil
        }
        #expect(inside == [])
        #expect(looked.contains("/run/credentials/hrbridge.service/AuthKey.p8"))
        #expect(looked.contains("/run/credentials/hrbridge.service/hrbridge_AuthKey.p8"))
    }

    @Test func realAccessCheck() throws {
        let directory = try TemporaryDirectory()
        let present = try directory.write("present", "x")
        #expect(ReferencedFiles.accessProblem(present) == nil)
        #expect(ReferencedFiles.accessProblem(directory.path("absent")) == ENOENT)
    }
}
