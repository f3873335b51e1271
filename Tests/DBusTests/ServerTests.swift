import BusTestSupport
import DBus
import Dispatch
import Synchronization
import Testing

/// Our server side, called by dbus-send (an independent client) on a private bus.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ServerTests {
    static let name = "hr.test.Server"
    static let path = "/hr/test/Server"
    static let interface = BusInterfaceDescription(
        name: name,
        methods: [
            .init("Add", inputs: [.init("a", "i"), .init("b", "i")], outputs: [.init("sum", "i")]),
            .init("Fail"),
            .init("Later", outputs: [.init("text", "s")]),
        ],
        properties: [.init("Label", "s"), .init("Count", "u")]
    )

    struct Served {
        let bus: PrivateBus
        let connection: BusConnection
        let calls: CallCount

        func send(_ member: String, _ arguments: [String] = [], path: String = ServerTests.path) async throws -> FinishedProcess {
            let address = bus.address
            return try await offThePool { try DBusSend.call(address, ServerTests.name, path, member, arguments) }
        }

        func stop() async {
            await connection.close()
            bus.stop()
        }
    }

    static func serve() async throws -> Served {
        let bus = try PrivateBus()
        let connection = try await BusConnection.connect(to: .address(bus.address))
        let served = Served(bus: bus, connection: connection, calls: CallCount())
        try await connection.requestName(name)
        let calls = served.calls
        try await connection.export(BusExportedObject(
            path: path, interfaces: [interface],
            properties: { _ in ["Label": .string("Intervals"), "Count": .uint32(UInt32(calls.value.load(ordering: .relaxed)))] }
        ) { call in
            calls.value.add(1, ordering: .relaxed)
            switch call.member {
            case "Add":
                guard call.arguments.count == 2, let a = call.arguments[0].integer, let b = call.arguments[1].integer else {
                    return call.fail(BusErrorName.invalidArgs, "Add takes two int32")
                }
                call.reply([.int32(Int32(a + b))])
            case "Fail": call.fail("hr.test.Error.Deliberate", "asked to fail")
            default: // answered later, from another thread
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { call.reply([.string("later")]) }
            }
        })
        return served
    }

    @Test func methodsReplyAndFail() async throws {
        let served = try await Self.serve()
        let sum = try await served.send("\(Self.name).Add", ["int32:2", "int32:40"])
        #expect(sum.status == 0 && sum.output.contains("int32 42"), "\(sum)")
        let failed = try await served.send("\(Self.name).Fail")
        #expect(failed.status != 0 && failed.error.contains("hr.test.Error.Deliberate") && failed.error.contains("asked to fail"), "\(failed)")
        let bad = try await served.send("\(Self.name).Add", ["string:x"])
        #expect(bad.status != 0 && bad.error.contains(BusErrorName.invalidArgs), "\(bad)")
        let later = try await served.send("\(Self.name).Later")
        #expect(later.output.contains("string \"later\""), "\(later)")
        let unknown = try await served.send("\(Self.name).Nope")
        #expect(unknown.status != 0 && unknown.error.contains(BusErrorName.unknownMethod), "\(unknown)")
        let elsewhere = try await served.send("\(Self.name).Add", ["int32:1", "int32:1"], path: "/hr/other")
        #expect(elsewhere.status != 0, "\(elsewhere)")
        #expect(served.calls.value.load(ordering: .relaxed) == 4) // Add, Fail, bad Add, Later reached the handler; Nope did not
        await served.stop()
    }

    @Test func propertiesAreReadOnly() async throws {
        let served = try await Self.serve()
        let label = try await served.send("org.freedesktop.DBus.Properties.Get", ["string:\(Self.name)", "string:Label"])
        #expect(label.output.contains("variant") && label.output.contains("string \"Intervals\""), "\(label)")
        let all = try await served.send("org.freedesktop.DBus.Properties.GetAll", ["string:\(Self.name)"])
        #expect(all.output.contains("\"Count\"") && all.output.contains("uint32 0") && all.output.contains("\"Label\""), "\(all)")
        let missing = try await served.send("org.freedesktop.DBus.Properties.Get", ["string:\(Self.name)", "string:Nope"])
        #expect(missing.error.contains(BusErrorName.unknownProperty), "\(missing)")
        let set = try await served.send("org.freedesktop.DBus.Properties.Set", ["string:\(Self.name)", "string:Label", "variant:string:x"])
        #expect(set.error.contains(BusErrorName.propertyReadOnly), "\(set)")
        await served.stop()
    }

    @Test func introspectionDescribesTheObjectAndItsParents() async throws {
        let served = try await Self.serve()
        let xml = try await served.send("org.freedesktop.DBus.Introspectable.Introspect")
        #expect(xml.output.contains("<interface name=\"\(Self.name)\">"), "\(xml)")
        #expect(xml.output.contains("<arg name=\"sum\" type=\"i\" direction=\"out\"/>"))
        #expect(xml.output.contains("<property name=\"Label\" type=\"s\" access=\"read\">"))
        #expect(xml.output.contains("EmitsChangedSignal\" value=\"false\""))
        #expect(xml.output.contains("org.freedesktop.DBus.Properties"))
        let parent = try await served.send("org.freedesktop.DBus.Introspectable.Introspect", path: "/hr")
        #expect(parent.output.contains("<node name=\"test\"/>"), "\(parent)")
        await served.stop()
    }

    @Test func aTakenNameIsRefused() async throws {
        let served = try await Self.serve()
        let second = try await BusConnection.connect(to: .address(served.bus.address))
        await #expect(throws: BusError.nameTaken(name: Self.name, owner: served.connection.uniqueName)) {
            try await second.requestName(Self.name)
        }
        await second.close()
        await served.stop()
    }
}

final class CallCount: Sendable {
    let value = Atomic<Int>(0)
}
