import Platform
import Config
import Forwarding
import LiveState

/// The body every surface registers a token with, `{"token": HEX, "issuedAt": UNIX_S?, "activity": ID?}`,
/// read strictly: JSON (RFC 8259, no duplicate keys), an object with no other keys, the token a
/// `PushToken`, `issuedAt` whole non-negative Unix seconds. Each refusal says where and what; none
/// repeats the token.
public struct PushTokenBody: Equatable, Sendable {
    public var token: PushToken
    public var issuedAt: Int64?
    /// The activity it is for, when the surface names it in the body (MQTT; HTTP has it in the path).
    public var activity: String?

    /// A token and a few numbers: anything larger is not a registration.
    static let maximumBytes = 4096

    public static func parse(_ bytes: [UInt8]) -> Result<PushTokenBody, PushTokenRefusal> {
        func refuse(_ message: String) -> Result<PushTokenBody, PushTokenRefusal> { .failure(PushTokenRefusal(.badRequest, message)) }
        guard bytes.count <= maximumBytes else { return refuse("body is \(bytes.count) bytes, over the \(maximumBytes) a registration takes") }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            return refuse("not JSON: line \(error.line), column \(error.column): \(error.reason)")
        }
        guard case let .object(members) = value else { return refuse("expected an object {\"token\": HEX, \"issuedAt\": UNIX_S}") }
        var token: PushToken?
        var issuedAt: Int64?
        var activity: String?
        for member in members {
            switch (member.key, member.value) {
            case let ("token", .string(text)):
                switch PushToken.parse(text) {
                case let .success(parsed): token = parsed
                case let .failure(problem): return refuse("token: \(problem)")
                }
            case ("token", _):
                return refuse("token: expected a string of hex digits")
            case let ("issuedAt", .number(text)):
                guard let seconds = Int64(text), seconds >= 0 else { return refuse("issuedAt: expected whole Unix seconds (0 or more), got \(text)") }
                issuedAt = seconds
            case ("issuedAt", .null):
                continue
            case ("issuedAt", _):
                return refuse("issuedAt: expected whole Unix seconds")
            case let ("activity", .string(text)) where !text.isEmpty:
                activity = text
            case ("activity", _):
                return refuse("activity: expected an activity id (a non-empty string)")
            default:
                return refuse("unknown key \(member.key.jsonQuoted): expected token, issuedAt and activity")
            }
        }
        guard let token else { return refuse("token: missing") }
        return .success(PushTokenBody(token: token, issuedAt: issuedAt, activity: activity))
    }
}
