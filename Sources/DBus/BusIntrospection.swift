/// The Introspect XML for an exported object: its interfaces, the standard ones we answer for
/// it, and its child nodes.
enum BusIntrospection {
    static let doctype = """
    <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
    """

    static let standard: [BusInterfaceDescription] = [
        .init(name: BusInterfaceName.introspectable, methods: [.init("Introspect", outputs: [.init("xml", "s")])]),
        .init(name: BusInterfaceName.peer, methods: [.init("Ping")]),
        .init(name: BusInterfaceName.properties, methods: [
            .init("Get", inputs: [.init("interface", "s"), .init("name", "s")], outputs: [.init("value", "v")]),
            .init("GetAll", inputs: [.init("interface", "s")], outputs: [.init("properties", "a{sv}")]),
            .init("Set", inputs: [.init("interface", "s"), .init("name", "s"), .init("value", "v")]),
        ]),
    ]

    static func xml(interfaces: [BusInterfaceDescription], children: [String]) -> String {
        var text = doctype + "\n<node>\n"
        for interface in (interfaces.isEmpty ? [] : standard) + interfaces {
            text += "  <interface name=\"\(escape(interface.name))\">\n"
            for method in interface.methods {
                text += "    <method name=\"\(escape(method.name))\">\n"
                for argument in method.inputs { text += argument.xml(direction: "in") }
                for argument in method.outputs { text += argument.xml(direction: "out") }
                text += "    </method>\n"
            }
            for property in interface.properties {
                // Read them when needed: no PropertiesChanged is sent (says so, so clients do not wait for one).
                text += "    <property name=\"\(escape(property.name))\" type=\"\(escape(property.signature))\" access=\"read\">\n"
                    + "      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"false\"/>\n    </property>\n"
            }
            text += "  </interface>\n"
        }
        for child in children { text += "  <node name=\"\(escape(child))\"/>\n" }
        return text + "</node>\n"
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

extension BusInterfaceDescription.Argument {
    func xml(direction: String) -> String {
        "      <arg name=\"\(BusIntrospection.escape(name))\" type=\"\(BusIntrospection.escape(signature))\" direction=\"\(direction)\"/>\n"
    }
}
