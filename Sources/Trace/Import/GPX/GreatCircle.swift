#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Distances over the Earth taken as a sphere, for the legs of a GPS track. A sphere is within
/// 0.5 % of the WGS-84 ellipsoid GPS positions refer to: less than a track's own noise.
enum GreatCircle {
    /// The mean radius of the WGS-84 ellipsoid, (2a + b) / 3, in metres (IUGG): the sphere closest
    /// to it on average.
    static let meanEarthRadius = 6_371_008.8

    /// A position in degrees, as GPX writes it.
    struct Coordinate: Sendable, Hashable {
        var latitude: Double
        var longitude: Double
    }

    /// The haversine formula, d = 2R·asin(√(sin²(Δφ/2) + cos φ₁·cos φ₂·sin²(Δλ/2))): well conditioned
    /// for the few metres between consecutive points, where the spherical law of cosines loses
    /// its precision.
    static func distance(from start: Coordinate, to end: Coordinate) -> Double {
        let radiansPerDegree = Double.pi / 180
        let φ1 = start.latitude * radiansPerDegree, φ2 = end.latitude * radiansPerDegree
        let Δφ = φ2 - φ1, Δλ = (end.longitude - start.longitude) * radiansPerDegree
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * meanEarthRadius * asin(min(1, h.squareRoot())) // min: rounding can push h past 1 for antipodes
    }
}
