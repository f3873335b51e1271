import LiveState
import SinkVocabulary

/// Turns an update into the APNs request for it (`../shared/DESIGN.md` §5): `POST /3/device/<token>` with
/// `apns-push-type: liveactivity`, `apns-topic: <bundle>.push-type.liveactivity`, `apns-priority`
/// (the engine's: 10 for start, end and budgeted sensor-lost/back), and `apns-expiration` = the stale date,
/// after which the content is outdated anyway. The provider token is added at send time.
public enum APNsRequest {
    /// nil when no configured token takes this event (an update with only a push-to-start token).
    public static func delivery(for update: ActivityUpdate, settings: APNsSinkSettings) throws(SinkError) -> Delivery? {
        let pushToStart = update.event == .start && settings.pushToStartToken != nil
        guard let token = pushToStart ? settings.pushToStartToken : settings.deviceToken else { return nil }
        let body = try PushBody.encode(update, sink: "apns", service: "APNs", limit: APNsPayload.byteLimit) {
            try APNsPayload(update: update, pushToStart: pushToStart, settings: settings).encoded()
        }
        let request = HTTPRequest(
            url: "\(PushBody.base(settings.baseURL))/3/device/\(token)",
            headers: [
                HTTPHeader("apns-push-type", "liveactivity"),
                HTTPHeader("apns-topic", settings.topic),
                HTTPHeader("apns-priority", String(update.priority)), // the engine's push budget decides it
                HTTPHeader("apns-expiration", String(APNsPayload.unixSeconds(update.staleDate))),
                HTTPHeader("content-type", "application/json"),
            ],
            body: body
        )
        return Delivery(for: update, request: request)
    }
}
