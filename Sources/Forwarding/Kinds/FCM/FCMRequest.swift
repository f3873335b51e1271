import LiveState

/// Turns an update into `POST {base}/v1/projects/{project}/messages:send`; the OAuth access token is
/// added at send time, so nothing queued or spooled holds it.
enum FCMRequest {
    static func delivery(for update: ActivityUpdate, target: FCMMessage.Target, project: String, baseURL: String) throws(SinkError) -> Delivery {
        let body = try PushBody.encode(update, sink: "fcm", service: "FCM", limit: FCMMessage.byteLimit) {
            FCMMessage(update: update, target: target).encoded()
        }
        let request = HTTPRequest(url: "\(PushBody.base(baseURL))/v1/projects/\(project)/messages:send",
                                  headers: [HTTPHeader("Content-Type", "application/json")], body: body)
        return Delivery(for: update, message: request)
    }
}
