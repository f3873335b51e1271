import LiveView
import Testing

@Suite struct StatusAreaTests {
    @Test func drawingThenReplacingMovesUpOverTheBlockAndClearsIt() {
        var area = StatusArea()
        #expect(area.replace(with: ["one", "two"], width: 80) == "one\ntwo", "nothing to erase at first")
        #expect(area.replace(with: ["three"], width: 80) == "\r\u{1B}[1A\u{1B}[Jthree")
        #expect(area.replace(with: ["four"], width: 80) == "\r\u{1B}[Jfour", "one line: no move up")
    }

    @Test func aLogLineTakesTheBlocksPlaceAndTheBlockComesBackBelow() {
        var area = StatusArea()
        _ = area.replace(with: ["a", "b"], width: 80)
        #expect(area.print("hrbridge: hello", then: ["a", "b"], width: 80) == "\r\u{1B}[1A\u{1B}[Jhrbridge: hello\na\nb")
        #expect(area.print("two\nlines\n", then: [], width: 80) == "\r\u{1B}[1A\u{1B}[Jtwo\nlines\n")
        #expect(area.print("plain", then: [], width: 80) == "plain\n", "no block: the text alone")
    }

    @Test func aNarrowerTerminalWrappedTheOldLinesOntoMoreRows() {
        var area = StatusArea()
        _ = area.replace(with: [String(repeating: "x", count: 79), "short"], width: 80)
        // At 40 columns the 79-column line takes two rows: three rows in all, two moves up.
        #expect(area.replace(with: ["new"], width: 40) == "\r\u{1B}[2A\u{1B}[Jnew")
    }

    @Test func removingLeavesACleanLineAndNothingToEraseLater() {
        var area = StatusArea()
        _ = area.replace(with: ["a", "b", "c"], width: 80)
        #expect(area.remove(width: 80) == "\r\u{1B}[2A\u{1B}[J")
        #expect(area.remove(width: 80) == "")
        #expect(area.drawn.isEmpty)
    }
}
