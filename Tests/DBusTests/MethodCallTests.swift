import BusTestSupport
import DBus
import Testing

@Suite(.serialized, .timeLimit(.minutes(2))) struct MethodCallTests {
    @Test func errorReplyCarriesItsNameAndText() async throws {
        let peer = try await EchoPeer.start()
        await #expect(throws: BusError.remote(name: "hr.test.Error.Deliberate", message: "asked to fail")) {
            try await peer.call("Fail")
        }
        await peer.stop()
    }

    @Test func unansweredCallTimesOut() async throws {
        let peer = try await EchoPeer.start()
        do {
            _ = try await peer.call("Ignore", timeout: .milliseconds(300))
            Issue.record("Ignore returned")
        } catch {
            #expect(error.isTimeout, "\(error)")
        }
        await peer.stop()
    }

    @Test func cancellingTheTaskCancelsTheCall() async throws {
        let peer = try await EchoPeer.start()
        let pending = Task { () async -> BusError? in
            do {
                _ = try await peer.call("Ignore")
                return nil
            } catch {
                return error as? BusError
            }
        }
        _ = try await peer.call("Echo") // the Ignore call is on the wire before we cancel
        pending.cancel()
        #expect(await pending.value == .cancelled)
        #expect(try await peer.call("Echo", [.int32(3)]) == [.int32(3)])
        await peer.stop()
    }

    @Test func callToAMissingServiceFails() async throws {
        let peer = try await EchoPeer.start()
        await #expect(throws: BusError.remote(
            name: "org.freedesktop.DBus.Error.ServiceUnknown",
            message: "The name org.bluez was not provided by any .service files"
        )) {
            try await peer.connection.call(BusMethodCall(destination: "org.bluez", path: "/", interface: "org.freedesktop.DBus.ObjectManager", method: "GetManagedObjects"))
        }
        await peer.stop()
    }

    @Test func connectingToANonexistentBusSaysWhere() async {
        await #expect(throws: BusError.self) {
            try await BusConnection.connect(to: .address("unix:path=/nonexistent/hrbridge-test-bus"))
        }
    }

    @Test func busGoingAwayFailsCallsAndEndsStreams() async throws {
        let peer = try await EchoPeer.start()
        let signals = StreamReader(try await peer.connection.signals(matching: BusMatchRule(interface: EchoPeer.name)))
        peer.bus.stop()
        #expect(try await signals.next(within: 10, "the stream to end") == nil)
        await #expect(throws: BusError.disconnected) { try await peer.call("Echo") }
        await peer.stop()
    }
}
