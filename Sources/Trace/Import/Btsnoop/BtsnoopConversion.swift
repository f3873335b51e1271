import Sensors

/// The state of an import while it walks the capture: which device each open connection is,
/// the ACL frames being joined, the handle map, and each device's events so far.
struct BtsnoopConversion {
    private var links: [ACLReassembler.Connection: String] = [:]
    private var reassembler = ACLReassembler()
    private var handleMap: GATTHandleMap
    private var devices: [String] = []
    private var events: [String: [SensorEvent]] = [:]
    private var notified: [String: Set<BluetoothUUID>] = [:]
    private var skips = BtsnoopSkips()

    init(handles: [UInt16: BluetoothUUID]) {
        handleMap = GATTHandleMap(fallback: handles)
    }

    mutating func add(_ record: BtsnoopRecord) throws(BtsnoopError) {
        switch record.kind {
        case .event:
            switch try HCILinkEvent.decode(record.packet) {
            case let .connected(handle, peer):
                let connection = ACLReassembler.Connection(controller: record.controller, handle: handle)
                links[connection] = peer
                if events[peer] == nil { devices.append(peer) }
                try append(.connected, for: peer, from: record)
            case let .disconnected(handle, reason):
                try end(ACLReassembler.Connection(controller: record.controller, handle: handle),
                        because: HCIDisconnectReason.text(reason), record: record)
            case nil:
                break
            }
        case .controllerRemoved:
            for connection in links.keys.sorted(by: { $0.handle < $1.handle }) where connection.controller == record.controller {
                try end(connection, because: "controller removed", record: record)
            }
        case .aclSent, .aclReceived:
            let direction: ACLReassembler.Direction = record.kind == .aclSent ? .toDevice : .fromDevice
            let (connection, frame) = try reassembler.add(record.packet, controller: record.controller, direction: direction, skips: &skips)
            guard let frame else { return }
            guard let device = links[connection] else {
                skips.count(.unknownConnection(handle: connection.handle))
                return
            }
            guard frame.channel == ATTPDU.channel else {
                // LE signalling and the security manager carry no values; any other channel from
                // the device could (EATT bearers, a profile of its own) and is not read.
                if direction == .fromDevice, !Self.channelsWithoutValues.contains(frame.channel) {
                    skips.count(.otherChannel(device: device, channel: frame.channel))
                }
                return
            }
            guard let pdu = ATTPDU(frame.payload) else {
                skips.count(.malformedATT(device: device))
                return
            }
            if direction == .toDevice {
                handleMap.sent(pdu, on: connection)
            } else {
                try received(pdu, on: connection, from: device, record: record)
            }
        default:
            break
        }
    }

    /// Values the device pushed become events; discovery answers feed the handle map.
    private mutating func received(_ pdu: ATTPDU, on connection: ACLReassembler.Connection, from device: String,
                                   record: BtsnoopRecord) throws(BtsnoopError) {
        guard case let .values(attributes) = pdu else {
            if !handleMap.received(pdu, on: connection, from: device) { skips.count(.malformedATT(device: device)) }
            return
        }
        for attribute in attributes {
            guard let characteristic = handleMap.characteristic(attribute.handle, of: device) else {
                skips.count(.unknownHandle(device: device, handle: attribute.handle))
                continue
            }
            notified[device, default: []].insert(characteristic)
            // A live link records Battery Level as `battery`, so an imported trace does too.
            guard characteristic == .batteryLevel else {
                try append(.notification(characteristic: characteristic, value: attribute.value), for: device, from: record)
                continue
            }
            guard let level = try? BatteryLevel(parsing: attribute.value) else {
                skips.count(.invalidBatteryLevel(device: device))
                continue
            }
            try append(.battery(level), for: device, from: record)
        }
    }

    private mutating func end(_ connection: ACLReassembler.Connection, because reason: String,
                              record: BtsnoopRecord) throws(BtsnoopError) {
        reassembler.end(connection, skips: &skips)
        handleMap.end(connection)
        guard let device = links.removeValue(forKey: connection) else { return } // a link from before the capture
        try append(.disconnected(reason: reason), for: device, from: record)
    }

    /// A trace's offsets never go back, so neither may a device's events (a clock step in the capture).
    private mutating func append(_ kind: SensorEvent.Kind, for device: String, from record: BtsnoopRecord) throws(BtsnoopError) {
        if let previous = events[device]?.last, record.time < previous.time {
            throw BtsnoopError(offset: record.offset, "time goes back \(previous.time.microsecondsSinceUnixEpoch - record.time.microsecondsSinceUnixEpoch) µs from the previous event of \(device) (a clock step during the capture?)")
        }
        events[device, default: []].append(SensorEvent(time: record.time, kind: kind))
    }

    func result(source: String) -> BtsnoopImport.Result {
        let devices = devices.map { address in
            let deviceEvents = events[address]!
            let start = deviceEvents[0].time
            var header = TraceHeader(start: start, address: address)
            var sensor = SensorRole.strap
            if isDistanceSensor(address) {
                sensor = .distance
                header = TraceHeader(start: start, version: TraceHeader.multiSensorVersion)
                header.distanceAddress = address
            }
            header.source = source
            let note = SensorEvent(time: start, kind: .note("imported from \(source)"))
            return BtsnoopImport.Device(
                address: address, header: header,
                events: [note] + deviceEvents.map { SensorEvent(time: $0.time, kind: $0.kind, sensor: sensor) }
            )
        }
        return BtsnoopImport.Result(devices: devices, skips: skips)
    }

    /// LE signalling (0x0005) and the Security Manager (0x0006).
    private static let channelsWithoutValues: Set<UInt16> = [0x0005, 0x0006]

    /// A device whose known kinds all give distance (a foot pod, a bike sensor); one with a heart
    /// rate is a strap, and so is one of no known kind, whose values a version-1 trace keeps as they came.
    private func isDistanceSensor(_ device: String) -> Bool {
        let characteristics = handleMap.characteristics(of: device).union(notified[device] ?? [])
        let kinds = characteristics.compactMap(SensorKind.measured(on:))
        return !kinds.isEmpty && kinds.allSatisfy(\.contribution.givesDistance)
    }
}
