@testable import CLI
import Testing

@Suite struct BranchPointReplaySmokeTests {
    @Test func fastReplayOfBundledTracePrintsSamples() {
        let console = Console(output: .memory(), log: .memory(), input: { [] })
        let status = HRBridge.run(["replay", "--fast"], console: console)
        #expect(status == .success)
        let lines = console.output.text.split(separator: "\n")
        #expect(lines.first == #"{"time":"2024-01-01T06:00:00.000000Z","bpm":112,"contact":"detected","energyExpended":null,"rr":[]}"#)
        #expect(lines.count > 3000)
    }

    @Test func unknownOptionIsAUsageError() {
        let console = Console(output: .memory(), log: .memory(), input: { [] })
        #expect(HRBridge.run(["replay", "--nope"], console: console) == .usage)
        #expect(console.log.text.contains("unknown option '--nope'"))
    }
}
