import LiveState
import Synchronization
import SinkVocabulary

extension NetworkSink {
    /// `--sink mqtt://…`: each update published to the broker (retained state, update stream), in
    /// order, through the delivery queue: every update while the broker takes them, and only the
    /// newest content per activity while it is unreachable; and the strap's broadcast channel
    /// (`channels`), retained, whenever it changes.
    static func mqtt(settings mqtt: MQTTSinkSettings, password: String?, control: SinkControlRelay, channels: ChannelBook = ChannelBook(),
                     settings: DeliveryWorker.Settings = .init(), spoolDirectory: String?,
                     log: @escaping @Sendable (String) -> Void) throws(SinkSetupError) -> NetworkSink {
        let name = mqtt.broker.description
        let connection = try MQTTConnection(
            settings: mqtt, password: password,
            announcements: [MQTTPublication(topic: mqtt.topics.status, payload: Array("online".utf8), retain: true)]
                + (mqtt.homeAssistantDiscovery ? HomeAssistantDiscovery.configurations(topics: mqtt.topics) : []),
            log: log,
            onCommand: MQTTCommands.handler(topics: mqtt.topics, sink: name, control: control, log: log)
        )
        var settings = settings
        settings.keepsEveryUpdate = true
        let sink = NetworkSink(
            name: name, settings: settings,
            spool: spoolDirectory.map { Spool(directory: $0, sinkName: "mqtt-\(mqtt.broker.host)-\(mqtt.broker.port)-\(mqtt.clientID)", holding: [MQTTPublications.self]) },
            log: log,
            makeDelivery: { update throws(SinkError) in try MQTTMessages.delivery(for: update, topics: mqtt.topics, now: WallClock.now()) },
            makeTransmitter: { MQTTTransmitter(connection: connection) }
        )
        let published = Mutex(channels.snapshot.current)
        let enqueue = sink.enqueue
        if let current = published.withLock({ $0 }) { enqueue(MQTTMessages.channel(current, topics: mqtt.topics)) }
        channels.watch { registry in
            let current = registry.current
            guard published.withLock({ published in defer { published = current }; return published != current }) else { return }
            enqueue(MQTTMessages.channel(current, topics: mqtt.topics))
        }
        return sink
    }
}
