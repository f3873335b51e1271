import Testing
@testable import CLI

@Suite struct ParseCommandTests {
    @Test func printsOneObjectPerLineAndGoesOnAfterAnError() {
        let result = runHRBridge(["parse"], input: "16 48 00 03\n0x0e:0x4d:0x0c:0x00\n\n1648000\n0400\nzz\n")
        #expect(result.status == .success)
        #expect(result.output == """
        {"bpm":72,"contact":"detected","energyExpended":null,"rr":[768]}
        {"bpm":77,"contact":"detected","energyExpended":12,"rr":[]}
        {"error":"empty value: no flags byte"}
        {"error":"odd number of hex digits (7): every byte needs two"}
        {"bpm":0,"contact":"not-detected","energyExpended":null,"rr":[]}
        {"error":"'z' at column 1 is not a hex digit"}

        """)
    }

    @Test func lastLineWithoutNewlineCounts() {
        #expect(runHRBridge(["parse"], input: "0048").output == "{\"bpm\":72,\"contact\":\"unsupported\",\"energyExpended\":null,\"rr\":[]}\n")
    }

    @Test func emptyInputPrintsNothing() {
        #expect(runHRBridge(["parse"], input: "").output == "")
    }

    @Test func heartRateIsTheDefaultCharacteristic() {
        let input = "16 48 00 03\n0e 4d 0c\n"
        let explicit = runHRBridge(["parse", "--characteristic", "2a37"], input: input)
        #expect(explicit.status == .success)
        #expect(explicit.output == runHRBridge(["parse"], input: input).output)
    }

    // Computed by hand from RSCS 1.0: flags, speed u16 in 1/256 m/s, cadence u8, stride u16 in
    // 1/100 m (bit 0), total u32 in 1/10 m (bit 1), bit 2 running; little-endian.
    //   07 8003 b4 7d00 39300000: 0x0380 = 896 / 256 = 3.5 m/s, 0xb4 = 180, 0x007d = 125 / 100 = 1.25 m,
    //                             0x3039 = 12345 / 10 = 1234.5 m, running
    //   00 0003 b4:              0x0300 = 768 / 256 = 3 m/s (printed whole), walking, no stride or total
    //   02 cd00 5a 01000000 ff:  0x00cd = 205 / 256 = 0.80078125 m/s, 0x5a = 90, total 0.1 m; the
    //                             trailing ff is ignored (later spec versions append fields)
    //   ff ffff ff ffff ffffffff: every maximum, 65535 / 256 = 255.99609375 m/s, 655.35 m,
    //                             4294967295 / 10 = 429496729.5 m; reserved bits 3-7 ignored
    @Test func decodesRunningSpeedAndCadence() {
        let result = runHRBridge(["parse", "--characteristic", "2a53"], input: """
        07 8003 b4 7d00 39300000
        00 0003 b4
        02 cd00 5a 01000000 ff
        ff ffff ff ffff ffffffff

        06 8003 b4 3930

        """)
        #expect(result.status == .success)
        #expect(result.output == """
        {"speed":3.5,"cadence":180,"strideLength":1.25,"totalDistance":1234.5,"running":true}
        {"speed":3,"cadence":180,"strideLength":null,"totalDistance":null,"running":false}
        {"speed":0.80078125,"cadence":90,"strideLength":null,"totalDistance":0.1,"running":false}
        {"speed":255.99609375,"cadence":255,"strideLength":655.35,"totalDistance":429496729.5,"running":true}
        {"error":"empty value: no flags byte"}
        {"error":"flags promise total distance (4 bytes) but 2 bytes follow"}

        """)
    }

    // Computed by hand from CSCS 1.0: flags, wheel revolutions u32 + last wheel event time u16 (bit 0),
    // crank revolutions u16 + last crank event time u16 (bit 1); little-endian, times in 1/1024 s.
    //   03 10270000 0004 2c01 0008: 0x2710 = 10000 revolutions at 0x0400 = 1024, crank 0x012c = 300 at 0x0800 = 2048
    //   02 2c01 0008:               crank only
    //   01 ffffffff ffff:           wheel at its maxima, 4294967295 and 65535
    @Test func decodesCyclingSpeedAndCadence() {
        let result = runHRBridge(["parse", "--characteristic", "2a5b"], input: """
        03 10270000 0004 2c01 0008
        02 2c01 0008
        01 ffffffff ffff
        00
        01 10270000 00
        """)
        #expect(result.status == .success)
        #expect(result.output == """
        {"wheelRevolutions":10000,"lastWheelEventTime":1024,"crankRevolutions":300,"lastCrankEventTime":2048}
        {"wheelRevolutions":null,"lastWheelEventTime":null,"crankRevolutions":300,"lastCrankEventTime":2048}
        {"wheelRevolutions":4294967295,"lastWheelEventTime":65535,"crankRevolutions":null,"lastCrankEventTime":null}
        {"wheelRevolutions":null,"lastWheelEventTime":null,"crankRevolutions":null,"lastCrankEventTime":null}
        {"error":"flags promise last wheel event time (2 bytes) but 1 byte follows"}

        """)
    }

    @Test(arguments: ["2a53", "2A53", "0x2A53", "00002a53", "00002a53-0000-1000-8000-00805f9b34fb"])
    func acceptsEveryFormOfAUUID(characteristic: String) {
        let result = runHRBridge(["parse", "--characteristic=\(characteristic)"], input: "00 0003 b4\n")
        #expect(result.output == "{\"speed\":3,\"cadence\":180,\"strideLength\":null,\"totalDistance\":null,\"running\":false}\n")
    }

    @Test(arguments: ["2a19", "180d", "2acd", "zz", ""])
    func anUnknownCharacteristicIsAUsageError(characteristic: String) {
        let result = runHRBridge(["parse", "--characteristic", characteristic], input: "0048\n")
        #expect(result.status == .usage)
        #expect(result.output.isEmpty)
        #expect(result.log.hasPrefix("""
        hrbridge: unknown characteristic '\(characteristic)'; known: 2a37 (heart rate), \
        2a53 (running speed and cadence), 2a5b (cycling speed and cadence)
        Usage: hrbridge parse [options]
        """), "\(result.log)")
    }

    @Test func helpNamesEveryCharacteristic() {
        let help = runHRBridge(["parse", "--help"]).output
        #expect(help.contains("--characteristic UUID the values' characteristic: 2a37, 2a53, 2a5b (default 2a37)"))
    }

    @Test(arguments: [
        (3.0, "3"), (3.5, "3.5"), (0.1, "0.1"), (429_496_729.5, "429496729.5"), (-0.0, "-0"),
        (.nan, "null"), (.infinity, "null"),
    ] as [(Double, String)])
    func doublesAreJSONNumbers(value: Double, json: String) {
        var line = JSONLine()
        line.double("x", value)
        #expect(line.finish() == Array("{\"x\":\(json)}\n".utf8))
    }
}
