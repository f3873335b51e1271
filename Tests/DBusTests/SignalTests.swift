import BusTestSupport
import DBus
import Testing

@Suite(.serialized, .timeLimit(.minutes(2))) struct SignalTests {
    static let ping = BusMatchRule(sender: EchoPeer.name, interface: EchoPeer.name, member: "Ping", pathNamespace: "/hr/test")

    @Test func signalsArriveInOrderAndFilteredByFirstArgument() async throws {
        let peer = try await EchoPeer.start()
        let all = StreamReader(try await peer.connection.signals(matching: Self.ping))
        var onlyB = Self.ping
        onlyB.firstArgument = "b"
        let filtered = StreamReader(try await peer.connection.signals(matching: onlyB))
        var elsewhere = Self.ping
        elsewhere.pathNamespace = "/hr/other"
        let outside = StreamReader(try await peer.connection.signals(matching: elsewhere))
        for text in ["a", "b", "c"] { _ = try await peer.call("Emit", [.string(text)]) }
        var received: [String] = []
        for _ in 0..<3 { received.append(try await all.next()?.body.first?.string ?? "-") }
        #expect(received == ["a", "b", "c"])
        let first = try await filtered.next()
        #expect(first?.body == [.string("b")])
        #expect(first?.path == "/hr/test/child")
        await peer.connection.close()
        #expect(try await outside.next() == nil, "the /hr/other subscription saw a /hr/test signal")
        await peer.stop()
    }

    @Test func ownerChangesAreTrackedAndSenderRulesFollowTheOwner() async throws {
        let peer = try await EchoPeer.start()
        let owner = try await peer.connection.owner(of: EchoPeer.name)
        #expect(owner?.hasPrefix(":") == true)
        let changes = StreamReader(try await peer.connection.signals(matching: .nameOwnerChanged(of: EchoPeer.name)))
        let fromOwner = StreamReader(try await peer.connection.signals(matching: Self.ping))
        var anySender = Self.ping
        anySender.sender = nil
        let fromAnyone = StreamReader(try await peer.connection.signals(matching: anySender))

        _ = try await peer.call("ReleaseName")
        let released = try await changes.next()
        #expect(released?.body == [.string(EchoPeer.name), .string(owner!), .string("")])
        #expect(try await peer.connection.owner(of: EchoPeer.name) == nil)

        // Emitted by the peer's unique name while it does not own hr.test.Peer.
        _ = try await peer.connection.call(BusMethodCall(destination: owner!, path: "/hr/test", interface: EchoPeer.name, method: "Emit", arguments: [.string("unowned")]))
        #expect(try await fromAnyone.next()?.body == [.string("unowned")])

        _ = try await peer.connection.call(BusMethodCall(destination: owner!, path: "/hr/test", interface: EchoPeer.name, method: "TakeName"))
        #expect(try await changes.next()?.body == [.string(EchoPeer.name), .string(""), .string(owner!)])
        _ = try await peer.call("Emit", [.string("owned again")])
        #expect(try await fromOwner.next()?.body == [.string("owned again")], "the signal sent while unowned leaked through")
        await peer.stop()
    }
}
