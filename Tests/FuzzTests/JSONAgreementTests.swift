import Config
import Foundation
import Testing

/// The strict JSON reader accepts exactly RFC 8259: on every JSON input the fuzzers kept (the json
/// and config corpora and regressions), it agrees with a second reader, Python's json held to the
/// RFC (Fuzz/strict_json.py says where Python strays and how it is held), on whether the text is
/// JSON and on the value.
@Suite struct JSONAgreementTests {
    @Test func agreesWithPythonsStrictReaderOnTheCorpus() throws {
        let files = ["json", "config"].flatMap { FuzzInputs.files("Corpus", of: $0) + FuzzInputs.files("Regressions", of: $0) }
        try #require(files.count > 10)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", FuzzInputs.fuzzDirectory.appendingPathComponent("strict_json.py").path] + files.map(\.path)
        let output = Pipe()
        python.standardOutput = output
        try python.run()
        let answers = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
        python.waitUntilExit()
        try #require(python.terminationStatus == 0 && answers.count == files.count, "strict_json.py failed")
        var accepted = 0
        for (file, python) in zip(files, answers) {
            let ours = (try? JSONParser.parse(try FuzzInputs.bytes(file))).map { "accept " + Self.canonical($0) } ?? "reject"
            #expect(ours == python, "\(file.lastPathComponent): hrbridge \(ours.prefix(200)), Python \(python.prefix(200))")
            if ours.hasPrefix("accept") { accepted += 1 }
        }
        // Both answers must occur, or agreement says little.
        #expect(accepted > 0 && accepted < files.count)
    }

    /// The form strict_json.py prints: n, t, f, #number, s<hex of UTF-8>, [a,b], {key:value}.
    static func canonical(_ value: JSONValue) -> String {
        switch value {
        case .null: "n"
        case let .bool(flag): flag ? "t" : "f"
        case let .number(text): "#" + text
        case let .string(text): "s" + text.utf8.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        case let .array(items): "[" + items.map(canonical).joined(separator: ",") + "]"
        case let .object(members): "{" + members.map { canonical(.string($0.key)) + ":" + canonical($0.value) }.joined(separator: ",") + "}"
        }
    }
}
