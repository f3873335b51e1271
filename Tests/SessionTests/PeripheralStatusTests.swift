import BlueZ
import Forwarding
import LiveState
@testable import Session
import Testing
@testable import ListenerAPI

/// What `/metrics` and the status lines say of a ble-heart-rate sink.
@Suite struct PeripheralStatusTests {
    static func snapshot(adapter: String?, problem: String? = nil) -> BLEPeripheral.Snapshot {
        var snapshot = BLEPeripheral.Snapshot()
        snapshot.adapter = adapter
        snapshot.heartRateSubscribers = 2
        snapshot.runningSubscribers = 1
        snapshot.heartRateSent = 340
        snapshot.runningSent = 80
        snapshot.problem = problem
        return snapshot
    }

    @Test func metricsCountCentralsAndNotificationsByMeasurement() {
        let sink = SinkSnapshot(kind: "ble-heart-rate", counters: SinkCounters(), waiting: 0, spoolBytes: 0, halted: nil,
                                peripheral: Self.snapshot(adapter: "hci0"))
        let metrics = SessionMetrics(running: true, tally: SensorTally(), updates: [:], urgentPushes: 0, demotions: 0, sinks: [sink],
                                     secondsSinceValidSample: nil)
        let text = MetricsText.exposition([(strap: "H10", metrics: metrics)], version: "test")
        let labels = #"strap="H10",sink="ble-heart-rate""#
        #expect(text.contains("hrbridge_peripheral_advertising{\(labels)} 1\n"), "\(text)")
        #expect(text.contains(#"hrbridge_peripheral_centrals{\#(labels),measurement="heart_rate"} 2"#))
        #expect(text.contains(#"hrbridge_peripheral_centrals{\#(labels),measurement="running"} 1"#))
        #expect(text.contains(#"hrbridge_peripheral_notifications_total{\#(labels),measurement="heart_rate"} 340"#))
        #expect(text.contains("# TYPE hrbridge_peripheral_notifications_total counter"))
    }

    @Test func noPeripheralFamiliesWithoutAPeripheral() {
        let sink = SinkSnapshot(kind: "stdout", counters: SinkCounters(), waiting: 0, spoolBytes: 0, halted: nil)
        let metrics = SessionMetrics(running: true, tally: SensorTally(), updates: [:], urgentPushes: 0, demotions: 0, sinks: [sink],
                                     secondsSinceValidSample: nil)
        #expect(!MetricsText.exposition([(strap: "H10", metrics: metrics)], version: "test").contains("peripheral"))
    }

    @Test func theSummarySaysWhereItAdvertisesOrWhyNot() {
        #expect(Self.snapshot(adapter: "hci0").summary == "advertising on hci0; heart rate: 2 centrals, 340 sent; running: 1 central, 80 sent")
        #expect(Self.snapshot(adapter: nil, problem: "hci0 cannot advertise").summary
            == "not advertising: hci0 cannot advertise; heart rate: 2 centrals, 340 sent; running: 1 central, 80 sent")
    }
}
