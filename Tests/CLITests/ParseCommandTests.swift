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

    // Held out: computed by hand from FTMS 1.0 §4.4 (Treadmill Data) and the GATT Specification
    // Supplement's field table, not from any encoder. Flags u16; bit 0 More Data (clear: Instantaneous
    // Speed u16 in 1/100 km/h follows), 1 Average Speed u16, 2 Total Distance u24 m, 3 Inclination s16
    // 1/10 % + Ramp Angle Setting s16 1/10 degree, 4 Positive + Negative Elevation Gain u16 1/10 m each,
    // 5 Instantaneous Pace u8 and 6 Average Pace u8 in 1/10 km/min, 7 Total Energy u16 + Energy Per Hour
    // u16 + Energy Per Minute u8 kcal, 8 Heart Rate u8, 9 Metabolic Equivalent u8 1/10, 10 Elapsed Time
    // u16 s, 11 Remaining Time u16 s, 12 Force on Belt s16 N + Power Output s16 W; 13-15 reserved.
    //   fe1f …: every field. 0x041a = 1050 → 10.5 km/h; 0x03db = 987 → 9.87; 0x003039 = 12345 m;
    //     0xfff1 = -15 → -1.5 %; ramp 0x7fff = Data Not Available; 0x007b = 123 → 12.3 m; 0x002d = 45 →
    //     4.5 m; pace 2 → 0.2, 1 → 0.1 km/min; 0x00fa = 250 kcal, per hour 0xffff and per minute 0xff not
    //     available; 0x8e = 142 bpm; 0x60 = 96 → 9.6 MET; 0x0e8b = 3723 s; 0x0258 = 600 s; 0xffec = -20 N;
    //     power 0x7fff not available.
    //   05e0 a08601 dead: More Data set (no speed), total 0x0186a0 = 100000 m, reserved bits 13-15 and
    //     the trailing bytes ignored.
    //   0c04 8403 000000 0a00 0600 0000: a line of Tests/realbluez/example-treadmill-trace.txt (another
    //     hand's encoder): 9 km/h, 0 m, 1 %, ramp 0.6 degree, 0 s.
    //   then values shorter than their flags promise: each error names the field, the bit and the byte.
    @Test func decodesTreadmillData() {
        let result = runHRBridge(["parse", "--characteristic", "2acd"], input: """
        fe1f 1a04 db03 393000 f1ff ff7f 7b00 2d00 02 01 fa00 ffff ff 8e 60 8b0e 5802 ecff ff7f
        05e0 a08601 dead
        0c04 8403 000000 0a00 0600 0000

        00
        0000 05
        0400 e803 1027
        0810 e803 0a00 06

        """)
        #expect(result.status == .success)
        #expect(result.output == """
        {"moreData":false,"speed":10.5,"averageSpeed":9.87,"totalDistance":12345,"inclination":-1.5,"rampAngle":null,\
        "positiveElevationGain":12.3,"negativeElevationGain":4.5,"instantaneousPace":0.2,"averagePace":0.1,"totalEnergy":250,\
        "energyPerHour":null,"energyPerMinute":null,"heartRate":142,"metabolicEquivalent":9.6,"elapsedTime":3723,\
        "remainingTime":600,"forceOnBelt":-20,"powerOutput":null}
        {"moreData":true,"speed":null,"averageSpeed":null,"totalDistance":100000,"inclination":null,"rampAngle":null,\
        "positiveElevationGain":null,"negativeElevationGain":null,"instantaneousPace":null,"averagePace":null,"totalEnergy":null,\
        "energyPerHour":null,"energyPerMinute":null,"heartRate":null,"metabolicEquivalent":null,"elapsedTime":null,\
        "remainingTime":null,"forceOnBelt":null,"powerOutput":null}
        {"moreData":false,"speed":9,"averageSpeed":null,"totalDistance":0,"inclination":1,"rampAngle":0.6,\
        "positiveElevationGain":null,"negativeElevationGain":null,"instantaneousPace":null,"averagePace":null,"totalEnergy":null,\
        "energyPerHour":null,"energyPerMinute":null,"heartRate":null,"metabolicEquivalent":null,"elapsedTime":0,\
        "remainingTime":null,"forceOnBelt":null,"powerOutput":null}
        {"error":"empty value: no flags"}
        {"error":"every value starts with 2 bytes of flags but 1 byte came"}
        {"error":"flags bit 0 (More Data) clear promises instantaneous speed (2 bytes) at byte 2 but 1 byte follows"}
        {"error":"flags bit 2 promises total distance (3 bytes) at byte 4 but 2 bytes follow"}
        {"error":"flags bit 3 promises ramp angle setting (2 bytes) at byte 6 but 1 byte follows"}

        """)
    }

    // Held out: computed by hand from FTMS 1.0 §4.9 (Indoor Bike Data) and the GATT Specification
    // Supplement's field table. Flags u16; bit 0 More Data (clear: Instantaneous Speed u16 1/100 km/h),
    // 1 Average Speed u16, 2 Instantaneous Cadence u16 1/2 rpm, 3 Average Cadence u16, 4 Total Distance
    // u24 m, 5 Resistance Level s16, 6 Instantaneous Power s16 W, 7 Average Power s16 W, 8 Total Energy
    // u16 + Energy Per Hour u16 + Energy Per Minute u8 kcal, 9 Heart Rate u8, 10 Metabolic Equivalent u8
    // 1/10, 11 Elapsed Time u16 s, 12 Remaining Time u16 s; 13-15 reserved.
    //   fe1f …: every field. 0x0ca8 = 3240 → 32.4 km/h; 0x0bb8 = 3000 → 30; 0x00b5 = 181 → 90.5 rpm;
    //     0x00b0 = 176 → 88; 0x0061a8 = 25000 m; resistance 12; 0x00f5 = 245 W; 0x00e6 = 230 W;
    //     0x0190 = 400, 0x028a = 650, 0x0b = 11 kcal; 0x9c = 156 bpm; 0x52 = 82 → 8.2 MET; 0x0708 = 1800 s; 0 s.
    //   0400 e803 b400: bit 2 is Instantaneous Cadence (0xb4 = 180 → 90 rpm), not Average Speed, as
    //     the SIG's 2017 XML table had it swapped.
    //   4000 0000 f6ff: power 0xfff6 = -10 W (signed), speed 0.
    //   0101 ffff ffff ff: More Data set, energy fields all Data Not Available.
    @Test func decodesIndoorBikeData() {
        let result = runHRBridge(["parse", "--characteristic", "2ad2"], input: """
        fe1f a80c b80b b500 b000 a86100 0c00 f500 e600 9001 8a02 0b 9c 52 0807 0000
        0400 e803 b400
        4000 0000 f6ff
        0101 ffff ffff ff
        1000 e803 a861

        """)
        #expect(result.status == .success)
        #expect(result.output == """
        {"moreData":false,"speed":32.4,"averageSpeed":30,"cadence":90.5,"averageCadence":88,"totalDistance":25000,\
        "resistanceLevel":12,"power":245,"averagePower":230,"totalEnergy":400,"energyPerHour":650,"energyPerMinute":11,\
        "heartRate":156,"metabolicEquivalent":8.2,"elapsedTime":1800,"remainingTime":0}
        {"moreData":false,"speed":10,"averageSpeed":null,"cadence":90,"averageCadence":null,"totalDistance":null,\
        "resistanceLevel":null,"power":null,"averagePower":null,"totalEnergy":null,"energyPerHour":null,"energyPerMinute":null,\
        "heartRate":null,"metabolicEquivalent":null,"elapsedTime":null,"remainingTime":null}
        {"moreData":false,"speed":0,"averageSpeed":null,"cadence":null,"averageCadence":null,"totalDistance":null,\
        "resistanceLevel":null,"power":-10,"averagePower":null,"totalEnergy":null,"energyPerHour":null,"energyPerMinute":null,\
        "heartRate":null,"metabolicEquivalent":null,"elapsedTime":null,"remainingTime":null}
        {"moreData":true,"speed":null,"averageSpeed":null,"cadence":null,"averageCadence":null,"totalDistance":null,\
        "resistanceLevel":null,"power":null,"averagePower":null,"totalEnergy":null,"energyPerHour":null,"energyPerMinute":null,\
        "heartRate":null,"metabolicEquivalent":null,"elapsedTime":null,"remainingTime":null}
        {"error":"flags bit 4 promises total distance (3 bytes) at byte 4 but 2 bytes follow"}

        """)
    }

    @Test(arguments: ["2a53", "2A53", "0x2A53", "00002a53", "00002a53-0000-1000-8000-00805f9b34fb"])
    func acceptsEveryFormOfAUUID(characteristic: String) {
        let result = runHRBridge(["parse", "--characteristic=\(characteristic)"], input: "00 0003 b4\n")
        #expect(result.output == "{\"speed\":3,\"cadence\":180,\"strideLength\":null,\"totalDistance\":null,\"running\":false}\n")
    }

    @Test(arguments: ["2a19", "180d", "2acc", "zz", ""])
    func anUnknownCharacteristicIsAUsageError(characteristic: String) {
        let result = runHRBridge(["parse", "--characteristic", characteristic], input: "0048\n")
        #expect(result.status == .usage)
        #expect(result.output.isEmpty)
        #expect(result.log.hasPrefix("""
        hrbridge: unknown characteristic '\(characteristic)'; known: 2a37 (heart rate), \
        2a53 (running speed and cadence), 2a5b (cycling speed and cadence), 2acd (treadmill), 2ad2 (indoor bike)
        Usage: hrbridge parse [options]
        """), "\(result.log)")
    }

    @Test func helpNamesEveryCharacteristic() {
        let help = runHRBridge(["parse", "--help"]).output
        #expect(help.contains("--characteristic UUID the values' characteristic: 2a37, 2a53, 2a5b, 2acd, 2ad2 (default 2a37)"))
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
