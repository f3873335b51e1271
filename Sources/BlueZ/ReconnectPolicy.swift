import DBus

/// Every decision about when to retry, how long to wait and what counts as fatal, in one
/// place (the link itself only asks). Pure: attempts and a random draw in, delays out.
public struct ReconnectPolicy: Sendable {
    /// Delay before attempt n+1 after n consecutive failures, before jitter. Starts short
    /// (most drops are one-off aborts), doubles, and caps at 30 s so a strap that comes back
    /// is picked up within half a minute.
    public var backoff: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(15), .seconds(30)]
    /// After `le-connection-abort-by-local` and friends: the link is fine, retry almost at once.
    public var shortBackoff: Duration = .milliseconds(250)
    /// ± this fraction of the delay, so several straps (or hosts) do not retry in lockstep.
    public var jitterFraction = 0.2
    /// How long Connect → ServicesResolved and the 0x2A37 object may take before we disconnect
    /// and retry (BlueZ resolves a strap's few services in 1–5 s; a stuck one never does).
    public var servicesResolvedTimeout: Duration = .seconds(15)
    /// No notification for this long while "connected" means the link is dead whatever
    /// `Connected` says (straps notify about once a second).
    public var silenceTimeout: Duration = .seconds(10)
    /// The same for the distance sensor beside a strap: a bike sensor stops notifying while the
    /// wheel stands and many pods while their wearer stands, so a minute at a traffic light is a
    /// pause, not a dead link (the updates keep its distance meanwhile).
    public var distanceSensorSilenceTimeout: Duration = .seconds(60)
    /// After the link drops, how long to keep reading the AcquireNotify socket for values
    /// bluetoothd queued before it hung the socket up: they were sent while connected.
    public var socketDrainTimeout: Duration = .seconds(1)
    /// After Connect answered InProgress (bluetoothd still has an attempt of its own, ours from
    /// before or another client's): the fixed wait between tries. Attempts take up to ~30 s; a
    /// growing backoff would only add up, and a short one would hit the same attempt again.
    public var inProgressPatience: Duration = .seconds(5)
    /// How long discovery runs when the strap is not yet known to bluetoothd.
    public var discoveryWindow: Duration = .seconds(10)
    /// SIGINT/SIGTERM to notifications stopped and Disconnect sent.
    public var shutdownDeadline: Duration = .seconds(2)

    public init() {}

    public enum Verdict: Sendable, Equatable {
        /// Try again after the backoff for this attempt.
        case retry
        /// Try again soon: the failure says nothing about the strap.
        case retrySoon
        /// The adapter is off or gone: wait for it, then retry.
        case waitForAdapter
        /// bluetoothd is not on the bus: wait for it to come back.
        case waitForBlueZ
        /// An attempt is already under way (InProgress): clean up once, then wait patiently.
        case waitPatiently
        /// The operation already holds (AlreadyConnected): carry on.
        case proceed
        /// Retrying cannot help (no permission, bad request).
        case fatal
    }

    /// Sorts BlueZ's and the bus's errors (bluez doc/org.bluez.*.rst "Possible errors").
    public func classify(_ error: BusError) -> Verdict {
        if error.isTimeout { return .retry }
        guard case let .remote(name, message) = error else {
            return error == .disconnected ? .fatal : .retry
        }
        switch name {
        case "org.bluez.Error.AlreadyConnected", "org.bluez.Error.AlreadyExists":
            return .proceed
        case "org.bluez.Error.Failed" where Self.abortMessages.contains(where: message.contains):
            return .retrySoon
        case "org.bluez.Error.InProgress":
            return .waitPatiently
        case "org.bluez.Error.Failed", "org.bluez.Error.NotConnected",
             "org.bluez.Error.NotPermitted", "org.bluez.Error.NotAvailable",
             "org.freedesktop.DBus.Error.UnknownObject", BusErrorName.unknownMethod:
            return .retry
        case "org.bluez.Error.NotReady", "org.bluez.Error.Busy":
            return .waitForAdapter
        case BusErrorName.serviceUnknown, BusErrorName.nameHasNoOwner:
            return .waitForBlueZ
        case BusErrorName.accessDenied, "org.bluez.Error.NotAuthorized", "org.bluez.Error.InvalidArguments":
            return .fatal
        default:
            return .retry
        }
    }

    /// The wait before the next attempt after `failures` consecutive failures (1 = first).
    /// `random` is a draw in 0..<1 (injected so that tests are exact).
    public func delay(afterFailures failures: Int, verdict: Verdict, random: Double) -> Duration {
        let base: Duration = switch verdict {
        case .retrySoon, .proceed: shortBackoff
        case .waitPatiently: inProgressPatience
        default: backoff[min(max(failures, 1), backoff.count) - 1]
        }
        let factor = 1 + jitterFraction * (2 * random - 1)
        return base * factor
    }

    /// Errors that mean our side aborted the connection attempt, not that the strap is gone.
    static let abortMessages = ["le-connection-abort-by-local", "Software caused connection abort", "Operation already in progress"]
}
