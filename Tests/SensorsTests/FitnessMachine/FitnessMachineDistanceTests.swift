import Sensors
import Testing

/// 0x2ACD values: speed in 1/100 km/h (0 = More Data, no speed), total distance in m if given.
private func treadmill(speed: UInt16?, total: UInt32? = nil) -> [UInt8] {
    var flags: UInt16 = speed == nil ? 0x0001 : 0
    if total != nil { flags |= 0x0004 }
    return littleEndian(flags) + (speed.map(littleEndian) ?? []) + (total.map { Array(littleEndian($0).prefix(3)) } ?? [])
}

/// 10.8 km/h = 3 m/s, 14.4 km/h = 4 m/s.
private let threeMetersPerSecond: UInt16 = 1080
private let fourMetersPerSecond: UInt16 = 1440

struct FitnessMachineDistanceCase: CustomTestStringConvertible, Sendable {
    let rule: String
    let steps: [DistanceStep]
    let expected: [Double?]
    var testDescription: String { rule }
}

private let cases: [FitnessMachineDistanceCase] = [
    .init(rule: "the first value only sets the base",
          steps: [.value(treadmill(speed: threeMetersPerSecond, total: 1000), at: 0)], expected: [0]),
    .init(rule: "totals: the difference of consecutive totals, not the speed",
          steps: [.value(treadmill(speed: threeMetersPerSecond, total: 1000), at: 0),
                  .value(treadmill(speed: threeMetersPerSecond, total: 1003), at: 1),
                  .value(treadmill(speed: threeMetersPerSecond, total: 1003), at: 2)],
          expected: [0, 3, 0]),
    .init(rule: "a split record: the More Data part carries the total, the last part the speed",
          steps: [.value(treadmill(speed: threeMetersPerSecond, total: 500), at: 0),
                  .value(treadmill(speed: nil, total: 503), at: 1),
                  .value(treadmill(speed: threeMetersPerSecond), at: 1),
                  .value(treadmill(speed: threeMetersPerSecond, total: 506), at: 2)],
          expected: [0, 3, 0, 3]),
    .init(rule: "a smaller total is a reset or a new console session: a new base, never backwards",
          steps: [.value(treadmill(speed: threeMetersPerSecond, total: 5000), at: 0),
                  .value(treadmill(speed: threeMetersPerSecond, total: 0), at: 1),
                  .value(treadmill(speed: threeMetersPerSecond, total: 3), at: 2)],
          expected: [0, 0, 3]),
    .init(rule: "a total jumping further than anyone runs is a new base, never invented distance",
          steps: [.value(treadmill(speed: threeMetersPerSecond, total: 100), at: 0),
                  .value(treadmill(speed: threeMetersPerSecond, total: 100_000), at: 1),
                  .value(treadmill(speed: threeMetersPerSecond, total: 100_003), at: 2)],
          expected: [0, 0, 3]),
    .init(rule: "the total carries across a dropped link: the machine kept counting",
          steps: [.value(treadmill(speed: threeMetersPerSecond, total: 100), at: 0),
                  .linkDropped,
                  .value(treadmill(speed: threeMetersPerSecond, total: 130), at: 10)],
          expected: [0, 30]),
    .init(rule: "no total: the speed integrated by the trapezoid rule",
          steps: [.value(treadmill(speed: threeMetersPerSecond), at: 0),
                  .value(treadmill(speed: fourMetersPerSecond), at: 2)],
          expected: [0, 7]),
    .init(rule: "no total: never across a dropped link nor a gap over the bound",
          steps: [.value(treadmill(speed: threeMetersPerSecond), at: 0),
                  .linkDropped,
                  .value(treadmill(speed: threeMetersPerSecond), at: 1),
                  .value(treadmill(speed: threeMetersPerSecond), at: 1 + FitnessMachineDistance<TreadmillData>.longestIntegratedGap + 0.5),
                  .value(treadmill(speed: threeMetersPerSecond), at: 2 + FitnessMachineDistance<TreadmillData>.longestIntegratedGap + 0.5)],
          expected: [0, 0, 0, 3]),
    .init(rule: "once a total arrived the speed is no longer integrated: nothing counts twice",
          steps: [.value(treadmill(speed: threeMetersPerSecond), at: 0),
                  .value(treadmill(speed: threeMetersPerSecond), at: 1),
                  .value(treadmill(speed: threeMetersPerSecond, total: 50), at: 2),
                  .value(treadmill(speed: threeMetersPerSecond), at: 3),
                  .value(treadmill(speed: threeMetersPerSecond, total: 56), at: 4)],
          expected: [0, 3, 3, 0, 6]),
    .init(rule: "a malformed value throws and leaves the base as it was",
          steps: [.value(treadmill(speed: threeMetersPerSecond, total: 100), at: 0),
                  .value([0x04, 0x00, 0x38], at: 1),
                  .value(treadmill(speed: threeMetersPerSecond, total: 106), at: 2)],
          expected: [0, nil, 6]),
]

@Suite struct FitnessMachineDistanceTests {
    @Test(arguments: cases)
    func followsTheRule(_ scenario: FitnessMachineDistanceCase) {
        let covered = metersCovered(playing: scenario.steps, into: FitnessMachineDistance<TreadmillData>(maximumPlausibleSpeed: TreadmillData.maximumPlausibleSpeed))
        #expect(nearlyEqual(covered, scenario.expected), "\(covered)")
    }

    @Test func theKindsDerivationsReadTheirOwnCharacteristic() throws {
        // 0x2AD2 flags 0x0010: speed 0x0bb8 = 30 km/h, total distance; bit 4 is the bike's total, not bit 2.
        var bike = try #require(SensorKind.indoorBike.distanceDerivation(DistanceSettings()))
        let start = Timestamp(unixSeconds: 1_700_000_000)
        #expect(try bike.metersCovered(by: [0x10, 0x00, 0xB8, 0x0B, 0xE8, 0x03, 0x00], at: start) == 0)
        #expect(try bike.metersCovered(by: [0x10, 0x00, 0xB8, 0x0B, 0xF0, 0x03, 0x00], at: start.adding(seconds: 1)) == 8)
    }
}
