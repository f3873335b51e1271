import Sensors

/// `hrbridge parse`: hex lines in, one JSON object per line out. A debugging aid for bytes
/// copied from btmon or nRF Connect; a bad line answers `{"error":…}` and the rest go on.
/// Which characteristic the values belong to picks the sensor kind that reads them.
enum ParseCommand {
    static let spec = CommandSpec(
        name: "parse",
        summary: "Decode sensor measurement values given as hex, one per line on stdin.",
        options: [
            .init(name: "--characteristic", valueName: "UUID",
                  help: "the values' characteristic: \(SensorKind.all.map(\.measurementCharacteristic.shortForm).joined(separator: ", ")) (default \(defaultKind.measurementCharacteristic))"),
        ],
        details: """
        Spaces, colons and 0x prefixes are tolerated; an empty line is a zero-length value.
        Each line prints one JSON object, or {"error":"…"}:
        \(kindsHelp)

        Examples:
          echo "16 48 00 03" | hrbridge parse
          echo "07 80 03 b4 7d 00 39 30 00 00" | hrbridge parse --characteristic 2a53
          echo "04 00 e8 03 39 30 00" | hrbridge parse --characteristic 2acd
        """
    )

    /// Each registered kind's characteristic and the JSON it prints, as its folder declares them.
    private static var kindsHelp: String {
        SensorKind.all.map { kind in
            let lines = kind.parseHelp.split(separator: "\n")
            return (["  \(kind.measurementCharacteristic)  \(lines[0])"] + lines.dropFirst().map { "        \($0)" })
                .joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// What the values are when --characteristic is not given: the strap's, the one every sensor setup has.
    private static let defaultKind = SensorKind.heartRate

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        let kind = try sensorKind(arguments.value("--characteristic"))
        let input = console.readAllInput()
        var lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() } // the final newline ends a line, not starts one
        for line in lines {
            console.output.write(parseLine(String(decoding: line, as: UTF8.self), as: kind))
        }
        console.output.flush()
    }

    /// The kind whose measurement characteristic `text` names, in any form BluetoothUUID reads.
    private static func sensorKind(_ text: String?) throws(CLIError) -> SensorKind {
        guard let text else { return defaultKind }
        guard let characteristic = BluetoothUUID(text), let kind = SensorKind.measured(on: characteristic) else {
            let known = SensorKind.all.map { "\($0.measurementCharacteristic) (\($0.name))" }
            throw .usage("unknown characteristic '\(text)'; known: \(known.joined(separator: ", "))", spec)
        }
        return kind
    }

    private static func parseLine(_ text: String, as kind: SensorKind) -> [UInt8] {
        var json = JSONLine()
        do {
            try kind.describe(try Hex.decodeLenient(text), into: &json)
        } catch {
            json = JSONLine()
            json.string("error", "\(error)")
        }
        return json.finish()
    }
}
