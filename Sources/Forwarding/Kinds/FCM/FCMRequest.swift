import LiveState

/// Turns an update into `POST {base}/v1/projects/{project}/messages:send`; the OAuth access token is
/// added at send time, so nothing queued or spooled holds it.
enum FCMRequest {
    static func delivery(for update: ActivityUpdate, target: FCMMessage.Target, project: String, baseURL: String) throws(SinkError) -> Delivery {
        let body: [UInt8]
        do {
            body = try FCMMessage(update: update, target: target).encoded()
        } catch {
            throw SinkError(sink: "fcm", message: "\(update.activityID)#\(update.sequence) not sent: \(error)")
        }
        guard body.count <= FCMMessage.byteLimit else {
            throw SinkError(sink: "fcm", message: "\(update.activityID)#\(update.sequence) not sent: message is \(body.count) bytes, "
                + "over FCM's \(FCMMessage.byteLimit); shorten the workout name or interval label")
        }
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        let request = HTTPRequest(url: "\(base)/v1/projects/\(project)/messages:send",
                                  headers: [HTTPHeader("Content-Type", "application/json")], body: body)
        return Delivery(for: update, request: request)
    }
}
