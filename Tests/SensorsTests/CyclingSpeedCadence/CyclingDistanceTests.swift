import Sensors
import Testing

/// A 0x2A5B value with wheel data only; event time in 1/1024 s.
private func wheelSensor(revolutions: UInt32, eventTime: UInt16) -> [UInt8] {
    [0x01] + littleEndian(revolutions) + littleEndian(eventTime)
}

/// A 0x2A5B value with crank data only (a cadence sensor): 300 revolutions at 2 s.
private let cadenceOnly: [UInt8] = [0x02, 0x2C, 0x01, 0x00, 0x08]

/// One second on the sensor's clock.
private let second: UInt16 = 1024

struct CyclingDistanceCase: CustomTestStringConvertible, Sendable {
    let rule: String
    let steps: [DistanceStep]
    let expected: [Double?]
    var testDescription: String { rule }
}

/// With a 2 m wheel, so that meters are twice the revolutions.
private let cases: [CyclingDistanceCase] = [
    .init(rule: "revolutions times circumference; the first value only sets the base",
          steps: [.value(wheelSensor(revolutions: 100, eventTime: 0), at: 0),
                  .value(wheelSensor(revolutions: 105, eventTime: second), at: 1)],
          expected: [0, 10]),
    .init(rule: "a repeated value (same count, same time) covers nothing and keeps the base",
          steps: [.value(wheelSensor(revolutions: 100, eventTime: 500), at: 0),
                  .value(wheelSensor(revolutions: 100, eventTime: 500), at: 1),
                  .value(wheelSensor(revolutions: 104, eventTime: 2548), at: 2)],
          expected: [0, 0, 8]),
    .init(rule: "a value without wheel data covers nothing and keeps the base",
          steps: [.value(cadenceOnly, at: 0),
                  .value(wheelSensor(revolutions: 100, eventTime: 0), at: 1),
                  .value(cadenceOnly, at: 2),
                  .value(wheelSensor(revolutions: 110, eventTime: 2 * second), at: 3)],
          expected: [0, 0, 0, 20]),
    .init(rule: "the revolution count rolls over at 2^32",
          steps: [.value(wheelSensor(revolutions: .max - 2, eventTime: 0), at: 0),
                  .value(wheelSensor(revolutions: 2, eventTime: second), at: 1)],
          expected: [0, 10]),
    // 100 revolutions = 200 m in 10 s on the sensor's clock (60,000 + 10,240 wraps to 4,704), but the
    // notifications arrive 0.5 s apart: 40 m/s × (0.5 s + 2 s) = 100 m would refuse them.
    .init(rule: "the sensor's event clock, across its 64 s roll-over, vouches for bunched arrivals",
          steps: [.value(wheelSensor(revolutions: 1000, eventTime: 60000), at: 0),
                  .value(wheelSensor(revolutions: 1100, eventTime: 4704), at: 0.5)],
          expected: [0, 200]),
    // 500 revolutions = 1000 m in 200 s; the event clock wrapped three times and shows only 8 s
    // (204,800 mod 65,536 = 8,192), where 1000 m would be too fast.
    .init(rule: "a plausible advance across a dropped link longer than the event clock's period is counted",
          steps: [.value(wheelSensor(revolutions: 1000, eventTime: 0), at: 0),
                  .linkDropped,
                  .value(wheelSensor(revolutions: 1500, eventTime: 8 * second), at: 200)],
          expected: [0, 1000]),
    .init(rule: "a count going backwards (sensor restarted) is a new base",
          steps: [.value(wheelSensor(revolutions: 5000, eventTime: 0), at: 0),
                  .value(wheelSensor(revolutions: 3, eventTime: 3 * second), at: 1),
                  .value(wheelSensor(revolutions: 8, eventTime: 4 * second), at: 2)],
          expected: [0, 0, 10]),
    // 40 m/s × (1 s + 2 s) = 120 m: 60 revolutions is the most one second can hold.
    .init(rule: "up to the plausible maximum counts, beyond it is a new base",
          steps: [.value(wheelSensor(revolutions: 100, eventTime: 0), at: 0),
                  .value(wheelSensor(revolutions: 160, eventTime: second), at: 1),
                  .value(wheelSensor(revolutions: 221, eventTime: 2 * second), at: 2),
                  .value(wheelSensor(revolutions: 226, eventTime: 3 * second), at: 3)],
          expected: [0, 120, 0, 10]),
    .init(rule: "a malformed value throws and leaves the base where it was",
          steps: [.value(wheelSensor(revolutions: 100, eventTime: 0), at: 0),
                  .value([0x01, 0x6E, 0x00, 0x00], at: 1),
                  .value(wheelSensor(revolutions: 110, eventTime: 2 * second), at: 2)],
          expected: [0, nil, 20]),
]

@Suite struct CyclingDistanceTests {
    @Test(arguments: cases)
    func followsTheRule(_ testCase: CyclingDistanceCase) {
        let covered = metersCovered(playing: testCase.steps, into: CyclingDistance(wheelCircumference: 2))
        #expect(nearlyEqual(covered, testCase.expected), "\(covered)")
    }

    @Test func defaultsToA700x23cWheel() {
        let steps: [DistanceStep] = [.value(wheelSensor(revolutions: 0, eventTime: 0), at: 0),
                                     .value(wheelSensor(revolutions: 10, eventTime: 2 * second), at: 2)]
        #expect(CyclingDistance().wheelCircumference == 2.096)
        #expect(nearlyEqual(metersCovered(playing: steps, into: CyclingDistance()), [0, 20.96]))
    }

    @Test func aMalformedValueThrowsTheParseError() {
        var distance = CyclingDistance()
        #expect(throws: CyclingSpeedCadenceError.truncated(.lastWheelEventTime, bytesAvailable: 1)) {
            try distance.metersCovered(by: [0x01, 0x10, 0x27, 0x00, 0x00, 0x00], at: Timestamp(unixSeconds: 0))
        }
    }
}
