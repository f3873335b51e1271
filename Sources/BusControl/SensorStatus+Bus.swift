import DBus
import LiveView

/// A sensor's status as `io.hrbridge.Bridge1.Sensors` returns it: one `a{sv}` per sensor, keys as
/// the fields are named, absent fields left out (D-Bus has no null). `ctl status --watch` reads it
/// back and draws the same block `run` draws.
extension SensorStatus {
    var busValue: BusValue {
        var entries: [String: BusValue] = ["name": .string(name), "role": .string(role.rawValue), "link": .string(link.rawValue)]
        if let heartRate { entries["heartRate"] = .int32(Int32(clamping: heartRate)) }
        if let distanceMeters { entries["distanceMeters"] = .double(distanceMeters) }
        if let lastUpdate {
            entries["sequence"] = .int64(Int64(lastUpdate.sequence))
            entries["reason"] = .string(lastUpdate.reason)
            entries["updateAge"] = .double(lastUpdate.age)
        }
        if let nextDeadlineIn { entries["nextDeadlineIn"] = .double(nextDeadlineIn) }
        return .propertyMap(entries)
    }

    /// The status a `Sensors` reply carries; nil for an entry that is not one (a newer bridge's
    /// role or link this one does not know, a required key missing).
    public init?(busValue: BusValue) {
        guard let entries = busValue.stringKeyedDictionary, let name = entries["name"]?.string,
              let role = entries["role"]?.string.flatMap(Role.init(rawValue:)),
              let link = entries["link"]?.string.flatMap(Link.init(rawValue:))
        else { return nil }
        self.init(name: name, role: role, link: link,
                  heartRate: entries["heartRate"]?.integer.map { Int($0) },
                  distanceMeters: entries["distanceMeters"]?.double)
        if let sequence = entries["sequence"]?.integer, let reason = entries["reason"]?.string {
            lastUpdate = .init(sequence: Int(sequence), reason: reason, age: entries["updateAge"]?.double ?? 0)
        }
        nextDeadlineIn = entries["nextDeadlineIn"]?.double
    }

    /// The entries of a `Sensors` reply (`aa{sv}`) it can read.
    public static func list(busValue: BusValue?) -> [SensorStatus] {
        busValue?.array?.compactMap(SensorStatus.init(busValue:)) ?? []
    }
}
