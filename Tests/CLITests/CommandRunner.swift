import Foundation
@testable import CLI
import TestSupport

/// Runs `hrbridge` in-process with captured streams.
struct CommandResult {
    let status: ExitCode
    let output: String
    let log: String
}

func runHRBridge(_ arguments: [String], input: String = "") -> CommandResult {
    let console = Console(output: .memory(), log: .memory(), input: { Array(input.utf8) })
    let status = HRBridge.run(arguments, console: console)
    return CommandResult(status: status, output: console.output.text, log: console.log.text)
}

/// The package root, found from this file so tests run from any directory.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The real recordings the tests read (Tests/Fixtures/recordings).
let recordingsDirectory = RecordingFixtures.directory
