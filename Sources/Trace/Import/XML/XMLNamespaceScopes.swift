/// Which URI each prefix stands for where the reader is: the bindings declared by every open
/// element (`xmlns:p="…"`, `xmlns="…"`), innermost last, so a declaration on a child hides its
/// parent's until the child ends. Grows with the nesting depth and the declarations in it.
struct XMLNamespaceScopes {
    /// The `xml` prefix is bound by definition (Namespaces in XML 1.0, §3).
    private static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// `""` stands for the default namespace; a binding to `""` undeclares it (`xmlns=""`).
    private var bindings: [(prefix: String, namespace: String)] = [("xml", xmlNamespace)]
    /// How many bindings each open element added.
    private var declaredPerElement: [Int] = []

    /// Enters an element: binds its `xmlns` attributes and returns the others with their names resolved.
    mutating func enter(_ element: String, attributes: [XMLAttribute], line: Int) throws(XMLError) -> [XMLElement.Attribute] {
        var declared = 0
        for attribute in attributes {
            let prefix: String
            if attribute.name == "xmlns" {
                prefix = ""
            } else if attribute.name.hasPrefix("xmlns:") {
                prefix = String(attribute.name.dropFirst("xmlns:".count))
                guard !attribute.value.isEmpty else {
                    throw XMLError(line: line, reason: "prefix '\(prefix)' in <\(element)> is bound to an empty namespace")
                }
            } else {
                continue
            }
            bindings.append((prefix, attribute.value))
            declared += 1
        }
        declaredPerElement.append(declared)
        var resolved: [XMLElement.Attribute] = []
        for attribute in attributes where attribute.name != "xmlns" && !attribute.name.hasPrefix("xmlns:") {
            // An attribute without a prefix is in no namespace, whatever the default (§6.2).
            let name = attribute.name.contains(":") ? try resolve(attribute.name, line: line) : XMLName("", attribute.name)
            resolved.append(XMLElement.Attribute(name: name, value: attribute.value))
        }
        return resolved
    }

    /// Leaves the innermost element, dropping what it declared.
    mutating func leave() {
        bindings.removeLast(declaredPerElement.removeLast())
    }

    /// An element's name (`ns3:TPX`, or `TPX` in the default namespace) as namespace URI and local name.
    func resolve(_ qualifiedName: String, line: Int) throws(XMLError) -> XMLName {
        let parts = qualifiedName.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let (prefix, local) = parts.count == 2 ? (String(parts[0]), String(parts[1])) : ("", qualifiedName)
        guard let namespace = bindings.last(where: { $0.prefix == prefix })?.namespace else {
            guard prefix.isEmpty else { throw XMLError(line: line, reason: "'\(qualifiedName)': namespace prefix '\(prefix)' is not declared") }
            return XMLName("", local)
        }
        return XMLName(namespace, local)
    }
}
