import Forwarding

/// Push-token requests from a surface that names an activity or a strap (HTTP), to the session
/// that has it, through `LiveSession.pushToken`, the entry point MQTT's topics use too.
extension SessionControls {
    /// `request` for the activity `activity`, in whichever session has it (blocks this thread): the
    /// first session that knows it answers; unknown to all, it is unknown.
    public func pushToken(_ request: PushTokenRequest, toActivity activity: String) -> Result<PushTokenReceipt, PushTokenRefusal> {
        for target in targets {
            let result: Result<PushTokenReceipt, PushTokenRefusal> = Self.wait { target.session.pushToken(request, reply: $0) }
            if case let .failure(refusal) = result, refusal.kind == .unknownActivity { continue }
            return result
        }
        return .failure(PushTokenRefusal(.unknownActivity, "no activity \(activity) in this run"))
    }

    /// `request` for the push-to-start token of the strap `strap` (nil: the run's only one).
    public func pushToken(_ request: PushTokenRequest, toStrap strap: String?) -> Result<PushTokenReceipt, PushTokenRefusal> {
        guard !targets.isEmpty else { return .failure(PushTokenRefusal(.unavailable, SinkControlRelay.notRunning)) }
        let chosen = targets(strap: strap)
        guard chosen.count == 1, let target = chosen.first else {
            let names = targets.map(\.name).joined(separator: ", ")
            return .failure(strap == nil
                ? PushTokenRefusal(.badRequest, "this run has several straps (\(names)): name one, PUT /v1/straps/{strap}/push-to-start-token")
                : PushTokenRefusal(.unknownActivity, "no strap \(strap!) in this run; it has \(names)"))
        }
        return Self.wait { target.session.pushToken(request, reply: $0) }
    }
}
