import BlueZ
import DBus
import LiveState
import Platform
import Sensors

/// The peripheral as a sink: fed samples (`SampleSink`), not the Live Activity's updates, which it
/// has no use for. Its counters count notifications handed to bluetoothd.
final class BLEHeartRateSink: UpdateSink, SampleSink, PeripheralStatus {
    static let defaultName = "hrbridge"
    let name: String
    private let peripheral: BLEPeripheral
    private let log: @Sendable (String) -> Void
    /// The strap's link is down: nothing goes out until it is back (said once per loss).
    private var strapLost = false

    private init(name: String, peripheral: BLEPeripheral, log: @escaping @Sendable (String) -> Void) {
        self.name = name
        self.peripheral = peripheral
        self.log = log
    }

    /// Connects to the system bus and starts advertising. A bluetoothd that is not running yet is
    /// no failure (the peripheral registers once it is); a system bus that cannot be reached is.
    static func start(name: String, adapter: String?, log: @escaping @Sendable (String) -> Void) throws(SinkSetupError) -> BLEHeartRateSink {
        let result: Result<BLEPeripheral, BusError> = runBlocking {
            do throws(BusError) {
                let connection = try await BusConnection.connect(to: .system)
                return .success(try await BLEPeripheral.start(on: connection, settings: .init(name: name, adapter: adapter), log: log))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case let .success(peripheral): return BLEHeartRateSink(name: "ble-heart-rate:\(name)", peripheral: peripheral, log: log)
        case let .failure(error): throw .unavailable("ble-heart-rate: \(error)")
        }
    }

    func take(_ sample: WorkoutSample) {
        switch sample {
        case let .heartRate(measurement): peripheral.notify(.heartRateMeasurement, measurement.encoded())
        case let .running(measurement): peripheral.notify(.runningMeasurement, measurement.encoded())
        case let .battery(level): peripheral.set(.batteryLevel, [level.percent])
        case let .bodySensorLocation(location): peripheral.set(.bodySensorLocation, [location.code])
        case .lost(.strap):
            guard !strapLost else { return }
            strapLost = true
            log("sink \(name): the strap is lost; sending nothing until it is back")
        case .back(.strap):
            guard strapLost else { return }
            strapLost = false
            log("sink \(name): the strap is back")
        case .lost, .back: break
        }
    }

    func accept(_ update: EncodedUpdate) throws(SinkError) {}

    func settle(within seconds: Double) {}

    func finish(grace: Double) {
        let peripheral = peripheral
        runBlocking { await peripheral.stop() }
    }

    var counters: SinkCounters {
        var counters = SinkCounters()
        let snapshot = peripheral.snapshot
        counters.sent = snapshot.heartRateSent + snapshot.runningSent
        counters.lastError = snapshot.problem
        return counters
    }

    var peripheralSnapshot: BLEPeripheral.Snapshot { peripheral.snapshot }
}

/// A sink that is a Bluetooth peripheral: what status, metrics and the preview say of it.
public protocol PeripheralStatus: AnyObject {
    var peripheralSnapshot: BLEPeripheral.Snapshot { get }
}
