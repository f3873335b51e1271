import BusTestSupport
import DBus

/// A private bus with the Python echo peer on it, and our connection to that bus.
struct EchoPeer {
    let bus: PrivateBus
    let peer: ChildProcess
    let connection: BusConnection

    static let name = "hr.test.Peer"

    static func start() async throws -> EchoPeer {
        let bus = try PrivateBus()
        let peer = try ChildProcess(Peers.python, [Peers.path("echo_peer.py")], environment: bus.environment).start()
        let connection = try await BusConnection.connect(to: .address(bus.address))
        return EchoPeer(bus: bus, peer: peer, connection: connection)
    }

    func call(_ method: String, _ arguments: [BusValue] = [], timeout: Duration = BusConnection.defaultCallTimeout) async throws(BusError) -> [BusValue] {
        try await connection.call(
            BusMethodCall(destination: Self.name, path: "/hr/test", interface: Self.name, method: method, arguments: arguments),
            timeout: timeout
        )
    }

    func stop() async {
        await connection.close()
        peer.stop()
        bus.stop()
    }
}
