import Platform

/// What a command accepts, written once and used both to parse argv and to print `--help`.
struct CommandSpec: Sendable {
    struct Option: Sendable {
        /// `--speed`
        var name: String
        /// Placeholder for the value (`N`); nil for a boolean flag.
        var valueName: String?
        var help: String
        var repeatable = false
    }

    struct Positional: Sendable {
        var name: String
        var help: String
        var optional = false
        /// The last positional may take any number of values (`TRACE...`).
        var repeatable = false
    }

    var name: String
    var summary: String
    var options: [Option] = []
    var positionals: [Positional] = []
    /// Examples and notes printed after the option list.
    var details: String = ""

    var usageLine: String {
        var parts = ["hrbridge", name]
        if !options.isEmpty { parts.append("[options]") }
        for positional in positionals {
            let name = positional.repeatable ? "\(positional.name)..." : positional.name
            parts.append(positional.optional ? "[\(name)]" : name)
        }
        return parts.joined(separator: " ")
    }

    var helpText: String {
        var text = "\(summary)\n\nUsage: \(usageLine)\n"
        if !positionals.isEmpty {
            text += "\nArguments:\n"
            for positional in positionals {
                text += Self.helpLine(positional.name, positional.help)
            }
        }
        text += "\nOptions:\n"
        for option in options + [CommandSpec.helpOption] {
            let label = option.valueName.map { "\(option.name) \($0)" } ?? option.name
            text += Self.helpLine(label, option.help)
        }
        if !details.isEmpty { text += "\n\(details)\n" }
        return text
    }

    /// `  LABEL   help`, the help in a 22-wide column; a longer label gets its help on the next line.
    private static func helpLine(_ label: String, _ help: String) -> String {
        let column = 22
        guard label.count < column else { return "  \(label)\n  \(String(repeating: " ", count: column))\(help)\n" }
        return "  \(label.padded(to: column))\(help)\n"
    }

    static let helpOption = Option(name: "--help", valueName: nil, help: "show this help and exit")
}
