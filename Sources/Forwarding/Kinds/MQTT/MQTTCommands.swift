import LiveState

/// What arrives on the MQTT sink's command topics goes to the session through the relay, where
/// `hrbridge ctl`'s and the HTTP routes' requests go: a control line (`pause`, `label Intervals`) on
/// `…/control`, a token body (`{"token": HEX, "issuedAt": S, "activity": ID}`) on `…/push-token` and
/// `…/push-to-start-token`, parsed and answered by the session. An empty payload (a retained
/// registration being cleared) is not a request.
enum MQTTCommands {
    static func handler(topics: MQTTTopics, sink name: String, control: SinkControlRelay,
                        log: @escaping @Sendable (String) -> Void) -> @Sendable (String, [UInt8]) -> Void {
        { topic, payload in
            let origin = "sink \(name): \(topic)"
            switch topic {
            case topics.control:
                switch ControlAction.parse(String(decoding: payload, as: UTF8.self)) {
                case let .failure(refusal):
                    log("\(origin): \(refusal)")
                case let .success(action):
                    log("\(origin): \(action.spelled)")
                    control.send(action) { refusal in
                        if let refusal { log("\(origin): \(action.spelled) refused: \(refusal)") }
                    }
                }
            case topics.pushToken, topics.pushToStartToken:
                guard !payload.isEmpty else { return }
                let target: PushTokenRequest.Target = topic == topics.pushToken ? .activity(nil) : .pushToStart
                // The session logs what it did with it; only a request it never saw is said here.
                control.send(PushTokenRequest(.register(body: payload), for: target, origin: origin)) { result in
                    if case let .failure(refusal) = result, refusal.message == SinkControlRelay.notRunning { log("\(origin): refused: \(refusal)") }
                }
            default:
                return
            }
        }
    }
}
