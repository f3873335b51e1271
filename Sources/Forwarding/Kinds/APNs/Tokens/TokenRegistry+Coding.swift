import Platform
import FoundationEssentials
import LiveState

/// The registry's file in the state directory (`<state>/push-tokens/<strap key>.json`, mode 0600:
/// it holds whole tokens):
/// `{"version":1,"pushToStart":{ENTRY},"activities":[{"activity":ID,"token":{ENTRY},"pushToStartSentAt":S,"endDismissal":S}]}`,
/// an ENTRY `{"token":HEX,"issuedAt":S,"registeredAt":S,"unregisteredAt":S}`, times in Unix
/// seconds, absent keys for what is not known. Tokens the sink was configured with are not in it.
extension TokenRegistry {
    static let formatVersion = 1

    public func encoded() -> [UInt8] {
        var json = JSONBytes(capacity: 256)
        json.beginObject()
        json.key("version")
        json.integer(Self.formatVersion)
        if let pushToStart {
            json.key("pushToStart")
            Self.write(pushToStart, into: &json)
        }
        json.key("activities")
        json.array(activities) { json, state in
            json.beginObject()
            json.key("activity")
            json.string(state.id, escapingSlash: false)
            if let token = state.token {
                json.key("token")
                Self.write(token, into: &json)
            }
            if let sent = state.pushToStartSentAt {
                json.key("pushToStartSentAt")
                json.integer(sent)
            }
            if let dismissal = state.endDismissal {
                json.key("endDismissal")
                json.integer(dismissal)
            }
            json.endObject()
        }
        json.endObject()
        json.raw(UInt8(ascii: "\n"))
        return json.bytes
    }

    private static func write(_ entry: Entry, into json: inout JSONBytes) {
        json.beginObject()
        json.key("token")
        json.string(entry.token.hex)
        if let issuedAt = entry.issuedAt {
            json.key("issuedAt")
            json.integer(issuedAt)
        }
        json.key("registeredAt")
        json.integer(entry.registeredAt)
        if let unregisteredAt = entry.unregisteredAt {
            json.key("unregisteredAt")
            json.integer(unregisteredAt)
        }
        json.endObject()
    }

    /// Reads what `encoded()` wrote; the error names the key path at fault (never a token's text).
    public init(decoding bytes: [UInt8]) throws(TokenFileError) {
        let file: StoredRegistry
        do {
            file = try JSONDecoder().decode(StoredRegistry.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw TokenFileError(error)
        } catch {
            throw TokenFileError(message: "\(error)")
        }
        guard file.version == Self.formatVersion else {
            throw TokenFileError(message: "version: expected \(Self.formatVersion), got \(file.version)")
        }
        var activities: [ActivityState] = []
        for (index, stored) in file.activities.enumerated() {
            activities.append(ActivityState(id: stored.activity, token: try stored.token?.entry(at: "activities[\(index)].token"),
                                            pushToStartSentAt: stored.pushToStartSentAt, endDismissal: stored.endDismissal))
        }
        self.init(pushToStart: try file.pushToStart?.entry(at: "pushToStart"), activities: activities)
    }
}

/// Why a token file could not be read: a key path and what is wrong there.
public struct TokenFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    init(message: String) { self.message = message }

    init(_ error: DecodingError) { message = error.keyPathMessage }
}

private struct StoredRegistry: Decodable {
    var version: Int
    var pushToStart: StoredEntry?
    var activities: [StoredActivity]
}

private struct StoredActivity: Decodable {
    var activity: String
    var token: StoredEntry?
    var pushToStartSentAt: Int64?
    var endDismissal: Int64?
}

private struct StoredEntry: Decodable {
    var token: String
    var issuedAt: Int64?
    var registeredAt: Int64
    var unregisteredAt: Int64?

    func entry(at path: String) throws(TokenFileError) -> TokenRegistry.Entry {
        switch PushToken.parse(token) {
        case let .success(token):
            return TokenRegistry.Entry(token: token, issuedAt: issuedAt, registeredAt: registeredAt, unregisteredAt: unregisteredAt)
        case let .failure(problem):
            throw TokenFileError(message: "\(path).token: \(problem)")
        }
    }
}
