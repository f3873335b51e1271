import Testing
import TestSupport
@testable import CLI

@Suite struct ConfigCommandTests {
    @Test func validFilePrintsEffectiveConfiguration() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("c.json", #"{"straps": [{"name": "H10", "workoutName": "Run", "sinks": [{"type": "stdout"}]}]}"#)
        let result = runHRBridge(["config", "check", "--config", path])
        #expect(result.status == .success)
        #expect(result.output.hasPrefix("{\n  \"straps\": [\n"))
        #expect(result.log == "hrbridge: \(path): valid, 1 strap\n")
    }

    @Test func invalidFileListsEveryIssueAndExits65() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("c.json", #"{"straps": [{"name": "H10", "workoutName": 1, "sinks": [{"type": "lifecycle", "url": "ftp://x"}]}]}"#)
        let result = runHRBridge(["config", "check", "--config", path])
        #expect(result.status == .dataError)
        #expect(result.output.isEmpty)
        #expect(result.log == """
        hrbridge: \(path): straps[0].workoutName: expected a string, got a number (1)
        \(path): straps[0].sinks[0].url: expected an https or http URL, got "ftp://x"

        """)
    }

    /// `run` would trap turning this into milliseconds: the check must refuse it first.
    @Test func numberOutOfRangeIsAnIssue() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("c.json", #"{"straps": [{"name": "H10", "workoutName": "Run", "sinks": [{"type": "stdout"}]}], "http": {"connectTimeout": 1e16}}"#)
        let result = runHRBridge(["config", "check", "--config", path])
        #expect(result.status == .dataError)
        #expect(result.log == "hrbridge: \(path): http.connectTimeout: expected seconds between 0.001 and 600, got 1e+16\n")
    }

    @Test func missingFileExits66() {
        let result = runHRBridge(["config", "check", "--config", "/nonexistent/c.json"])
        #expect(result.status == .noInput)
        #expect(result.log == "hrbridge: /nonexistent/c.json: No such file or directory\n")
    }

    @Test func unknownActionIsAUsageError() {
        let result = runHRBridge(["config", "apply"])
        #expect(result.status == .usage)
        #expect(result.log.hasPrefix("hrbridge: unknown config action 'apply' (supported: check)"))
    }
}
