/// Where a value sits in the configuration, as a person would type it: `straps[1].sinks[0].url`.
public struct ConfigPath: Sendable, Hashable, CustomStringConvertible {
    private enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    private var components: [Component] = []

    public static let root = ConfigPath()

    func appending(_ key: String) -> ConfigPath {
        var path = self
        path.components.append(.key(key))
        return path
    }

    func appending(_ index: Int) -> ConfigPath {
        var path = self
        path.components.append(.index(index))
        return path
    }

    public var description: String {
        guard !components.isEmpty else { return "(top level)" }
        var text = ""
        for component in components {
            switch component {
            case let .key(key): text += text.isEmpty ? key : ".\(key)"
            case let .index(index): text += "[\(index)]"
            }
        }
        return text
    }
}
