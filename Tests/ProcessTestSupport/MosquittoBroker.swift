import Foundation
import TestSupport

/// A real mosquitto on 127.0.0.1 with a generated configuration: users from a password file made by
/// mosquitto_passwd, an ACL file, a plain listener and a TLS listener with a test CA. `kill()` and
/// `start()` again keep both ports, so a restart is the same broker to its clients.
public final class MosquittoBroker: @unchecked Sendable {
    /// Users and what the ACL lets them do: the gateway publishes everything under hrbridge/ and reads
    /// its control topics; the coach may only send commands; the app's backend may only register
    /// push tokens; the dashboard may only read.
    public static let users = ["gateway": "gateway-secret", "coach": "coach-secret", "backend": "backend-secret", "dashboard": "dashboard-secret"]
    public static let acl = """
        user gateway
        topic readwrite hrbridge/#
        topic write homeassistant/sensor/hrbridge-gym/#

        user coach
        topic write hrbridge/+/+/control

        user backend
        topic write hrbridge/+/+/push-token
        topic write hrbridge/+/+/push-to-start-token

        user dashboard
        topic read hrbridge/#
        topic read homeassistant/#
        """

    public let directory: TemporaryDirectory
    public let certificates: TestCertificates
    public let port: Int
    public let tlsPort: Int
    private var process: Process?

    public init() throws {
        directory = try TemporaryDirectory()
        certificates = try TestCertificates.make()
        port = try Self.freePort()
        // The system may hand the same free port out twice in a row: two listeners on one port
        // leave mosquitto unable to start (seen as "Connection refused" in a full test run).
        var tls = try Self.freePort()
        while tls == port { tls = try Self.freePort() }
        tlsPort = tls
        let passwords = directory.path("passwords")
        for (index, (user, password)) in Self.users.sorted(by: { $0.key < $1.key }).enumerated() {
            try runTool("/usr/bin/mosquitto_passwd", (index == 0 ? ["-c"] : []) + ["-b", passwords, user, password])
        }
        let acl = try directory.write("acl", Self.acl + "\n")
        _ = try directory.write("mosquitto.conf", """
            # Started as root (a CI container), mosquitto would drop to its own user, who cannot read this directory.
            user \(NSUserName())
            per_listener_settings false
            allow_anonymous false
            password_file \(passwords)
            acl_file \(acl)
            persistence false
            log_dest stderr
            log_type error
            log_type warning
            # notice: a connection that ends without DISCONNECT; debug: "Received DISCONNECT", each PUBLISH.
            log_type notice
            log_type debug
            listener \(port) 127.0.0.1
            listener \(tlsPort) 127.0.0.1
            cafile \(certificates.caFile)
            certfile \(certificates.serverCertificate)
            keyfile \(certificates.serverKey)

            """)
        try start()
    }

    public var url: String { "mqtt://127.0.0.1:\(port)" }
    public var tlsURL: String { "mqtts://127.0.0.1:\(tlsPort)" }

    /// Starts mosquitto and waits (up to 5 s) until both listeners take connections.
    public func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        process.arguments = ["-c", directory.path("mosquitto.conf")]
        process.standardOutput = FileHandle.nullDevice
        let log = directory.path("mosquitto.log")
        FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        self.process = process
        let deadline = Date(timeIntervalSinceNow: 5)
        while !(Self.accepts(port) && Self.accepts(tlsPort)) {
            guard Date() < deadline, process.isRunning else {
                throw ToolError(command: "mosquitto", message: "did not start listening: " + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
            }
            usleep(20_000)
        }
    }

    /// What mosquitto logged since it was last started.
    public var log: String { (try? String(contentsOfFile: directory.path("mosquitto.log"), encoding: .utf8)) ?? "" }

