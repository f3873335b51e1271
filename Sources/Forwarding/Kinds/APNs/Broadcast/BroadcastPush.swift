import LiveState
import Platform

/// One update as the broadcast path sends it: a start becomes a push-to-start that joins the new
/// activity to the strap's channel (when a push-to-start token is known), an update or an end one
/// publish on the channel. The channel, and so the request, is known only when it goes (`request`
/// methods); this is what the delivery queue orders and the spool keeps.
public struct BroadcastPush: Sendable, Equatable, Decodable {
    /// The APNs body: for a start the push-to-start's, whose `input-push-channel` is filled in
    /// when it goes; otherwise the broadcast's, as a token's push would carry it.
    public var body: [UInt8]
    /// The engine's priority (10 for start, end and a budgeted sensor-lost or -back).
    public var priority: Int
    /// The update's stale date (Unix seconds): when it expires at APNs on a channel that stores it.
    public var staleDate: Int64
    /// An end's dismissal date (Unix seconds): its channel is deleted after it.
    public var dismissalDate: Int64?

    /// What the push-to-start body holds in place of the channel id until the channel is known.
    static let channelPlaceholder = #""input-push-channel":"""#

    /// `POST /3/device/<start token>`: the push-to-start to one phone, joining its new activity to
    /// `channel`; headers as every Live Activity push to a token.
    func pushToStart(to token: PushToken, joining channel: String, settings: APNsSinkSettings) -> HTTPRequest {
        let body = PushBody.replacingFirst(Self.channelPlaceholder, with: #""input-push-channel":"\#(channel)""#, in: body)
        return HTTPRequest(url: "\(PushBody.base(settings.baseURL))/3/device/\(token.hex)", headers: [
            HTTPHeader("apns-push-type", "liveactivity"),
            HTTPHeader("apns-topic", settings.topic),
            HTTPHeader("apns-priority", String(priority)),
            HTTPHeader("apns-expiration", String(staleDate)),
            HTTPHeader("content-type", "application/json"),
        ], body: body)
    }

    /// `POST /4/broadcasts/apps/<bundle id>` with `apns-channel-id` (Apple, "Sending broadcast push
    /// notification requests to APNs"): no `apns-topic`, the bundle id is in the path. A channel that
    /// stores no message takes only `apns-expiration: 0`; one that keeps the latest keeps this
    /// update until its stale date. `urgent`: it replaced an unsent urgent update, and goes at 10.
    func broadcast(on channel: String, policy: MessageStoragePolicy, urgent: Bool, settings: APNsSinkSettings) -> HTTPRequest {
        let expiration = policy == .noMessageStored ? 0 : staleDate
        return HTTPRequest(url: "\(PushBody.base(settings.baseURL))/4/broadcasts/apps/\(settings.bundleID)", headers: [
            HTTPHeader("apns-push-type", "liveactivity"),
            HTTPHeader("apns-channel-id", channel),
            HTTPHeader("apns-priority", String(urgent ? ActivityUpdate.immediatePriority : priority)),
            HTTPHeader("apns-expiration", String(expiration)),
            HTTPHeader("content-type", "application/json"),
        ], body: body)
    }
}

/// Turns an update into the broadcast path's delivery: the same content state, dates, priority and
/// 4 KB check as a token's push (`APNsRequest`), the start as a push-to-start that joins a channel.
public enum BroadcastRequest {
    public static func delivery(for update: ActivityUpdate, settings: APNsSinkSettings) throws(SinkError) -> Delivery {
        let isStart = update.event == .start
        // The push-to-start's channel id comes when it goes: the transmitter checks the limit again then.
        let body = try PushBody.encode(update, sink: "apns-broadcast", service: "APNs", limit: APNsPayload.byteLimit) {
            try APNsPayload(update: update, pushToStart: isStart, joining: isStart ? "" : nil, settings: settings).encoded()
        }
        let push = BroadcastPush(body: body, priority: update.priority, staleDate: APNsPayload.unixSeconds(update.staleDate),
                                 dismissalDate: update.event == .end ? update.dismissalDate.map(APNsPayload.unixSeconds) : nil)
        return Delivery(for: update, message: push)
    }
}

extension BroadcastPush: DeliveryMessage {
    public static let spoolKey = "broadcast"

    public func write(to json: inout JSONBytes) {
        json.beginObject()
        json.key("body")
        json.byteArray(body)
        if let dismissalDate {
            json.key("dismissalDate")
            json.integer(dismissalDate)
        }
        json.key("priority")
        json.integer(priority)
        json.key("staleDate")
        json.integer(staleDate)
        json.endObject()
    }
}
