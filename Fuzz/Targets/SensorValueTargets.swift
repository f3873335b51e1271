import Sensors

extension FuzzTarget {
    /// 0x2A37: a parsed measurement re-encoded (8- and 16-bit rate) parses to the same measurement.
    static let heartRate = FuzzTarget(name: "heart-rate", summary: "0x2A37 Heart Rate Measurement, re-encoded") { bytes throws(ContractViolation) in
        guard let measurement = try? HeartRateMeasurement(parsing: bytes) else { return }
        try describes(bytes, as: .heartRate)
        for format in HeartRateMeasurement.RateFormat.allCases {
            let again = try? HeartRateMeasurement(parsing: measurement.encoded(rateFormat: format))
            try expectSame(measurement, again, "0x2A37 re-encoded (\(format))")
        }
    }

    /// 0x2A53: a parsed measurement re-encoded parses to the same measurement.
    static let runningSpeedCadence = FuzzTarget(name: "rsc", summary: "0x2A53 RSC Measurement, re-encoded") { bytes throws(ContractViolation) in
        guard let measurement = try? RunningSpeedCadenceMeasurement(parsing: bytes) else { return }
        try describes(bytes, as: .runningSpeedCadence)
        try expectSame(measurement, try? RunningSpeedCadenceMeasurement(parsing: measurement.encoded()), "0x2A53 re-encoded")
    }

    /// 0x2A5B has no encoder (the bridge never sends one): the parse, its description and the
    /// distance a wheel's counters give must hold for any value.
    static let cyclingSpeedCadence = FuzzTarget(name: "csc", summary: "0x2A5B CSC Measurement and the wheel distance") { bytes throws(ContractViolation) in
        guard (try? CyclingSpeedCadenceMeasurement(parsing: bytes)) != nil else { return }
        try describes(bytes, as: .cyclingSpeedCadence)
        var distance = CyclingDistance()
        let start = Timestamp(unixSeconds: 1_704_088_800)
        let first = try? distance.metersCovered(by: bytes, at: start)
        let second = try? distance.metersCovered(by: bytes, at: start.adding(seconds: 1))
        for meters in [first, second].compactMap({ $0 }) where !(meters.isFinite && meters >= 0) {
            throw ContractViolation("0x2A5B: \(meters) m covered")
        }
    }

    /// 0x2ACD and 0x2AD2 have no encoder: a value parses exactly when it holds the flags and every
    /// field they announce (sizes summed from the kind's table, bit 0 inverted), describing succeeds, and
    /// the machine's distance is finite and ≥ 0.
    static let treadmill = FuzzTarget(name: "treadmill", summary: "0x2ACD Treadmill Data and the machine distance") { bytes throws(ContractViolation) in
        try fitnessMachineContract(bytes, as: .treadmill, TreadmillData.self)
    }

    static let indoorBike = FuzzTarget(name: "indoor-bike", summary: "0x2AD2 Indoor Bike Data and the machine distance") { bytes throws(ContractViolation) in
        try fitnessMachineContract(bytes, as: .indoorBike, IndoorBikeData.self)
    }

    private static func fitnessMachineContract<Data: FitnessMachineData>(
        _ bytes: [UInt8], as kind: SensorKind, _: Data.Type
    ) throws(ContractViolation) {
        var promised: Int?
        if bytes.count >= 2 {
            let flags = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
            promised = 2 + Data.Field.allCases.filter { field in
                let set = flags & (1 << field.flagBit) != 0
                return field.flagBit == 0 ? !set : set
            }.reduce(0) { $0 + $1.size }
        }
        let parsed = (try? Data(parsing: bytes)) != nil
        guard parsed == (promised.map { bytes.count >= $0 } ?? false) else {
            throw ContractViolation("\(kind.name): \(bytes.count) bytes, flags promise \(promised.map(String.init) ?? "none"), parsed: \(parsed)")
        }
        guard parsed else { return }
        try describes(bytes, as: kind)
        var distance = kind.distanceDerivation(DistanceSettings())!
        let start = Timestamp(unixSeconds: 1_704_088_800)
        let first = try? distance.metersCovered(by: bytes, at: start)
        let second = try? distance.metersCovered(by: bytes, at: start.adding(seconds: 1))
        for meters in [first, second].compactMap({ $0 }) where !(meters.isFinite && meters >= 0) {
            throw ContractViolation("\(kind.name): \(meters) m covered")
        }
    }

    /// The registry's view of a value its kind parsed: describing it must succeed too.
    private static func describes(_ bytes: [UInt8], as kind: SensorKind) throws(ContractViolation) {
        var fields = FieldCount()
        do {
            try kind.describe(bytes, into: &fields)
        } catch {
            throw ContractViolation("\(kind.name): parsed, but describing it failed: \(error)")
        }
    }
}

/// A `MeasurementFieldWriter` that only counts, so describing exercises every field's code.
private struct FieldCount: MeasurementFieldWriter {
    var fields = 0
    mutating func integer<Integer: BinaryInteger>(_ name: StaticString, _ value: Integer) { fields += 1 }
    mutating func optionalInteger<Integer: BinaryInteger>(_ name: StaticString, _ value: Integer?) { fields += 1 }
    mutating func integers<Integer: BinaryInteger>(_ name: StaticString, _ values: [Integer]) { fields += values.count }
    mutating func double(_ name: StaticString, _ value: Double) { fields += 1 }
    mutating func optionalDouble(_ name: StaticString, _ value: Double?) { fields += 1 }
    mutating func bool(_ name: StaticString, _ value: Bool) { fields += 1 }
    mutating func string(_ name: StaticString, _ value: String) { fields += 1 }
}

extension FuzzTarget {
    /// Hex as people paste it (`hrbridge parse`) and as traces hold it: what the lenient decoder
    /// reads re-encodes to the strict form, which decodes to the same bytes; whatever the strict
    /// decoder takes, the lenient one takes alike.
    static let hex = FuzzTarget(name: "hex", summary: "lenient and strict hex decoding, re-encoded") { bytes throws(ContractViolation) in
        let text = String(decoding: bytes, as: UTF8.self)
        if let decoded = try? Hex.decodeLenient(text) {
            var strict: [UInt8] = []
            let encoded = Hex.encode(decoded)
            guard Hex.decodeStrict(encoded.utf8, into: &strict) else { throw ContractViolation("hex: strict decoding refused \(encoded)") }
            try expectSame(decoded, strict, "hex re-encoded")
        }
        var strict: [UInt8] = []
        if Hex.decodeStrict(bytes, into: &strict) {
            try expectSame(strict, try? Hex.decodeLenient(text), "hex strict vs lenient")
        }
    }
}
