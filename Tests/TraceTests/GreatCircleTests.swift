import Testing
@testable import Trace

/// The haversine on the WGS-84 mean radius: arcs whose length is known in closed form.
@Suite struct GreatCircleTests {
    typealias Coordinate = GreatCircle.Coordinate
    static let degree: Double = 6_371_008.8 * Double.pi / 180

    /// (start, end, degrees of arc between them)
    static let arcs: [(Coordinate, Coordinate, Double)] = [
        (Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1), 1),
        (Coordinate(latitude: 45, longitude: 7), Coordinate(latitude: 46, longitude: 7), 1),
        (Coordinate(latitude: 0, longitude: 30), Coordinate(latitude: 90, longitude: -100), 90),
        (Coordinate(latitude: 0, longitude: -170), Coordinate(latitude: 0, longitude: 170), 20), // across the antimeridian
        (Coordinate(latitude: 35.95, longitude: -79.09), Coordinate(latitude: 35.95, longitude: -79.09), 0),
    ]

    @Test(arguments: arcs)
    func measuresArcsOfKnownLength(from start: Coordinate, to end: Coordinate, degrees: Double) {
        let meters = degrees * Self.degree
        #expect(abs(GreatCircle.distance(from: start, to: end) - meters) < 1e-6)
        #expect(abs(GreatCircle.distance(from: end, to: start) - meters) < 1e-6)
    }
}
