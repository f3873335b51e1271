import FoundationEssentials
import Platform
import LiveState

/// The lifecycle server contract (lifecycle-server.openapi.json): every update is
/// `POST {base}/activities/{activity}/{start|update|end}` with the NDJSON envelope as the body, an
/// `Idempotency-Key` of `{activity}:{sequence}` (the same for every retry, and across runs through
/// the spool) and the per-activity sequence in `Activity-Sequence`. The bearer token is added at
/// send time and is not part of what is queued or spooled.
public enum LifecycleRequest {
    public static func delivery(for encoded: EncodedUpdate, baseURL: String) throws(SinkError) -> Delivery {
        let update = encoded.update
        let body: [UInt8]
        do {
            body = try encoded.body()
        } catch {
            throw SinkError(sink: baseURL, message: "\(update.activityID)#\(update.sequence) not sent: \(error)")
        }
        let request = HTTPRequest(
            url: url(baseURL: baseURL, activityID: update.activityID, event: update.event.rawValue),
            headers: [
                HTTPHeader("Content-Type", "application/json"),
                HTTPHeader("Idempotency-Key", idempotencyKey(activityID: update.activityID, sequence: update.sequence)),
                HTTPHeader("Activity-Sequence", String(update.sequence)),
            ],
            body: body
        )
        return Delivery(for: update, message: request)
    }

    public static func url(baseURL: String, activityID: String, event: String) -> String {
        let activity = activityID.percentEncoded
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        return "\(base)/activities/\(activity)/\(event)"
    }

    public static func idempotencyKey(activityID: String, sequence: Int) -> String {
        "\(activityID):\(sequence)"
    }
}
