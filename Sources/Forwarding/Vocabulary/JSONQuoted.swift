extension String {
    /// The text as a JSON string literal (RFC 8259 escaping), the way messages and `config check`
    /// quote a value the user wrote: control characters and quotes visible, everything else as is.
    public var jsonQuoted: String {
        var text = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