    /// Waits (every 20 ms) until `condition` holds for the broker's log; false after `timeout` seconds.
    public func waitForLog(timeout: Double, until condition: (String) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition(log) {
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    /// mosquitto_pub as `user` (QoS 1; denied publications are dropped by the broker without a word);
    /// `retain`: kept for whoever subscribes later.
    public func publish(_ topic: String, _ message: String, user: String, retain: Bool = false) throws {
        try runTool("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(port), "-u", user, "-P", Self.users[user]!,
                                               "-q", "1", "-t", topic, "-m", message] + (retain ? ["-r"] : []))
    }

    /// SIGKILL: the broker vanishes without a goodbye, as a crashed or powered-off broker does.
    public func kill() {
        guard let process, process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { kill() }

    /// A port nobody listens on now (the system's pick for a socket bound to port 0).
    public static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw ToolError(command: "bind", message: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    public static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

/// One message as mosquitto_sub printed it (MQTT 5, retain as published, QoS 1 subscription: the
/// QoS shown is what the publisher used, up to 1).
public struct ReceivedMessage: Equatable {
    public var retained: Bool
    public var qos: Int
    /// The MQTT 5 message expiry interval left, in seconds; nil when the message has none.
    public var expiry: Int?
    public var topic: String
    public var payload: String

    public init(retained: Bool, qos: Int, expiry: Int? = nil, topic: String, payload: String) {
        self.retained = retained
        self.qos = qos
        self.expiry = expiry
        self.topic = topic
        self.payload = payload
    }
}

/// mosquitto_sub as an independent dashboard: every message on `topics`, one line each. Stopped
/// (SIGKILL) when dropped: it would otherwise reconnect to a dead port forever.
public final class MQTTSubscriber: @unchecked Sendable {
    /// What mosquitto_sub printed; the reader thread holds this, not the subscriber, so dropping
    /// the subscriber still reaches `deinit`.
    private final class Transcript: @unchecked Sendable {
        let lock = NSLock()
        var text = ""
    }

    private let process: Process
    private let transcript = Transcript()
    private let done = DispatchSemaphore(value: 0)

    public init(_ broker: MosquittoBroker, user: String = "dashboard", topics: [String] = ["#"]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        process.arguments = ["-V", "5", "-h", "127.0.0.1", "-p", String(broker.port), "-u", user, "-P", MosquittoBroker.users[user]!,
                             "-q", "1", "--retain-as-published", "-F", "%r|%q|%E|%t|%p"]
            + (topics + [Self.probeTopics]).flatMap { ["-t", $0] }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        let (transcript, done) = (transcript, done)
        Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                transcript.lock.withLock { transcript.text += String(decoding: chunk, as: UTF8.self) }
            }
            done.signal()
        }.start()
        do {
            try waitUntilSubscribed(broker)
        } catch {
            stop()
            throw error
        }
    }

    public static let probeTopics = "hrbridge/probe/#"

    /// mosquitto_sub says nothing when its subscription stands: a probe is published (as the gateway)
    /// until it comes back, so nothing published after `init` is missed.
    private func waitUntilSubscribed(_ broker: MosquittoBroker) throws {
        let probe = "hrbridge/probe/\(UUID().uuidString)"
        let deadline = Date(timeIntervalSinceNow: 5)
        while !received(probe) {
            guard Date() < deadline, process.isRunning else { throw ToolError(command: "mosquitto_sub", message: "never subscribed") }
            try broker.publish(probe, "probe", user: "gateway")
            usleep(50_000)
        }
    }

    /// What arrived, in order, but the subscription probes.
    public var messages: [ReceivedMessage] {
        transcript.lock.withLock { transcript.text }.split(separator: "\n").compactMap { line -> ReceivedMessage? in
            let fields = line.split(separator: "|", maxSplits: 4, omittingEmptySubsequences: false)
            guard fields.count == 5 else { return nil }
            return ReceivedMessage(retained: fields[0] == "1", qos: Int(fields[1]) ?? -1, expiry: Int(fields[2]),
                                   topic: String(fields[3]), payload: String(fields[4]))
        }.filter { !$0.topic.hasPrefix("hrbridge/probe/") }
    }

    /// Whether the probe came back.
    private func received(_ probe: String) -> Bool {
        transcript.lock.withLock { transcript.text }.contains("|\(probe)|")
    }

    public func messages(on topic: String) -> [ReceivedMessage] { messages.filter { $0.topic == topic } }

    /// Waits (every 20 ms) until `condition` holds for what arrived; false after `timeout` seconds.
    public func wait(timeout: Double, until condition: ([ReceivedMessage]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition(messages) {
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        done.wait()
    }

    deinit { stop() }
}
