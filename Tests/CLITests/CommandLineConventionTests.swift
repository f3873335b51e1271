import Testing
@testable import CLI

@Suite struct CommandLineConventionTests {
    @Test func topLevelHelpListsEveryCommand() {
        let result = runHRBridge(["--help"])
        #expect(result.status == .success)
        for command in HRBridge.commands { #expect(result.output.contains("  \(command.spec.name) ")) }
    }

    @Test(arguments: HRBridge.commands.map(\.spec.name))
    func everyCommandHasHelp(command: String) {
        let result = runHRBridge([command, "--help"])
        #expect(result.status == .success)
        #expect(result.output.contains("Usage: hrbridge \(command)"))
        #expect(result.log.isEmpty)
    }

    @Test func versionGoesToStdout() {
        #expect(runHRBridge(["--version"]).output == "hrbridge \(HRBridge.version)\n")
    }

    @Test func noCommandIsAUsageError() {
        let result = runHRBridge([])
        #expect(result.status == .usage)
        #expect(result.output.isEmpty)
        #expect(result.log.contains("Usage: hrbridge <command>"))
    }

    @Test(arguments: [
        (["frobnicate"], "hrbridge: unknown command 'frobnicate'"),
        (["replay", "--bogus"], "hrbridge: unknown option '--bogus' for 'replay'"),
        (["replay", "--speed"], "hrbridge: --speed needs a value"),
        (["replay", "--speed", "0"], "hrbridge: --speed '0' is not a positive number"),
        (["replay", "--fast", "--speed", "2"], "hrbridge: --fast and --speed exclude each other"),
        (["replay", "a.trace", "b.trace"], "hrbridge: unexpected argument 'b.trace'"),
        (["replay", "--fast=yes"], "hrbridge: --fast takes no value"),
        (["import", "csv", "x.csv"], "hrbridge: missing -o OUTPUT"),
        (["import", "kml", "x.kml", "-o", "y"], "hrbridge: unknown import format 'kml' (supported: csv, fit, tcx, gpx, btsnoop)"),
        (["import", "csv", "x.csv", "-o", "y", "--start", "noon"], "hrbridge: --start 'noon' is not ISO-8601"),
    ])
    func usageErrorsExit64(arguments: [String], message: String) {
        let result = runHRBridge(arguments)
        #expect(result.status == .usage)
        #expect(result.log.hasPrefix(message), "\(result.log)")
        #expect(result.output.isEmpty)
    }

    @Test func unreadableInputExits66() {
        let result = runHRBridge(["replay", "--fast", "/nonexistent/run.trace"])
        #expect(result.status == .noInput)
        #expect(result.log == "hrbridge: /nonexistent/run.trace: No such file or directory\n")
    }
}
