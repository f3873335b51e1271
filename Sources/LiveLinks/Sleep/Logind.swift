import DBus

/// systemd-logind's Manager interface (org.freedesktop.login1(5)), the part a program that must act
/// before the machine sleeps uses: a delay inhibitor lock and the PrepareForSleep signal. logind
/// sends PrepareForSleep(true), waits until every delay lock's descriptor is closed (at most
/// InhibitDelayMaxSec), suspends, and sends PrepareForSleep(false) after resume.
enum Logind {
    static let name = "org.freedesktop.login1"
    static let path = "/org/freedesktop/login1"
    static let manager = "org.freedesktop.login1.Manager"

    /// PrepareForSleep(b): true before the machine sleeps, false once it woke.
    static let prepareForSleep = BusMatchRule(sender: name, interface: manager, member: "PrepareForSleep", path: path)

    /// logind's own default for InhibitDelayMaxSec (logind.conf(5)), when the property cannot be read.
    static let defaultInhibitDelayMax: Double = 5

    /// Answers that mean there is no logind on this bus (containers, CI): nothing to follow.
    static let absent: Set<String> = [BusErrorName.serviceUnknown, BusErrorName.nameHasNoOwner]

    /// A delay lock on sleep: logind waits for the returned descriptor to be closed before it suspends.
    static func inhibitSleep(on connection: BusConnection, why: String) async throws(BusError) -> UnixFileDescriptor {
        let reply = try await connection.call(method("Inhibit", .string("sleep"), .string("hrbridge"), .string(why), .string("delay")),
                                              timeout: .seconds(5))
        guard let descriptor = reply.first?.fileDescriptor else {
            throw .remote(name: BusErrorName.failed, message: "Inhibit answered without a file descriptor")
        }
        return descriptor
    }

    /// InhibitDelayMaxUSec in seconds: how long logind waits for delay locks; nil when unreadable.
    static func inhibitDelayMax(on connection: BusConnection) async -> Double? {
        let get = BusMethodCall(destination: name, path: path, interface: BusInterfaceName.properties, method: "Get",
                                arguments: [.string(manager), .string("InhibitDelayMaxUSec")])
        guard let microseconds = try? await connection.call(get, timeout: .seconds(5)).first?.integer, microseconds > 0 else { return nil }
        return Double(microseconds) / 1e6
    }

    private static func method(_ member: String, _ arguments: BusValue...) -> BusMethodCall {
        BusMethodCall(destination: name, path: path, interface: manager, method: member, arguments: arguments)
    }
}
