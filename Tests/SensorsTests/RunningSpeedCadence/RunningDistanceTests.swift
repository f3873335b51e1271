import Sensors
import Testing

/// A 0x2A53 value: speed in 1/256 m/s (768 = 3 m/s), cadence 180, total distance in 1/10 m if given.
private func footPod(speed: UInt16, total: UInt32? = nil) -> [UInt8] {
    let flags: UInt8 = total == nil ? 0x04 : 0x06
    return [flags] + littleEndian(speed) + [180] + (total.map(littleEndian) ?? [])
}

/// Speeds in the wire unit, 1/256 m/s.
private let twoMetersPerSecond: UInt16 = 512
private let threeMetersPerSecond: UInt16 = 768
private let fourMetersPerSecond: UInt16 = 1024

struct RunningDistanceCase: CustomTestStringConvertible, Sendable {
    let rule: String
    let steps: [DistanceStep]
    let expected: [Double?]
    var testDescription: String { rule }
}

private let cases: [RunningDistanceCase] = [
    .init(rule: "the first value only sets the base",
          steps: [.value(footPod(speed: threeMetersPerSecond, total: 1000), at: 0)],
          expected: [0]),
    .init(rule: "totals: the difference of consecutive totals, not the speed",
          steps: [.value(footPod(speed: threeMetersPerSecond, total: 1000), at: 0),
                  .value(footPod(speed: threeMetersPerSecond, total: 1025), at: 1),
                  .value(footPod(speed: threeMetersPerSecond, total: 1025), at: 2)],
          expected: [0, 2.5, 0]),
    .init(rule: "speed: trapezoid over consecutive samples (previous-speed would give 2 m, then 4 m)",
          steps: [.value(footPod(speed: twoMetersPerSecond), at: 0),
                  .value(footPod(speed: fourMetersPerSecond), at: 1),
                  .value(footPod(speed: twoMetersPerSecond), at: 2.5)],
          expected: [0, 3, 4.5]),
    .init(rule: "speed: a total in only one of two values falls back to integrating",
          steps: [.value(footPod(speed: threeMetersPerSecond, total: 1000), at: 0),
                  .value(footPod(speed: threeMetersPerSecond), at: 1),
                  .value(footPod(speed: threeMetersPerSecond, total: 1100), at: 2)],
          expected: [0, 3, 3]),
    .init(rule: "speed: a gap of exactly the bound is integrated, a longer one is a new base",
          steps: [.value(footPod(speed: threeMetersPerSecond), at: 0),
                  .value(footPod(speed: threeMetersPerSecond), at: RunningDistance.longestIntegratedGap),
                  .value(footPod(speed: threeMetersPerSecond), at: 2 * RunningDistance.longestIntegratedGap + 0.5),
                  .value(footPod(speed: threeMetersPerSecond), at: 2 * RunningDistance.longestIntegratedGap + 1.5)],
          expected: [0, 15, 0, 3]),
    .init(rule: "speed: never across a dropped link, even a short one",
          steps: [.value(footPod(speed: threeMetersPerSecond), at: 0),
                  .linkDropped,
                  .value(footPod(speed: threeMetersPerSecond), at: 1),
                  .value(footPod(speed: threeMetersPerSecond), at: 2)],
          expected: [0, 0, 3]),
    .init(rule: "speed: no time between two values covers nothing, nor does time running backwards",
          steps: [.value(footPod(speed: threeMetersPerSecond), at: 1),
                  .value(footPod(speed: threeMetersPerSecond), at: 1),
                  .value(footPod(speed: threeMetersPerSecond), at: 0.5),
                  .value(footPod(speed: threeMetersPerSecond), at: 1.5)],
          expected: [0, 0, 0, 3]),
    .init(rule: "speed: a reading above the plausible maximum is not integrated",
          steps: [.value(footPod(speed: .max), at: 0),
                  .value(footPod(speed: threeMetersPerSecond), at: 1),
                  .value(footPod(speed: threeMetersPerSecond), at: 2)],
          expected: [0, 0, 3]),
    .init(rule: "totals: a plausible advance across a dropped link is counted",
          steps: [.value(footPod(speed: threeMetersPerSecond, total: 1000), at: 0),
                  .linkDropped,
                  .value(footPod(speed: threeMetersPerSecond, total: 1600), at: 20)],
          expected: [0, 60]),
    .init(rule: "totals: a total going backwards (pod reset) is a new base",
          steps: [.value(footPod(speed: threeMetersPerSecond, total: 50_000), at: 0),
                  .value(footPod(speed: threeMetersPerSecond, total: 12), at: 1),
                  .value(footPod(speed: threeMetersPerSecond, total: 42), at: 2)],
          expected: [0, 0, 3]),
    // 12.5 m/s × (1 s + 2 s of arrival bunching) = 37.5 m: 375 units is the most one second can hold.
    .init(rule: "totals: up to the plausible maximum counts, beyond it is a new base",
          steps: [.value(footPod(speed: threeMetersPerSecond, total: 1000), at: 0),
                  .value(footPod(speed: threeMetersPerSecond, total: 1375), at: 1),
                  .value(footPod(speed: threeMetersPerSecond, total: 1751), at: 2),
                  .value(footPod(speed: threeMetersPerSecond, total: 1781), at: 3)],
          expected: [0, 37.5, 0, 3]),
    .init(rule: "totals: another pod's far larger total is a new base",
          steps: [.value(footPod(speed: threeMetersPerSecond, total: 1000), at: 0),
                  .value(footPod(speed: threeMetersPerSecond, total: 4_000_000_000), at: 1),
                  .value(footPod(speed: threeMetersPerSecond, total: 4_000_000_030), at: 2)],
          expected: [0, 0, 3]),
    .init(rule: "a malformed value throws and leaves the base where it was",
          steps: [.value(footPod(speed: threeMetersPerSecond, total: 1000), at: 0),
                  .value([0x06, 0x00, 0x03, 0xB4, 0x39, 0x30], at: 1),
                  .value(footPod(speed: threeMetersPerSecond, total: 1060), at: 2),
                  .value(footPod(speed: threeMetersPerSecond), at: 3),
                  .value([], at: 4),
                  .value(footPod(speed: threeMetersPerSecond), at: 5)],
          expected: [0, nil, 6, 3, nil, 6]),
]

@Suite struct RunningDistanceTests {
    @Test(arguments: cases)
    func followsTheRule(_ testCase: RunningDistanceCase) {
        let covered = metersCovered(playing: testCase.steps, into: RunningDistance())
        #expect(nearlyEqual(covered, testCase.expected), "\(covered)")
    }

    @Test func aMalformedValueThrowsTheParseError() {
        var distance = RunningDistance()
        #expect(throws: RunningSpeedCadenceError.truncated(.cadence, bytesAvailable: 0)) {
            try distance.metersCovered(by: [0x04, 0x00, 0x03], at: Timestamp(unixSeconds: 0))
        }
    }
}
