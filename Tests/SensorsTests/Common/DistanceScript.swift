import Sensors

/// One thing that happens to a distance derivation, at a time in seconds from the script's start.
enum DistanceStep: Sendable {
    case value([UInt8], at: Double)
    case linkDropped
}

/// Plays `steps` into `derivation`: the meters each value covered, or nil where it threw.
func metersCovered(playing steps: [DistanceStep], into derivation: some DistanceDerivation) -> [Double?] {
    var derivation = derivation
    let start = Timestamp(unixSeconds: 1_700_000_000)
    var covered: [Double?] = []
    for step in steps {
        switch step {
        case let .value(bytes, seconds):
            covered.append(try? derivation.metersCovered(by: bytes, at: start.adding(seconds: seconds)))
        case .linkDropped:
            derivation.linkDropped()
        }
    }
    return covered
}

/// Equal within rounding: meters are sums and products of binary fractions and circumferences.
func nearlyEqual(_ actual: [Double?], _ expected: [Double?]) -> Bool {
    guard actual.count == expected.count else { return false }
    return zip(actual, expected).allSatisfy { actual, expected in
        switch (actual, expected) {
        case (nil, nil): true
        case let (actual?, expected?): abs(actual - expected) < 1e-9
        default: false
        }
    }
}

/// Little-endian bytes of `value`, as the wire carries them.
func littleEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
    (0..<Integer.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
}
