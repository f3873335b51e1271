import Sensors

/// The scores' tests place samples and updates in seconds after one origin.
enum Moments {
    static let origin = Timestamp(unixSeconds: 1_704_088_800) // 2024-01-01T06:00:00Z

    static func at(_ seconds: Double) -> Timestamp { origin.adding(seconds: seconds) }
}
