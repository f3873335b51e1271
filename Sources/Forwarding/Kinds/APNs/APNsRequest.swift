import LiveState
import SinkVocabulary

/// Turns an update into the APNs push for it (the app's design notes, DESIGN.md §5): `POST /3/device/<token>` with
/// `apns-push-type: liveactivity`, `apns-topic: <bundle>.push-type.liveactivity`, `apns-priority`
/// (the engine's: 10 for start, end and budgeted sensor-lost/back), and `apns-expiration` = the stale date,
/// after which the content is outdated anyway. The token is picked at send time (`TokenRoutes`),
/// the provider token added then too.
public enum APNsRequest {
    /// `everyEvent` false (tokens only from files): nil for what no configured token takes (an update
    /// with only a push-to-start token), as it would never go anywhere. True (tokens registered at
    /// run time): every update waits for its token. `startsByPush` false: a start is never a
    /// push-to-start here (the broadcast path's joins the channel instead).
    public static func delivery(for update: ActivityUpdate, settings: APNsSinkSettings,
                                everyEvent: Bool = false, startsByPush: Bool = true) throws(SinkError) -> Delivery? {
        let pushToStart = startsByPush && update.event == .start && (everyEvent || settings.pushToStartToken != nil)
        guard everyEvent || pushToStart || settings.deviceToken != nil else { return nil }
        func encode(pushToStart: Bool) throws(SinkError) -> [UInt8] {
            try PushBody.encode(update, sink: "apns", service: "APNs", limit: APNsPayload.byteLimit) {
                try APNsPayload(update: update, pushToStart: pushToStart, settings: settings).encoded()
            }
        }
        let push = LiveActivityPush(
            baseURL: PushBody.base(settings.baseURL),
            headers: [
                HTTPHeader("apns-push-type", "liveactivity"),
                HTTPHeader("apns-topic", settings.topic),
                HTTPHeader("apns-priority", String(update.priority)), // the engine's push budget decides it
                HTTPHeader("apns-expiration", String(APNsPayload.unixSeconds(update.staleDate))),
                HTTPHeader("content-type", "application/json"),
            ],
            body: try encode(pushToStart: false),
            pushToStartBody: pushToStart ? try encode(pushToStart: true) : nil,
            dismissalDate: update.event == .end ? update.dismissalDate.map(APNsPayload.unixSeconds) : nil
        )
        return Delivery(for: update, message: push)
    }
}
