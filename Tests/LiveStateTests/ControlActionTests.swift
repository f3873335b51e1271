import LiveState
import Testing

/// The one control vocabulary, as `ctl` (action and text) and a message (one line) say it.
@Suite struct ControlActionTests {
    @Test(arguments: [
        ("pause", nil, ControlAction.pause), ("resume", nil, .resume), ("end", nil, .end),
        ("label", "Intervals 4×400", .label("Intervals 4×400")), ("label", "  Cool-down \n", .label("Cool-down")),
    ] as [(String, String?, ControlAction)])
    func actionAndText(_ action: String, _ text: String?, _ expected: ControlAction) {
        #expect(ControlAction.parse(action: action, text: text) == .success(expected))
        // The same said as one line.
        #expect(ControlAction.parse(action + (text.map { " " + $0 } ?? "")) == .success(expected))
    }

    @Test(arguments: [
        ("jump", nil, "expected pause, resume, label TEXT or end, got \"jump\""),
        ("Pause", nil, "expected pause, resume, label TEXT or end, got \"Pause\""),
        ("pause", "now", "pause takes no text"),
        ("label", nil, "label needs the new interval label"),
        ("", nil, "expected pause, resume, label TEXT or end, got \"\""),
    ] as [(String, String?, String)])
    func refusalsSayWhy(_ action: String, _ text: String?, _ reason: String) {
        #expect(ControlAction.parse(action: action, text: text) == .failure(.init(description: reason)))
    }

    @Test func anEmptyLabelGivenAsSuchClearsIt() {
        #expect(ControlAction.parse(action: "label", text: " \t") == .success(.label("")))
        #expect(ControlAction.parse("label \t") == .failure(.init(description: "label needs the new interval label")))
    }

    @Test func aLineSplitsAtTheFirstWhitespace() {
        #expect(ControlAction.parse("\tlabel\tA  B ") == .success(.label("A  B")))
        #expect(ControlAction.parse("labelX") == .failure(.init(description: "expected pause, resume, label TEXT or end, got \"labelX\"")))
        #expect(ControlAction.parse(String(repeating: "x", count: 500)).failureText?.count ?? 0 < 120, "a long word is cut in the refusal")
    }

    @Test func theEngineHearsAllButTheEnd() {
        #expect(ControlAction.label("A").engineInput == .label("A"))
        #expect(ControlAction.end.engineInput == nil)
        #expect(ControlAction.label("say \"hi\"\n").spelled == #"label "say \"hi\"\n""#)
    }
}

private extension Result where Failure == ControlAction.Refusal {
    var failureText: String? { if case let .failure(refusal) = self { refusal.description } else { nil } }
}
