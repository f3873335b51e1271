import LiveView
import Testing

@Suite struct StatusLinesTests {
    static let strap = SensorStatus(
        name: "F1:5A:17:00:00:01", role: .strap, link: .live, heartRate: 142, distanceMeters: 1234.5,
        lastUpdate: .init(sequence: 17, reason: "changed", age: 4.6), nextDeadlineIn: 111.2
    )
    static let pod = SensorStatus(name: "Stryd 1A2B", role: .distance, link: .live, distanceMeters: 1234.5)

    @Test func aStrapAndItsPodInColumns() {
        let lines = StatusLines.render([Self.strap, Self.pod], width: 120, height: 40)
        #expect(lines == [
            "F1:5A:17:00:00:01  142 bpm  live  1.23 km  #17 changed 4s ago  next in 1:52",
            "  Stryd 1A2B       distance  live  1.23 km",
        ])
    }

    @Test(arguments: [
        // (sensor, expected line at 100 columns)
        (SensorStatus(name: "replay", role: .strap, link: .waiting), "replay  --- bpm  waiting  no update yet"),
        (SensorStatus(name: "replay", role: .strap, link: .lost, lastUpdate: .init(sequence: 9, reason: "sensor-lost", age: 185), nextDeadlineIn: 3700),
         "replay  --- bpm  lost  #9 sensor-lost 3m05s ago  next in 1:01:40"),
        (SensorStatus(name: "replay", role: .strap, link: .live, heartRate: 88, lastUpdate: .init(sequence: 2, reason: "refresh", age: 3725), nextDeadlineIn: 0),
         "replay   88 bpm  live  #2 refresh 1h02m ago  next now"),
        (SensorStatus(name: "replay", role: .strap, link: .stopped, lastUpdate: .init(sequence: 40, reason: "end:stopped", age: 0)),
         "replay  --- bpm  stopped  #40 end:stopped 0s ago"),
        (SensorStatus(name: "pod", role: .distance, link: .lost, distanceMeters: 850.9), "  pod  distance  lost  850 m"),
    ])
    func eachStateReads(sensor: SensorStatus, expected: String) {
        #expect(StatusLines.render([sensor], width: 100, height: 10) == [expected])
    }

    @Test func narrowTerminalsCutEachLineOneColumnShortWithAnEllipsis() {
        for width in [20, 33, 47, 80] {
            let lines = StatusLines.render([Self.strap, Self.pod], width: width, height: 10)
            #expect(lines.count == 2)
            for line in lines { #expect(DisplayWidth.columns(of: line) <= width - 1, "\(width): \(line)") }
        }
        #expect(StatusLines.render([Self.strap], width: 30, height: 10) == ["F1:5A:17:00:00:01  142 bpm  …"])
        #expect(StatusLines.render([Self.strap], width: 19, height: 10) == [], "too narrow to say anything")
    }

    @Test func aShortTerminalKeepsARowForLogsAndCountsWhatDidNotFit() {
        let many = (1...6).map { SensorStatus(name: "strap \($0)", role: .strap, link: .live, heartRate: 100 + $0) }
        let lines = StatusLines.render(many, width: 80, height: 4)
        #expect(lines.count == 3)
        #expect(lines.last == "… 4 more sensors")
        #expect(StatusLines.render(many, width: 80, height: 1) == [])
    }

    @Test func longAndHostileNamesAreCutAndDefused() {
        let hostile = SensorStatus(name: "Polar\u{1B}[2J\u{7}H10 with a very long advertised name", role: .strap, link: .live, heartRate: 99)
        let line = StatusLines.render([hostile], width: 100, height: 10)[0]
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 }, "no escape reaches the terminal")
        #expect(line == "Polar?[2J?H10 with a ve…   99 bpm  live  no update yet", "24 columns of name, then the fields")
    }

    @Test func wideCharactersTakeTwoColumns() {
        #expect(DisplayWidth.columns(of: "心拍") == 4)
        #expect(DisplayWidth.columns(of: "e\u{301}") == 1)
        #expect(DisplayWidth.columns(of: "❤️") == 1 || DisplayWidth.columns(of: "🏃") == 2)
        #expect(DisplayWidth.truncated("心拍計ストラップ", to: 7) == "心拍計…")
        #expect(DisplayWidth.fitted("ab", to: 4) == "ab  ")
    }
}
