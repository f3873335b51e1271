import LiveState
import SinkVocabulary

/// Turns an update into Airship's push request: `POST {base}/api/push` with API v3's `Accept`, the
/// Live Activity payload, and nothing secret: the authorization is added at send time, so what is
/// queued or spooled holds no credential.
public enum AirshipRequest {
    public static func delivery(for update: ActivityUpdate, settings: AirshipSinkSettings) throws(SinkError) -> Delivery {
        // Airship hands the payload to APNs, which refuses more than 4 KB: refused here before it bills a message.
        let body = try PushBody.encode(update, sink: "airship", service: "APNs") { try AirshipPayload(update: update, settings: settings).encoded() }
        let request = HTTPRequest(
            url: "\(PushBody.base(settings.baseURL))/api/push",
            headers: [
                HTTPHeader("Accept", "application/vnd.urbanairship+json; version=3"),
                HTTPHeader("Content-Type", "application/json"),
            ],
            body: body
        )
        return Delivery(for: update, message: request)
    }
}
