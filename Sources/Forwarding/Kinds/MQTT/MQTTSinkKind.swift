#if canImport(Glibc)
import Glibc
#endif
import SinkVocabulary

extension SinkKind {
    /// `--sink mqtt://HOST[:PORT]` or `mqtts://…`, `{"type": "mqtt", "url": …}`: every update published
    /// to an MQTT broker under `hrbridge/<gateway>/<strap>/…` (docs/fleet.md).
    public static let mqtt = SinkKind(
        name: "mqtt", selector: .url(schemes: ["mqtt", "mqtts"], option: "url"),
        summary: "state (retained) and updates published to an MQTT broker",
        options: [
            SinkOption(key: "url", flag: nil, .text(.mqttBroker), required: true, help: "the broker: mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"),
            SinkOption(key: "clientID", flag: "--mqtt-client-id", .text(.mqttClientID),
                       help: "the client id (default: hrbridge-<gateway>-<strap>)"),
            SinkOption(key: "username", flag: "--mqtt-username", .text(.nonEmpty), help: "the user name to log in with"),
            SinkOption(key: "password", flag: "--mqtt-password", .secret(environment: true), help: "the password for the user name"),
            SinkOption(key: "ca", flag: "--mqtt-ca", .secret(environment: false),
                       help: "the CA certificate(s) that verify an mqtts broker (default: the system's)"),
            SinkOption(key: "clientCertificate", flag: "--mqtt-client-certificate", .secret(environment: false),
                       help: "a client certificate (PEM) for brokers that authenticate by certificate"),
            SinkOption(key: "clientKey", flag: "--mqtt-client-key", .secret(environment: false), help: "the client certificate's key (PEM)"),
            SinkOption(key: "keepAlive", flag: "--mqtt-keep-alive", .number(5...3600, unit: "seconds"),
                       help: "seconds between pings when idle; the last will goes out after 1.5 × this of silence (default 60)"),
            SinkOption(key: "gateway", flag: "--mqtt-gateway", .text(.nonEmpty), help: "this gateway's name in topics (default: the host name)"),
            SinkOption(key: "prefix", flag: "--mqtt-prefix", .text(.mqttTopicPrefix), help: "the topic prefix (default: hrbridge/<gateway>)"),
            SinkOption(key: "control", flag: "--mqtt-control", .toggle,
                       help: "apply pause, resume, label TEXT and end from <prefix>/<strap>/control, and the app's push tokens from "
                           + "…/push-token and …/push-to-start-token (the broker's ACL decides who may)"),
            SinkOption(key: "discovery", flag: "--mqtt-discovery", .toggle,
                       help: "publish Home Assistant discovery: each strap a device with heart-rate and distance sensors"),
        ],
        make: { values, setup throws(SinkSetupError) in
            guard let broker = MQTTBroker(url: values.text("url")!) else { throw .invalid("mqtt: \(values.text("url")!) is not a broker URL") }
            let password = try values.secret("password").map { source throws(SinkSetupError) in try setup.readLine(source, what: "MQTT password").line }
            let file = { (key: String) throws(SinkSetupError) -> String? in
                guard case let .file(reference)? = values.secret(key) else { return nil }
                return try setup.path(of: reference)
            }
            let gateway = values.text("gateway") ?? hostName()
            let topics = MQTTTopics(prefix: values.text("prefix"), gateway: gateway, source: setup.source)
            let settings = MQTTSinkSettings(
                broker: broker, clientID: values.text("clientID") ?? MQTTSinkSettings.defaultClientID(gateway: gateway, topics: topics),
                username: values.text("username"), keepAlive: Int(values.number("keepAlive") ?? 60),
                certificateAuthorityFile: try file("ca"), clientCertificateFile: try file("clientCertificate"), clientKeyFile: try file("clientKey"),
                topics: topics, acceptsControl: values.toggle("control"), homeAssistantDiscovery: values.toggle("discovery"))
            guard (settings.clientCertificateFile == nil) == (settings.clientKeyFile == nil) else {
                throw .invalid("mqtt: a client certificate needs its key, and a key its certificate")
            }
            return try NetworkSink.mqtt(settings: settings, password: password, control: setup.control, channels: setup.channels,
                                        spoolDirectory: setup.spoolDirectory, log: setup.log)
        }
    )

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "gateway" }
        let name = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: name, as: UTF8.self)
    }
}
