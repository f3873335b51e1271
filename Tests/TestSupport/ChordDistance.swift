#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The great-circle distance worked out another way than the product's haversine, to check it: the
/// straight chord between two points on the unit sphere, turned into the arc it spans,
/// 2R·asin(chord / 2), on the WGS-84 mean radius.
public enum ChordDistance {
    public static func meters(from start: (latitude: Double, longitude: Double), to end: (latitude: Double, longitude: Double)) -> Double {
        func unitVector(_ point: (latitude: Double, longitude: Double)) -> (Double, Double, Double) {
            let φ = point.latitude * .pi / 180, λ = point.longitude * .pi / 180
            return (cos(φ) * cos(λ), cos(φ) * sin(λ), sin(φ))
        }
        let a = unitVector(start), b = unitVector(end)
        let chord = ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1) + (a.2 - b.2) * (a.2 - b.2)).squareRoot()
        return 2 * 6_371_008.8 * asin(chord / 2)
    }
}
