/// Body Sensor Location (0x2A38), read once after connecting.
public enum BodySensorLocation: Sendable, Hashable {
    case other, chest, wrist, finger, hand, earLobe, foot
    /// A value the spec reserves (7–255): kept raw rather than rejected.
    case reserved(UInt8)

    public init(code: UInt8) {
        switch code {
        case 0: self = .other
        case 1: self = .chest
        case 2: self = .wrist
        case 3: self = .finger
        case 4: self = .hand
        case 5: self = .earLobe
        case 6: self = .foot
        default: self = .reserved(code)
        }
    }

    public init<Bytes: Collection>(parsing value: Bytes) throws(SingleByteValueError) where Bytes.Element == UInt8 {
        self.init(code: try singleByte(of: value))
    }

    public var code: UInt8 {
        switch self {
        case .other: 0
        case .chest: 1
        case .wrist: 2
        case .finger: 3
        case .hand: 4
        case .earLobe: 5
        case .foot: 6
        case let .reserved(code): code
        }
    }

    public var name: String {
        switch self {
        case .other: "other"
        case .chest: "chest"
        case .wrist: "wrist"
        case .finger: "finger"
        case .hand: "hand"
        case .earLobe: "ear-lobe"
        case .foot: "foot"
        case let .reserved(code): "reserved-\(code)"
        }
    }
}
