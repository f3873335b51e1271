/// Why a 0x2A53 value could not be read. The description names the field that is cut short, its size
/// and what was there, so a user can compare it with btmon or nRF Connect.
public enum RunningSpeedCadenceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Zero bytes: not even a flags byte.
    case empty
    /// Fewer bytes than `field` needs remain where it starts.
    case truncated(Field, bytesAvailable: Int)

    /// The fields of a 0x2A53 value, in wire order.
    public enum Field: Sendable, Hashable {
        case speed, cadence, strideLength, totalDistance

        var name: String {
            switch self {
            case .speed: "instantaneous speed"
            case .cadence: "instantaneous cadence"
            case .strideLength: "stride length"
            case .totalDistance: "total distance"
            }
        }

        var size: Int {
            switch self {
            case .cadence: 1
            case .speed, .strideLength: 2
            case .totalDistance: 4
            }
        }

        /// Speed and cadence are in every value; the others only when a flag bit says so.
        var isAnnouncedByFlags: Bool { self == .strideLength || self == .totalDistance }
    }

    public var description: String {
        switch self {
        case .empty:
            return "empty value: no flags byte"
        case let .truncated(field, available):
            let promise = field.isAnnouncedByFlags ? "flags promise" : "every value carries"
            return "\(promise) \(field.name) (\(byteCount(field.size))) but \(bytesFollow(available))"
        }
    }
}
