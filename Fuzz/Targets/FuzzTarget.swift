/// One parser that reads bytes from outside, and what must hold for any input: it never traps
/// (a trap is what libFuzzer and ASan catch), and `check` throws `ContractViolation` when the parser
/// answers but breaks its contract (a round trip through the writer that does not give the same
/// value back). The libFuzzer entry point (Fuzz/Entry) and the corpus replay test (Tests/FuzzTests)
/// call the same `check`.
public struct FuzzTarget: Sendable {
    /// The target's name on the command line and its corpus folder: `Fuzz/Corpus/<name>`.
    public let name: String
    /// What it feeds the input to, for `scripts/fuzz --list` and Fuzz/README.md.
    public let summary: String
    public let check: @Sendable ([UInt8]) throws(ContractViolation) -> Void

    public static let all: [FuzzTarget] = [
        .heartRate, .runningSpeedCadence, .cyclingSpeedCadence, .treadmill, .indoorBike, .hex,
        .traceHeader, .trace, .csv, .fit, .tcx, .gpx, .btsnoop,
        .json, .config, .serverResponse, .spool, .pushTokens, .httpRequest,
    ]

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// A parser that answered but broke its contract; the message says which and with what values.
public struct ContractViolation: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Throws unless `first == second`, naming what was compared.
func expectSame<Value: Equatable>(_ first: Value, _ second: Value, _ what: String) throws(ContractViolation) {
    guard first == second else { throw ContractViolation("\(what): \(first) became \(second)") }
}
