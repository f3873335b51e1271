#if canImport(Glibc)
import Glibc
#endif
import CMosquitto
import Dispatch
import FoundationEssentials
import Platform
import Sensors

/// The library's callbacks, on its network thread: connected, disconnected, an error, an
/// acknowledgement, a message on a command topic (control, push tokens).
extension MQTTConnection {

    func connected(code: Int32) {
        condition.lock()
        if code == 0 {
            connected = true
            problem = "connected"
            condition.broadcast()
            let client = self.client
            let version = protocolVersion
            condition.unlock()
            log("sink \(settings.broker): connected (MQTT \(version == MQTTProtocol.version5 ? "5" : "3.1.1")) as \(settings.clientID)")
            guard let client else { return }
            for announcement in announcements {
                _ = hrb_mosquitto_publish(client, nil, announcement.topic, Int32(announcement.payload.count), announcement.payload,
                                          1, announcement.retain, 0)
            }
            if settings.acceptsControl {
                for topic in settings.topics.commands { _ = hrb_mosquitto_subscribe(client, topic, 1) }
            }
            return
        }
        let text = String(cString: hrb_mosquitto_reason_string(code))
        if MQTTProtocol.versionRefused(code), protocolVersion == MQTTProtocol.version5 {
            protocolVersion = MQTTProtocol.version311
            fallingBack = true
            let client = self.client
            condition.unlock()
            log("sink \(settings.broker): the broker does not speak MQTT 5 (\(text)); using MQTT 3.1.1")
            if let client { hrb_mosquitto_protocol_version(client, MQTTProtocol.version311) }
            return
        }
        problem = "the broker refused the connection: \(text)"
        if MQTTProtocol.refusedForGood(code) {
            refusal = problem + ": check --mqtt-username and the password, and the broker's ACL for client id \(settings.clientID)"
        }
        condition.broadcast()
        condition.unlock()
    }

    /// Starts the network thread again after an answer that ended it (see `disconnected`).
    func restart() {
        threadControl.lock()
        defer { threadControl.unlock() }
        condition.lock()
        let client = closing ? nil : self.client
        condition.unlock()
        guard let client else { return }
        hrb_mosquitto_loop_stop(client, false) // joins the thread, which is ending by itself
        _ = hrb_mosquitto_reconnect_async(client)
        _ = hrb_mosquitto_loop_start(client)
    }

    func disconnected(code: Int32) {
        condition.lock()
        defer { condition.unlock() }
        if connected && !closing { // closing: our own goodbye, not a loss
            log("sink \(settings.broker): connection lost (\(code == 0 ? "disconnected" : Self.text(code))); reconnecting")
        }
        connected = false
        disconnections += 1
        resending = Set(handedOver.keys)
        if fallingBack {
            fallingBack = false
            // A 3.1.1 broker's refusal is not a valid MQTT 5 packet: the library calls it a protocol
            // error and ends its thread after this callback. Any other end, it reconnects by itself.
            if code == MOSQ_ERR_PROTOCOL.rawValue { later.async { [self] in restart() } }
        }
        if code != 0 { problem = "connection lost: \(Self.text(code))" }
        condition.broadcast()
    }

    /// The library logs what its return codes do not say, such as why a TLS handshake failed; a
    /// failed handshake also ends its network thread (it does not retry one), so nothing is sent
    /// until the CA, the certificates or the broker are fixed.
    func libraryError(_ text: String) {
        condition.lock()
        defer { condition.unlock() }
        problem = text
        if text.contains("OpenSSL Error") || text.contains("TLS") {
            refusal = "TLS with \(settings.broker) failed (\(text)): check --mqtt-ca-file, the client certificate and the broker's certificate"
        }
        condition.broadcast()
    }

    func acknowledged(_ messageID: Int32, reason: Int32) {
        condition.lock()
        if awaiting[messageID] != nil { awaiting[messageID] = .some(reason) }
        resending.remove(messageID)
        if let topic = handedOver.removeValue(forKey: messageID), reason >= 0x80 {
            log("sink \(settings.broker): the broker refused \(topic): \(String(cString: hrb_mosquitto_reason_string(reason)))")
        }
        condition.broadcast()
        condition.unlock()
    }

    func received(_ topic: String, _ payload: [UInt8]) {
        guard settings.topics.commands.contains(topic) else { return }
        onCommand(topic, payload)
    }
}

/// Protocol versions and the CONNACK answers that matter here (3.1.1 return codes, MQTT 5 reasons).
enum MQTTProtocol {
    static let version311: Int32 = 4
    static let version5: Int32 = 5

    /// 3.1.1's "unacceptable protocol version" (1) or MQTT 5's "unsupported protocol version" (0x84).
    static func versionRefused(_ code: Int32) -> Bool { code == 1 || code == 0x84 }

    /// Identifier rejected, bad username or password, not authorized, banned: retrying cannot help.
    static func refusedForGood(_ code: Int32) -> Bool { [2, 4, 5, 0x85, 0x86, 0x87, 0x8A, 0x8C].contains(code) }
}
