/// The test every distance derivation puts a forward jump to: a counter claiming more meters than the
/// fastest plausible speed allows over the time between two measurements was restarted or swapped,
/// not run or ridden.
struct PlausibleTravel: Sendable {
    /// Meters per second nobody on this kind of sensor exceeds.
    let maximumSpeed: Double

    /// Seconds granted on top of every interval: notifications held up by a busy link arrive bunched,
    /// so their arrival times can show less time than the sensor's counter covered.
    static let arrivalBunching: Double = 2

    func allows(_ meters: Double, over seconds: Double) -> Bool {
        meters <= maximumSpeed * (max(seconds, 0) + Self.arrivalBunching)
    }
}
