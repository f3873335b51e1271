import Platform

/// The members of a JSON object, checked against the keys a section allows: an unknown key is an
/// error (a typo such as "staleWindw" would otherwise be ignored silently and the default used).
struct ObjectFields {
    let node: ConfigNode
    private let members: [JSONValue.Member]

    /// Nil (reported) when the node is not an object or has keys outside `allowed`; unknown keys are
    /// reported but the known ones are still read, to find every issue in one pass.
    init?(_ node: ConfigNode, allowed: [String]) {
        guard case let .object(members) = node.value else {
            node.report("expected an object, got \(node.value.kindDescription)")
            return nil
        }
        self.node = node
        self.members = members
        for member in members where !allowed.contains(member.key) {
            let hint = KeySuggestion.closest(to: member.key, in: allowed).map { "did you mean \($0.jsonQuoted)? " } ?? ""
            node.log.report(node.path.appending(member.key), "unknown key (\(hint)expected one of: \(allowed.joined(separator: ", ")))")
        }
    }

    func has(_ key: String) -> Bool { members.contains { $0.key == key } }

    /// The member, or nil when absent (optional keys).
    func optional(_ key: String) -> ConfigNode? {
        guard let member = members.first(where: { $0.key == key }) else { return nil }
        return ConfigNode(value: member.value, path: node.path.appending(key), log: node.log)
    }

    /// The member, or nil after reporting that it is missing and what it should hold.
    func required(_ key: String, _ what: String) -> ConfigNode? {
        guard let member = optional(key) else {
            node.report("missing key \(key.jsonQuoted) (\(what))")
            return nil
        }
        return member
    }
}
