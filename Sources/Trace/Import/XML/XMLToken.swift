/// What the tokenizer reads: tags with their names as written (`ns3:TPX`, prefixes unresolved) and
/// character data with references replaced. Comments, processing instructions, the XML declaration
/// and the DOCTYPE are not tokens: nothing in a recording depends on them.
struct XMLToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// `<name a="1">`, or `<name a="1"/>` when `isEmpty`.
        case start(name: String, attributes: [XMLAttribute], isEmpty: Bool)
        case end(name: String)
        /// Character data, or a CDATA section's content; one run of text may come as several tokens.
        case text(String)
    }

    var kind: Kind
    /// Where the token starts.
    var line: Int
}

/// An attribute as written: its qualified name and its value with references replaced.
struct XMLAttribute: Sendable, Hashable {
    var name: String
    var value: String
}
