#if canImport(Glibc)
import Glibc
#endif
import CMosquitto
import Dispatch
import FoundationEssentials
import Platform
import Sensors
import SinkVocabulary

/// One client connection to the broker through libmosquitto, its network thread run by the library
/// (`mosquitto_loop_start`), which reconnects with backoff (1 s growing to 30 s) whenever the
/// connection drops. MQTT 5 first; a broker that refuses the version gets MQTT 3.1.1 (no message
/// expiry then). On every connect it publishes its announcements (`online`, retained, and any
/// discovery configurations) and subscribes to the control topic if asked; `offline` is its last will
/// and its goodbye; `onCommand` gets what arrives on those topics. Publishing is thread-safe; `publish` waits for the broker's PUBACK, `handOver`
/// does not: the library keeps many messages in flight, in order, and sends them again after a
/// reconnect, so an update stream is not held to one round trip per message.
final class MQTTConnection: @unchecked Sendable {
    /// What one publish came to.
    enum PublishResult: Equatable {
        case acknowledged
        /// The library took it (`handOver`); the acknowledgement comes later.
        case handedOver
        /// Not connected, or the connection dropped before the acknowledgement: try again later.
        case notConnected(String)
        /// The broker refused it (MQTT 5 reason code ≥ 0x80: not authorized, quota, …).
        case refused(String)
    }

    let settings: MQTTSinkSettings
    let announcements: [MQTTPublication]
    /// A message on one of the command topics (`MQTTTopics.commands`): its topic and payload.
    let onCommand: @Sendable (String, [UInt8]) -> Void
    let log: @Sendable (String) -> Void
    /// Work for later (clearing retained states, a 3.1.1 restart): a serial queue, not libdispatch's
    /// global pool, whose first use starts a timer that wakes the process every second (`TaskQueue`).
    let later = DispatchQueue(label: "hrbridge.mqtt")
    // Everything below is guarded by `condition`; the library's handle is used under it too, so a
    // clear firing late never meets a destroyed handle.
    /// A publisher waits on it for the broker's acknowledgement.
    let condition = ConditionLock()
    var client: OpaquePointer?
    var connected = false
    /// Counts lost connections: an acknowledgement awaited across one never comes.
    var disconnections = 0
    /// The message ids whose acknowledgements a publisher waits for, and the reason code once it came.
    var awaiting: [Int32: Int32?] = [:]
    /// Messages handed over without waiting, not yet acknowledged, and their topics (for a refusal's log).
    var handedOver: [Int32: String] = [:]
    /// Those of them a lost connection left unacknowledged: the library sends them again once it is
    /// back, but only after telling us it is (its CONNACK callback runs before its resend), so
    /// nothing new goes out before they are acknowledged — else the broker would get an update
    /// after a newer one (the retained state going backwards until the next).
    var resending: Set<Int32> = []
    var protocolVersion = MQTTProtocol.version5
    /// Why the last connection attempt failed or the connection dropped, for messages.
    var problem = "not connected yet"
    /// The broker refused these credentials or this client for good: nothing is sent until the user fixes it.
    var refusal: String?
    /// How many retained messages went to each topic, so a scheduled clear can see it was overtaken.
    var retainedCount: [String: Int] = [:]
    var closing = false
    /// The broker refused MQTT 5 and the version is set to 3.1.1: if that refusal also ends the
    /// library's thread, it is started again.
    var fallingBack = false
    /// Held while the network thread is stopped or started (restart, close); never by a callback,
    /// which runs on that thread, so joining it never waits for a lock the joiner holds.
    let threadControl = ConditionLock()

