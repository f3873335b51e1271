import LiveState

/// A push service's body for one update, as every push sink makes it: encoded, and refused before it
/// costs a request when it is over the service's limit (APNs, and Airship and FCM in front of their
/// own, refuse more than 4 KB), with a message that says what to shorten.
enum PushBody {
    static func encode(_ update: ActivityUpdate, sink: String, service: String, limit: Int = 4096,
                       _ encode: () throws -> [UInt8]) throws(SinkError) -> [UInt8] {
        let body: [UInt8]
        do {
            body = try encode()
        } catch {
            throw SinkError(sink: sink, message: "\(update.activityID)#\(update.sequence) not sent: \(error)")
        }
        guard body.count <= limit else {
            throw SinkError(sink: sink, message: "\(update.activityID)#\(update.sequence) not sent: payload is \(body.count) bytes, "
                + "over the \(limit) \(service) takes; shorten the workout name or interval label")
        }
        return body
    }

    /// `body` with its first `member` (`"priority":5`) replaced by `replacement`: an update that
    /// replaced an unsent urgent one goes urgent. A `"key":` can only be a key: inside a JSON string
    /// every quote is escaped.
    static func replacingFirst(_ member: String, with replacement: String, in body: [UInt8]) -> [UInt8] {
        let old = Array(member.utf8)
        guard let start = body.indices.first(where: { body[$0...].starts(with: old) }) else { return body }
        return Array(body[..<start]) + Array(replacement.utf8) + Array(body[(start + old.count)...])
    }

    /// A configured base URL without its trailing slash, to put a path after.
    static func base(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}
