/// Why a 0x2A5B value could not be read. The description names the field that is cut short, its size
/// and what was there, so a user can compare it with btmon or nRF Connect.
public enum CyclingSpeedCadenceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Zero bytes: not even a flags byte.
    case empty
    /// The flags promise `field` but fewer bytes than it needs remain where it starts.
    case truncated(Field, bytesAvailable: Int)

    /// The fields of a 0x2A5B value, in wire order.
    public enum Field: Sendable, Hashable {
        case wheelRevolutions, lastWheelEventTime, crankRevolutions, lastCrankEventTime

        var name: String {
            switch self {
            case .wheelRevolutions: "cumulative wheel revolutions"
            case .lastWheelEventTime: "last wheel event time"
            case .crankRevolutions: "cumulative crank revolutions"
            case .lastCrankEventTime: "last crank event time"
            }
        }

        var size: Int { self == .wheelRevolutions ? 4 : 2 }
    }

    public var description: String {
        switch self {
        case .empty:
            return "empty value: no flags byte"
        case let .truncated(field, available):
            return "flags promise \(field.name) (\(byteCount(field.size))) but \(bytesFollow(available))"
        }
    }
}