    /// Connects in the background (the first attempt included), so a broker that is down at start
    /// is found when it comes up; nothing here blocks on the network.
    init(settings: MQTTSinkSettings, password: String?, announcements: [MQTTPublication],
         log: @escaping @Sendable (String) -> Void, onCommand: @escaping @Sendable (String, [UInt8]) -> Void) throws(SinkSetupError) {
        self.settings = settings
        self.announcements = announcements
        self.log = log
        self.onCommand = onCommand
        if let reason = hrb_mosquitto_unavailable() {
            throw .unavailable("libmosquitto could not be loaded (\(String(cString: reason))); install libmosquitto1")
        }
        _ = Self.libraryInitialised
        guard let client = hrb_mosquitto_new(settings.clientID, true, Unmanaged.passUnretained(self).toOpaque()) else {
            throw .unavailable("libmosquitto could not make a client for \(settings.broker)")
        }
        self.client = client
        hrb_mosquitto_protocol_version(client, MQTTProtocol.version5)
        hrb_mosquitto_callbacks_set(client, { _, context, code, _, _ in
            MQTTConnection.from(context).connected(code: code)
        }, { _, context, code, _ in
            MQTTConnection.from(context).disconnected(code: code)
        }, { _, context, messageID, reason, _ in
            MQTTConnection.from(context).acknowledged(messageID, reason: reason)
        }, { _, context, message in
            guard let message = message?.pointee, let topic = message.topic else { return }
            let payload = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen))) } ?? []
            MQTTConnection.from(context).received(String(cString: topic), payload)
        })
        hrb_mosquitto_log_callback_set(client) { _, context, level, text in
            guard level == MOSQ_LOG_ERR, let text else { return }
            MQTTConnection.from(context).libraryError(String(cString: text))
        }
        if settings.username != nil || password != nil {
            try Self.check(hrb_mosquitto_username_pw_set(client, settings.username, password), "setting the username and password")
        }
        if settings.broker.tls {
            try Self.check(hrb_mosquitto_tls_set(client, settings.certificateAuthorityFile,
                                                  settings.certificateAuthorityFile == nil ? "/etc/ssl/certs" : nil,
                                                  settings.clientCertificateFile, settings.clientKeyFile), "setting up TLS")
        }
        let offline = Array("offline".utf8)
        try Self.check(hrb_mosquitto_will_set(client, settings.topics.status, Int32(offline.count), offline, 1, true), "setting the last will")
        hrb_mosquitto_reconnect_delay_set(client, 1, 30)
        // A refused first attempt (connection refused, no route) is retried by the network thread.
        let first = hrb_mosquitto_connect_async(client, settings.broker.host, Int32(settings.broker.port), Int32(settings.keepAlive))
        if first != MOSQ_ERR_SUCCESS.rawValue { problem = Self.text(first) }
        try Self.check(hrb_mosquitto_loop_start(client), "starting its network thread")
    }

    /// A connection whose init failed before its network thread started.
    deinit {
        guard let client else { return }
        hrb_mosquitto_destroy(client)
    }

    private static let libraryInitialised: Void = { _ = hrb_mosquitto_lib_init() }()

    static func from(_ context: UnsafeMutableRawPointer?) -> MQTTConnection {
        Unmanaged<MQTTConnection>.fromOpaque(context!).takeUnretainedValue()
    }

    static func check(_ code: Int32, _ what: String) throws(SinkSetupError) {
        guard code != MOSQ_ERR_SUCCESS.rawValue else { return }
        throw .invalid("mqtt: \(what) failed: \(text(code))")
    }

    static func text(_ code: Int32) -> String {
        code == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: hrb_mosquitto_strerror(code))
    }

    /// Waits up to `seconds` for a connection; false (and why) if there is none by then.
    func waitForConnection(within seconds: Double) -> (connected: Bool, problem: String) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = MonotonicClock.seconds() + seconds
        while !connected, refusal == nil, !closing, condition.wait(until: deadline) {}
        return (connected, problem)
    }

    /// Publishes at QoS 1 and waits up to `timeout` seconds for the broker's acknowledgement.
    /// `expirySeconds` > 0 is sent as the MQTT 5 message expiry interval (not on 3.1.1).
    func publish(_ publication: MQTTPublication, payload: [UInt8]? = nil, expirySeconds: UInt32, timeout: Double) -> PublishResult {
        condition.lock()
        defer { condition.unlock() }
        let deadline = MonotonicClock.seconds() + timeout
        if let problem = waitForResends(until: deadline) { return problem }
        let messageID: Int32
        switch send(publication, payload: payload ?? publication.payload, expirySeconds: expirySeconds) {
        case let .success(id): messageID = id
        case let .failure(result): return result.problem
        }
        awaiting[messageID] = .some(nil)
        defer { awaiting[messageID] = nil }
        let connection = disconnections
        while true {
            if case let reason?? = awaiting[messageID] {
                return reason < 0x80 ? .acknowledged : .refused("\(publication.topic): \(String(cString: hrb_mosquitto_reason_string(reason)))")
            }
            guard disconnections == connection else { return .notConnected(problem) }
            guard condition.wait(until: deadline) else { return .notConnected("no acknowledgement within \(Int(timeout)) s") }
        }
    }

    /// Publishes at QoS 1 without waiting for the acknowledgement, once fewer than `window` handed-over
    /// messages await theirs (waiting up to `timeout` seconds for that). A refusal that comes later
    /// is logged; a lost connection does not lose the message: the library sends it again.
    func handOver(_ publication: MQTTPublication, payload: [UInt8], expirySeconds: UInt32, window: Int, timeout: Double) -> PublishResult {
        condition.lock()
        defer { condition.unlock() }
        let connection = disconnections
        let deadline = MonotonicClock.seconds() + timeout
        while handedOver.count >= window {
            guard disconnections == connection, !closing else { return .notConnected(problem) }
            guard condition.wait(until: deadline) else { return .notConnected("no acknowledgement within \(Int(timeout)) s") }
        }
        if let problem = waitForResends(until: deadline) { return problem }
        switch send(publication, payload: payload, expirySeconds: expirySeconds) {
        case let .success(messageID):
            handedOver[messageID] = publication.topic
            return .handedOver
        case let .failure(result):
            return result.problem
        }
    }

    /// Under `condition`: waits until the messages a lost connection left are acknowledged again
    /// (`resending`); why not, if the connection drops again first. Past the deadline it gives up
    /// waiting and lets the publication go.
    func waitForResends(until deadline: Double) -> PublishResult? {
        let connection = disconnections
        while !resending.isEmpty {
            guard connected else { return .notConnected(problem) }
            guard disconnections == connection, !closing else { return .notConnected(problem) }
            guard condition.wait(until: deadline) else {
                // The library should have sent them again by now: order gives way to progress, or
                // every later update would wait for an acknowledgement that is not coming.
                log("sink \(settings.broker): \(resending.count) updates sent before the reconnect not acknowledged again; sending on")
                resending = []
                return nil
            }
        }
        return nil
    }

    /// Why a publication did not reach the library.
    struct NotSent: Error {
        let problem: PublishResult
    }

    /// Hands one QoS 1 message to the library, under `condition`: its message id, or why not.
    func send(_ publication: MQTTPublication, payload: [UInt8], expirySeconds: UInt32) -> Result<Int32, NotSent> {
        guard connected, let client, !closing else { return .failure(NotSent(problem: .notConnected(problem))) }
        var messageID: Int32 = 0
        let code = hrb_mosquitto_publish(client, &messageID, publication.topic, Int32(payload.count), payload, 1, publication.retain,
                                         protocolVersion == MQTTProtocol.version5 ? expirySeconds : 0)
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            if code == MOSQ_ERR_NO_CONN.rawValue { return .failure(NotSent(problem: .notConnected(problem))) }
            return .failure(NotSent(problem: .refused("publishing to \(publication.topic): \(Self.text(code))")))
        }
        if publication.retain { retainedCount[publication.topic, default: 0] += 1 }
        return .success(messageID)
    }

    /// Waits up to `seconds` until every handed-over message is acknowledged; false if some are not.
    func drainHandedOver(within seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = MonotonicClock.seconds() + seconds
        while !handedOver.isEmpty, connected, condition.wait(until: deadline) {}
        return handedOver.isEmpty
    }

    /// An ended activity's state leaves the broker when its dismissal delay is over: an empty
    /// retained message on the state topic then, unless a newer state (the strap's next activity)
    /// went there meanwhile. Only while this process runs: after it, MQTT 5's message expiry does it.
    func clearRetained(_ topic: String, at time: Timestamp) {
        condition.lock()
        let count = retainedCount[topic, default: 0]
        condition.unlock()
        let seconds = max(0, time.seconds(since: WallClock.now()))
        later.asyncAfter(deadline: .now() + seconds) { [self] in
            condition.lock()
            defer { condition.unlock() }
            guard retainedCount[topic, default: 0] == count, connected, let client, !closing else { return }
            retainedCount[topic, default: 0] += 1
            _ = hrb_mosquitto_publish(client, nil, topic, 0, nil, 1, true, 0)
        }
    }

    /// Orderly exit: what was handed over acknowledged, `offline` on the status topic (the will is
    /// for disappearing), then disconnect.
    func close() {
        if !drainHandedOver(within: Self.stopWait) {
            log("sink \(settings.broker): some updates handed to the broker were not acknowledged before the exit")
        }
        condition.lock()
        let wasConnected = connected && refusal == nil
        condition.unlock()
        if wasConnected {
            let offline = MQTTPublication(topic: settings.topics.status, payload: Array("offline".utf8), retain: true)
            if case let .notConnected(reason) = publish(offline, expirySeconds: 0, timeout: 2) {
                log("sink \(settings.broker): offline not acknowledged: \(reason)")
            }
        }
        threadControl.lock()
        defer { threadControl.unlock() }
        condition.lock()
        closing = true
        let client = self.client
        self.client = nil
        condition.broadcast()
        condition.unlock()
        guard let client else { return }
        // The library's thread could, in a narrow race with a reconnect attempt, miss the goodbye
        // and go on: the exit does not wait for it longer than this.
        let stopped = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let handle = client // nobody else holds it any more
        NamedThread.start("mqtt-goodbye") {
            hrb_mosquitto_disconnect(handle)
            hrb_mosquitto_loop_stop(handle, false)
            hrb_mosquitto_destroy(handle)
            stopped.signal()
        }
        if stopped.wait(timeout: .now() + Self.stopWait) == .timedOut {
            log("sink \(settings.broker): its network thread did not stop within \(Int(Self.stopWait)) s; left behind")
        }
    }

    static let stopWait = 5.0
}
