/// A push-token registration as a surface received it — MQTT's `<prefix>/<strap>/push-token` and
/// `…/push-to-start-token` topics, the HTTP routes `PUT|DELETE /v1/activities/{activity}/push-token`
/// and `/v1/push-to-start-token` — before anything is parsed: which token, and the JSON body
/// `{"token": HEX, "issuedAt": UNIX_S?, "activity": ID?}` as it came. The session parses, checks and
/// applies it, one way for every surface (`LiveSession.pushToken`).
public struct PushTokenRequest: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        /// An activity's update token. nil: the activity the body names (`activity`), else the
        /// strap's current one (the one awaiting its token, else the newest).
        case activity(String?)
        case pushToStart
    }

    public enum Action: Sendable, Equatable {
        case register(body: [UInt8])
        case forget
    }

    public var target: Target
    public var action: Action
    /// Where it came from, for the log line (`mqtt hrbridge/gym/strap-a/push-token`).
    public var origin: String

    public init(_ action: Action, for target: Target, origin: String) {
        self.target = target
        self.action = action
        self.origin = origin
    }
}

/// What a request came to (HTTP answers 200 with it; MQTT logs it): never the token itself.
public struct PushTokenReceipt: Sendable, Equatable {
    public enum Change: String, Sendable, Equatable {
        case registered
        /// The same token again.
        case unchanged
        case forgotten
        /// A forget with nothing to forget.
        case absent
    }

    /// The activity, or nil for the push-to-start token.
    public var activity: String?
    public var change: Change
    /// The activity's token status after it (nil for the push-to-start token).
    public var status: TokenStatus?

    public init(activity: String?, change: Change, status: TokenStatus?) {
        self.activity = activity
        self.change = change
        self.status = status
    }
}

/// Why a request was not applied; each kind is one HTTP status.
public struct PushTokenRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Not the JSON asked for, not a token: 400.
        case badRequest
        /// No such activity on this strap: 404.
        case unknownActivity
        /// Older than the token in place, or one APNs unregistered: 409.
        case conflict
        /// Nothing to register with (no session running, no state directory writable): 503.
        case unavailable
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
