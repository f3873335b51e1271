import Sensors
import Synchronization

/// One connection attempt's characteristic values, on the link's events queue only: from
/// PropertiesChanged (routed by device path before Connect) and from the AcquireNotify
/// socket. Values that come before the link knows which path is the measurement (bluetoothd resumes a
/// kept notify session as soon as services resolve) wait here and go out right after
/// `connected`, in order. Delivers events straight to the link's consumer: no task hop.
final class ValueDispatch: @unchecked Sendable {
    private let link: SensorLink
    private var measurementPath: String?
    /// The measurement characteristic's UUID, as the events name it (0x2A37, 0x2A53, …).
    private var characteristic = BluetoothUUID.heartRateMeasurement
    private var batteryPath: String?
    private var watchdog: SilenceWatchdog?
    private var waiting: [BlueZClient.ValueArrival] = []
    private var lastBattery: BatteryLevel?
    private let measuredCount = Atomic<Int>(0)
    private var stopped = false

    init(link: SensorLink) { self.link = link }

    /// Which path is which, then the values that were waiting for it.
    func start(measurementPath: String, characteristic: BluetoothUUID, batteryPath: String?, watchdog: SilenceWatchdog) {
        self.measurementPath = measurementPath
        self.characteristic = characteristic
        self.batteryPath = batteryPath
        self.watchdog = watchdog
        let early = waiting
        waiting = []
        for arrival in early { receive(arrival) }
    }

    func receive(_ arrival: BlueZClient.ValueArrival) {
        guard let measurementPath else { return waiting.append(arrival) }
        if arrival.characteristicPath == measurementPath {
            measurement(arrival.value, at: arrival.time)
        } else if arrival.characteristicPath == batteryPath, let level = try? BatteryLevel(parsing: arrival.value) {
            battery(level, at: arrival.time)
        }
    }

    /// Measurement values so far; read from any thread (the queue may be busy with its consumer).
    var measuredValues: Int { measuredCount.load(ordering: .relaxed) }

    /// The link was declared lost: later values belong to no connection.
    func stop() { stopped = true }

    /// A value from PropertiesChanged: the watchdog hears of it here.
    func measurement(_ bytes: [UInt8], at time: Timestamp) {
        guard !stopped else { return }
        watchdog?.feed(at: time)
        deliverMeasurement(bytes, at: time)
    }

    /// A value from the notification socket, whose reader fed the watchdog already (before
    /// the queue, which a busy consumer may hold): once per value is enough.
    func socketMeasurement(_ bytes: [UInt8], at time: Timestamp) {
        guard !stopped else { return }
        deliverMeasurement(bytes, at: time)
    }

    private func deliverMeasurement(_ bytes: [UInt8], at time: Timestamp) {
        measuredCount.add(1, ordering: .relaxed)
        link.deliver(SensorEvent(time: time, kind: .notification(characteristic: characteristic, value: bytes)))
    }

    /// bluetoothd answers StartNotify on 0x2A19 with its cached value: a level goes out once
    /// per change, not once per way it reached us.
    func battery(_ level: BatteryLevel, at time: Timestamp) {
        guard !stopped, level != lastBattery else { return }
        lastBattery = level
        link.deliver(SensorEvent(time: time, kind: .battery(level)))
    }
}
