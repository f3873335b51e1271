import BlueZ

/// The straps `run` and `record` are given with `--device` (repeatable).
enum DeviceOptions {
    /// Each `--device` once, in order; none given: the first heart-rate strap found.
    static func selectors(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> [BlueZ.StrapSelector] {
        let given = arguments.allValues("--device").map(BlueZ.StrapSelector.init)
        guard Set(given).count == given.count else { throw .usage("the same --device given twice", spec) }
        return given.isEmpty ? [.anyHeartRateStrap] : given
    }
}
