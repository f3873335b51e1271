/// A device token as APNs takes it in `/3/device/<token>`: a Live Activity's update token
/// (`pushTokenUpdates`), a push-to-start token (`pushToStartTokenUpdates`) or an app's device token,
/// which the app sends as hex (`token.map { String(format: "%02x", $0) }.joined()`). Kept lower-case.
/// A token is an identifier of a person's phone: it never appears whole in a log or a message
/// (`description` is its first 8 characters), only in requests to APNs and the state directory.
public struct PushToken: Sendable, Hashable, CustomStringConvertible {
    public let hex: String

    /// Fewer bytes than this is no token: device tokens were 32 bytes for a decade and ActivityKit's
    /// are longer; 8 bytes (64 bits) is the least that could tell a service's phones apart, and
    /// refuses a typo's few digits.
    public static let minimumBytes = 8
    /// Apple says tokens are of variable length and once announced up to 100 bytes; 80-byte Live
    /// Activity tokens are seen in the field. 256 bytes takes any of these with room, and refuses a
    /// pasted file or payload.
    public static let maximumBytes = 256

    /// Why text is not a token; the messages never repeat the text (it may be a real token with one
    /// wrong character).
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        /// Character `position` (from 1) is not 0-9, a-f or A-F.
        case notHex(position: Int)
        case oddLength(digits: Int)
        case tooShort(bytes: Int)
        case tooLong(bytes: Int)

        public var description: String {
            switch self {
            case .empty: "expected hex digits, got nothing"
            case let .notHex(position): "expected hex digits (0-9, a-f), got another character at position \(position)"
            case let .oddLength(digits): "expected an even number of hex digits (two per byte), got \(digits)"
            case let .tooShort(bytes): "expected at least \(PushToken.minimumBytes) bytes (\(PushToken.minimumBytes * 2) hex digits), got \(bytes)"
            case let .tooLong(bytes): "expected at most \(PushToken.maximumBytes) bytes (\(PushToken.maximumBytes * 2) hex digits), got \(bytes)"
            }
        }
    }

    private init(checkedHex: String) { hex = checkedHex }

    /// A token from settings made in code (`APNsSinkSettings`), taken as given, lower-cased: the
    /// sink kind parsed the ones from files and variables already.
    init(configured hex: String) { self.hex = hex.lowercased() }

    /// `text` as a token: hex digits only (no spaces, no `<…>` as `Data.description` printed them),
    /// an even count, within the byte bounds.
    public static func parse(_ text: String) -> Result<PushToken, Problem> {
        let scalars = text.unicodeScalars
        guard !scalars.isEmpty else { return .failure(.empty) }
        // By scalar: Character.isHexDigit also takes fullwidth digits, which no token has.
        if let bad = scalars.firstIndex(where: { !(("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0)) }) {
            return .failure(.notHex(position: scalars.distance(from: scalars.startIndex, to: bad) + 1))
        }
        let digits = scalars.count
        guard digits % 2 == 0 else { return .failure(.oddLength(digits: digits)) }
        guard digits / 2 >= minimumBytes else { return .failure(.tooShort(bytes: digits / 2)) }
        guard digits / 2 <= maximumBytes else { return .failure(.tooLong(bytes: digits / 2)) }
        return .success(PushToken(checkedHex: text.lowercased()))
    }

    /// Its first 8 characters and an ellipsis: enough to tell tokens apart in a log.
    public var description: String { String(hex.prefix(8)) + "…" }
}
