import SinkVocabulary

/// A kind of sink: its description (`SinkDescription`: how `--sink` names it, its settings, which of
/// them it cannot do without) and how it is built. A new kind is a folder under Kinds/ with its
/// `SinkKind`, and a line in `SinkKinds.all`; flags, `--help`, configuration keys, `config check`
/// and the secrets it lists follow from the description.
@dynamicMemberLookup
public struct SinkKind: Sendable {
    public let description: SinkDescription
    /// Builds the sink from its validated values (the kind's shared settings merged in).
    public let make: @Sendable (SinkValues, SinkSetup) throws(SinkSetupError) -> any UpdateSink

    public init(name: String, selector: SinkDescription.Selector, summary: String, options: [SinkOption], atLeastOne: [[String]] = [],
                atMostOne: [[String]] = [], make: @escaping @Sendable (SinkValues, SinkSetup) throws(SinkSetupError) -> any UpdateSink) {
        description = SinkDescription(name: name, selector: selector, summary: summary, options: options,
                                      atLeastOne: atLeastOne, atMostOne: atMostOne)
        self.make = make
    }

    /// `kind.name`, `kind.options`, `kind.spelling`: what the description says.
    public subscript<Value>(dynamicMember keyPath: KeyPath<SinkDescription, Value>) -> Value {
        description[keyPath: keyPath]
    }

    public func option(_ key: String) -> SinkOption? { description.option(key) }
    public func missing(in values: SinkValues) -> [[String]] { description.missing(in: values) }
    public func conflicts(in values: SinkValues) -> [[String]] { description.conflicts(in: values) }
}
