import Sensors
import LiveState
import Testing

/// Sensor loss and recovery: said once, at priority 10, with the heart rate absent; never an end.
@Suite struct DropoutRuleTests {
    /// 120 bpm from 0 to 20 s (last sample at t = 19), then what the case adds; woken at t = 60.
    private func script(then add: (inout EngineScript) -> Void) -> EngineScript {
        var script = EngineScript()
        script.samples(120, from: 0, to: 20)
        add(&script)
        script.tick(at: 60)
        return script
    }

    @Test func silenceLosesTheSensorAfterTheTimeout() throws {
        let updates = try script { _ in }.run()
        #expect(updates.map(EngineScript.describe) == ["0 start start 120 p10", "29 update sensor-lost - p10"])
        #expect(updates[1].contentState.heartRate == nil)
    }

    @Test(arguments: [
        (SensorContact.notDetected, 120),
        (.detected, 0), // rate 0: the strap cannot measure
        (.notDetected, 0),
    ])
    func noContactLosesTheSensorSooner(contact: SensorContact, rate: Int) throws {
        let described = try script { $0.samples(rate, from: 20, to: 60, contact: contact) }.described()
        #expect(described == ["0 start start 120 p10", "24 update sensor-lost - p10"])
    }

    @Test func contactDetectedUnsupportedIsValid() throws {
        // Straps without contact detection (bits 00) send valid rates.
        let described = try script { $0.samples(120, from: 20, to: 60, contact: .unsupported) }.described()
        #expect(described == ["0 start start 120 p10"])
    }

    @Test func disconnectLosesTheSensorAtOnce() throws {
        let described = try script { $0.add(.disconnected, at: 19.5) }.described()
        #expect(described == ["0 start start 120 p10", "19.5 update sensor-lost - p10"])
    }

    @Test func connectedAloneDoesNotBringItBack() throws {
        let described = try script {
            $0.add(.disconnected, at: 19.5)
            $0.add(.connected, at: 25)
        }.described()
        #expect(described == ["0 start start 120 p10", "19.5 update sensor-lost - p10"])
    }

    @Test(arguments: [
        ("silence", EngineInput?.none),
        ("disconnect", EngineInput.disconnected),
    ])
    func firstGoodSampleBringsTheSensorBack(cause: String, input: EngineInput?) throws {
        var script = EngineScript()
        script.samples(120, from: 0, to: 20)
        if let input { script.add(input, at: 19.5) }
        script.add(.sample(beatsPerMinute: 0, contact: .notDetected), at: 40)
        script.add(.sample(beatsPerMinute: 131, contact: .detected), at: 45)
        script.samples(140, from: 46, to: 60)
        let updates = try script.run()
        let lostAt = input == nil ? "29" : "19.5"
        #expect(updates.map(EngineScript.describe) == [
            "0 start start 120 p10", "\(lostAt) update sensor-lost - p10",
            // The window starts afresh: the first sample shows as it is; the climb after it is carried
            // on, at most 4 above the newest sample. Back within two minutes of the loss: priority 5
            // (FlapRuleTests).
            "45 update sensor-back 131 p5", "48 update changed 144 p5",
        ], "after \(cause)")
        #expect(Set(updates.map(\.activityID)).count == 1)
    }

    @Test func lostSensorIsRefreshedThenGivenUp() throws {
        var script = EngineScript()
        script.samples(120, from: 0, to: 20)
        script.tick(at: 700)
        script.samples(100, from: 700, to: 702)
        let updates = try script.run()
        #expect(updates.map(EngineScript.describe) == [
            "0 start start 120 p10", "29 update sensor-lost - p10",
            "129 update refresh - p5", "229 update refresh - p5", "329 update refresh - p5",
            "429 update refresh - p5", "529 update refresh - p5",
            "619 end end:sensor-gone - p10",
            "700 start start 100 p10",
        ])
        let end = updates[7]
        // The final timer stops at the last valid sample: the workout's real length.
        #expect(end.contentState.pausedAt == EngineScript.time(19).date)
        #expect(end.dismissalDate == end.timestamp.adding(seconds: 1800))
        #expect(updates[8].activityID != end.activityID)
        #expect(updates[8].sequence == 1)
        #expect(end.sequence == 8)
    }
}
