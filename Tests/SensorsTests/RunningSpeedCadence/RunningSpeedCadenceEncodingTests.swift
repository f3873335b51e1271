import Sensors
import Testing

@Suite struct RunningSpeedCadenceEncodingTests {
    @Test(arguments: [
        // flags, speed 0x0300 (3 m/s), cadence 170, then what the flags announce.
        (RunningSpeedCadenceMeasurement(speed: 0x0300, cadence: 170, isRunning: false), "000003aa"),
        (RunningSpeedCadenceMeasurement(speed: 0x0300, cadence: 170, totalDistance: 1234, isRunning: false), "020003aad2040000"),
        (RunningSpeedCadenceMeasurement(speed: 0x0403, cadence: 171, strideLength: 212, totalDistance: 30, isRunning: true),
         "070304abd4001e000000"),
    ])
    func writesWhatThePodWouldSendAndReadsBack(measurement: RunningSpeedCadenceMeasurement, hex: String) throws {
        #expect(Hex.encode(measurement.encoded()) == hex)
        #expect(try RunningSpeedCadenceMeasurement(parsing: measurement.encoded()) == measurement)
    }
}
