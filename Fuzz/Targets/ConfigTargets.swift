import Config
import Forwarding

extension FuzzTarget {
    /// The strict JSON reader: what it accepts, written by `JSONWriter`, parses to the same value.
    /// That it accepts exactly RFC 8259 is checked against Python's `json` over the corpus
    /// (Tests/FuzzTests/JSONAgreementTests.swift), a fuzz run having no second parser at hand.
    static let json = FuzzTarget(name: "json", summary: "the strict JSON reader, written back") { bytes throws(ContractViolation) in
        guard let value = try? JSONParser.parse(bytes) else { return }
        let text = JSONWriter.pretty(value)
        let again: JSONValue
        do {
            again = try JSONParser.parse(Array(text.utf8))
        } catch {
            throw ContractViolation("json: the reader refuses what the writer wrote (\(text)): \(error)")
        }
        try expectSame(value, again, "json written back")
    }

    /// The configuration reader: a file it accepts, printed as `config check` prints it, reads back
    /// to the same configuration (as `effectiveJSON` promises).
    static let config = FuzzTarget(name: "config", summary: "the configuration reader, printed and read back") { bytes throws(ContractViolation) in
        guard let configuration = try? ConfigurationReader.read(bytes, file: "fuzz.json", kinds: SinkKinds.catalog) else { return }
        let text = ConfigurationReader.effectiveJSON(configuration, kinds: SinkKinds.catalog)
        let again: BridgeConfiguration
        do {
            again = try ConfigurationReader.read(Array(text.utf8), file: "effective.json", kinds: SinkKinds.catalog)
        } catch {
            throw ContractViolation("config: the reader refuses its own effective configuration (\(text)): \(error)")
        }
        try expectSame(configuration, again, "config printed and read back")
    }
}
