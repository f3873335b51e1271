import Forwarding
import Sensors
import Testing

@Suite struct SampleReaderTests {
    static func event(_ kind: SensorEvent.Kind, _ sensor: SensorRole = .strap) -> SensorEvent {
        SensorEvent(time: Timestamp(microsecondsSinceUnixEpoch: 1_000_000), kind: kind, sensor: sensor)
    }

    static func notification(_ characteristic: String, _ hex: [UInt8], _ sensor: SensorRole = .strap) -> SensorEvent {
        event(.notification(characteristic: BluetoothUUID(characteristic)!, value: hex), sensor)
    }

    @Test func theStrapsMeasurementPassesThroughWhole() {
        var reader = SampleReader()
        // Contact detected, energy expended 300 kJ, two RR intervals.
        let samples = reader.samples(in: Self.notification("2a37", [0x1E, 72, 0x2C, 0x01, 0x00, 0x04, 0x10, 0x04]), machineHeartRateShown: false)
        let expected = HeartRateMeasurement(beatsPerMinute: 72, sensorContact: .detected, energyExpended: 300, rrIntervals: [1024, 1040])
        #expect(samples == [.heartRate(expected)])
        #expect(expected.encoded() == [0x1E, 72, 0x2C, 0x01, 0x00, 0x04, 0x10, 0x04])
    }

    @Test func aRateAbove255IsSixteenBitAndBelowEightBit() {
        #expect(HeartRateMeasurement(beatsPerMinute: 300, sensorContact: .unsupported).encoded() == [0x01, 0x2C, 0x01])
        #expect(HeartRateMeasurement(beatsPerMinute: 255, sensorContact: .notDetected).encoded() == [0x04, 0xFF])
    }

    @Test func aMalformedMeasurementGivesNothing() {
        var reader = SampleReader()
        #expect(reader.samples(in: Self.notification("2a37", [0x01, 0x50]), machineHeartRateShown: false).isEmpty)
    }

    @Test func lossAndReturnOfEitherSensor() {
        var reader = SampleReader()
        #expect(reader.samples(in: Self.event(.disconnected(reason: "timeout")), machineHeartRateShown: false) == [.lost(.strap)])
        #expect(reader.samples(in: Self.event(.connected, .distance), machineHeartRateShown: false) == [.back(.distance)])
    }

    @Test func batteryAndLocationOfTheStrapOnly() throws {
        var reader = SampleReader()
        let level = try BatteryLevel(percent: 55)
        #expect(reader.samples(in: Self.event(.battery(level)), machineHeartRateShown: false) == [.battery(level)])
        #expect(reader.samples(in: Self.event(.battery(level), .distance), machineHeartRateShown: false).isEmpty)
        #expect(reader.samples(in: Self.event(.bodySensorLocation(.chest)), machineHeartRateShown: false) == [.bodySensorLocation(.chest)])
    }

    @Test func aFootPodsMeasurementIsRunning() {
        var reader = SampleReader()
        let value: [UInt8] = [0x07, 0x00, 0x03, 170, 0x64, 0x00, 0x39, 0x30, 0x00, 0x00]
        let samples = reader.samples(in: Self.notification("2a53", value, .distance), machineHeartRateShown: false)
        guard case let .running(measurement)? = samples.first else { Issue.record("no running sample: \(samples)"); return }
        #expect(samples.count == 1 && measurement.encoded() == value)
    }

    @Test func aTreadmillsSplitRecordGivesSpeedWithTheDistanceOfItsFirstPart() {
        var reader = SampleReader()
        // More Data (bit 0) with Total Distance (bit 2): 1234 m, no speed yet.
        #expect(reader.samples(in: Self.notification("2acd", [0x05, 0x00, 0xD2, 0x04, 0x00], .distance), machineHeartRateShown: false).isEmpty)
        // The last part: speed 10.80 km/h (3 m/s).
        let samples = reader.samples(in: Self.notification("2acd", [0x00, 0x00, 0x38, 0x04], .distance), machineHeartRateShown: false)
        #expect(samples == [.running(RunningSpeedCadenceMeasurement(speed: 768, cadence: 0, strideLength: nil, totalDistance: 12340, isRunning: true))])
    }

    @Test func theMachinesHeartRateOnlyWhileTheActivityShowsIt() {
        var reader = SampleReader()
        // Speed 3 m/s, total 30 m, heart rate 140.
        let value: [UInt8] = [0x04, 0x01, 0x38, 0x04, 0x1E, 0x00, 0x00, 140]
        let running = WorkoutSample.running(RunningSpeedCadenceMeasurement(speed: 768, cadence: 0, strideLength: nil, totalDistance: 300, isRunning: true))
        #expect(reader.samples(in: Self.notification("2acd", value, .distance), machineHeartRateShown: false) == [running])
        #expect(reader.samples(in: Self.notification("2acd", value, .distance), machineHeartRateShown: true)
            == [running, .heartRate(HeartRateMeasurement(beatsPerMinute: 140, sensorContact: .unsupported))])
    }

    @Test func aBikeIsNotRunning() {
        var reader = SampleReader()
        #expect(reader.samples(in: Self.notification("2a5b", [0x01, 1, 0, 0, 0, 0, 4], .distance), machineHeartRateShown: false).isEmpty)
    }
}
