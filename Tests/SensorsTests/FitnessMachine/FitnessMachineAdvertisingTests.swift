import Sensors
import Testing

/// FTMS 1.0 §3.1 (service data: Flags u8, Fitness Machine Type u16) and §4.3 (Fitness Machine Feature).
@Suite struct FitnessMachineAdvertisingTests {
    private let ftms = BluetoothUUID(assigned: 0x1826)

    @Test(arguments: [
        ([0x01, 0x01, 0x00], "treadmill"),     // type bit 0
        ([0x01, 0x20, 0x00], "indoor bike"),   // type bit 5
        ([0x00, 0x20, 0x00], "indoor bike"),   // not available (in use) is still a bike
        ([0x01, 0x10, 0x00], nil),             // a rower: neither kind
        ([0x01, 0x21, 0x00], "treadmill"),     // both bits: the first registered kind
        ([0x01, 0x20], nil),                   // too short for the type
    ] as [([UInt8], String?)])
    func serviceDataTellsTheMachinesApart(serviceData: [UInt8], kind: String?) {
        let found = SensorKind.all.first { $0.isAdvertised(by: [ftms], serviceData: [ftms: serviceData]) }
        #expect(found?.name == kind)
    }

    @Test func aServiceAloneTellsTheOtherKinds() {
        let found = SensorKind.all.first { $0.isAdvertised(by: [BluetoothUUID(assigned: 0x1814)], serviceData: [:]) }
        #expect(found?.name == "running speed and cadence")
        #expect(!SensorKind.treadmill.isAdvertised(by: [ftms], serviceData: [:]))
    }

    @Test(arguments: [
        // 0x0000161d: bits 0, 2, 3, 4, 9, 10, 12 (the realbluez treadmill's).
        ("1d16000000000000", "average speed, total distance, inclination, elevation gain, expended energy, heart rate, elapsed time"),
        // 0x00005687: bits 0, 1, 2, 7, 9, 10, 12, 14 (the realbluez indoor bike's).
        ("8756000000000000", "average speed, cadence, total distance, resistance level, expended energy, heart rate, elapsed time, power measurement"),
        // targets 0x00002003: speed, inclination, indoor bike simulation (bit 13); reserved bit 31 left out.
        ("0400000003200080", "total distance; targets: speed, inclination, indoor bike simulation"),
        ("0000000000000000", "no data fields"),
    ])
    func featureSaysWhatTheMachineOffers(hex: String, summary: String) throws {
        let capabilities = try #require(SensorKind.capabilities(on: BluetoothUUID(assigned: 0x2ACC)))
        #expect(capabilities.summary(try Hex.decodeLenient(hex)) == summary)
    }

    @Test func aShortFeatureValueSaysNothing() throws {
        #expect(SensorKind.treadmill.capabilities?.summary([0x1D, 0x16, 0x00, 0x00]) == nil)
    }
}
