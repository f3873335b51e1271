import Sensors

/// `hrbridge parse`: hex lines in, one JSON object per line out. A debugging aid for bytes
/// copied from btmon or nRF Connect; a bad line answers `{"error":…}` and the rest go on.
enum ParseCommand {
    static let spec = CommandSpec(
        name: "parse",
        summary: "Decode Heart Rate Measurement (0x2A37) values given as hex, one per line on stdin.",
        details: """
        Spaces, colons and 0x prefixes are tolerated; an empty line is a zero-length value.
        Each line prints {"bpm":…,"contact":…,"energyExpended":…,"rr":[…]} (rr in 1/1024 s)
        or {"error":"…"}.

        Example:
          echo "16 48 00 03" | hrbridge parse
        """
    )

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        let input = console.readAllInput()
        var lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() } // the final newline ends a line, not starts one
        for line in lines {
            console.output.write(parseLine(String(decoding: line, as: UTF8.self)))
        }
        console.output.flush()
    }

    static func parseLine(_ text: String) -> [UInt8] {
        var json = JSONLine()
        do {
            let bytes = try Hex.decodeLenient(text)
            json.measurement(try HeartRateMeasurement(parsing: bytes))
        } catch {
            json = JSONLine()
            json.string("error", "\(error)")
        }
        return json.finish()
    }
}
