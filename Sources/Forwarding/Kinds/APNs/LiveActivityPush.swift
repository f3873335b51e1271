import Platform

/// A Live Activity push whose device token is picked when it is sent, not when it is made: the
/// activity's token may be registered, rotated or unregistered while the push waits (`TokenRoutes`).
/// It holds the request without the token in its path and, for a start, both bodies: the
/// push-to-start (to the phone's push-to-start token) and the update (to the activity's own token,
/// when the app started it itself). What the delivery queue orders and the spool keeps.
public struct LiveActivityPush: Sendable, Equatable, Decodable {
    /// The server, without a trailing slash (`https://api.push.apple.com`).
    public var baseURL: String
    /// Everything but the authorization, which is added at send time.
    public var headers: [HTTPHeader]
    /// To the activity's own token: event `update` (for a start too), or `end`.
    public var body: [UInt8]
    /// A start only: event `start` with attributes, alert and `input-push-token`.
    public var pushToStartBody: [UInt8]?
    /// An end only: its dismissal date (Unix seconds), after which waiting for a token is pointless.
    public var dismissalDate: Int64?

    public init(baseURL: String, headers: [HTTPHeader], body: [UInt8], pushToStartBody: [UInt8]? = nil, dismissalDate: Int64? = nil) {
        self.baseURL = baseURL
        self.headers = headers
        self.body = body
        self.pushToStartBody = pushToStartBody
        self.dismissalDate = dismissalDate
    }

    public var isStart: Bool { pushToStartBody != nil }

    /// The request to `token`: `POST /3/device/<token>`, the push-to-start body when `pushToStart`.
    func request(to token: PushToken, pushToStart: Bool) -> HTTPRequest {
        HTTPRequest(url: "\(baseURL)/3/device/\(token.hex)", headers: headers,
                    body: pushToStart ? (pushToStartBody ?? body) : body)
    }
}

extension LiveActivityPush: DeliveryMessage {
    public static let spoolKey = "liveActivity"

    public func write(to json: inout JSONBytes) {
        json.beginObject()
        json.key("baseURL")
        json.string(baseURL, escapingSlash: false)
        json.key("body")
        json.byteArray(body)
        if let dismissalDate {
            json.key("dismissalDate")
            json.integer(dismissalDate)
        }
        json.key("headers")
        HTTPHeader.write(headers, to: &json)
        if let pushToStartBody {
            json.key("pushToStartBody")
            json.byteArray(pushToStartBody)
        }
        json.endObject()
    }
}
