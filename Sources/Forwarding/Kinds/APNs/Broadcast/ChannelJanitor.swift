import Platform
import Sensors

/// Deletes the strap's free broadcast channels of one app when their time comes (the last end's
/// dismissal date), on a thread of its own so no push waits for it: 5xx and timeouts are tried again
/// on the unreachable backoff, 429 on the throttled one (`Retry-After` honoured), a channel APNs no
/// longer has counts as deleted. At the sink's finish it deletes what falls due within the grace,
/// and says what it leaves in the channel file for a later run (which reuses or deletes it) or
/// `hrbridge recover` (which deletes it).
final class ChannelJanitor: @unchecked Sendable {
    private let app: ChannelRegistry.App
    private let channels: ChannelBook
    private let schedules: DeliveryWorker.Settings
    private let now: @Sendable () -> Timestamp
    private let log: @Sendable (String) -> Void
    /// Channels APNs refused to delete for good (4xx): left for a later run, not tried again in
    /// this one. The janitor's thread alone uses it.
    private var refused: Set<String> = []
    // Guarded by `condition`.
    private let condition = ConditionLock()
    /// Monotonic seconds after which nothing more is deleted (set by `finish`).
    private var stopAt: Double?
    private var finished = false
    private var failures = 0
    private var throttles = 0
    /// Monotonic seconds before which no deletion is tried again (after a failure).
    private var retryAt: Double?

    /// Starts the thread; `makeClient` runs on it, so the client is that thread's alone.
    init(app: ChannelRegistry.App, channels: ChannelBook, schedules: DeliveryWorker.Settings, now: @escaping @Sendable () -> Timestamp,
         log: @escaping @Sendable (String) -> Void, makeClient: @escaping @Sendable () -> APNsClient) {
        self.app = app
        self.channels = channels
        self.schedules = schedules
        self.now = now
        self.log = log
        NamedThread.start("sink-channels") { [self] in
            run(makeClient())
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Something changed (an end freed a channel): look at the times again.
    func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Deletes what is due by `deadline` (monotonic seconds), then stops and says what stays. When
    /// the book is retiring (`recover`), every channel of the app whose activity is not in `owed`
    /// (an end still waiting on the broadcast path) is due now.
    func finish(until deadline: Double, owed: Set<String>) {
        if channels.retiring { channels.retire(app: app, keeping: owed, at: APNsPayload.unixSeconds(now())) }
        condition.lock()
        stopAt = deadline
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
        for channel in channels.snapshot.channels where channel.app == app {
            let until = channel.deleteAfter.map { "after \($0) (Unix time: its last end's dismissal date)" } ?? "while \(channel.activity ?? "?") is on it"
            log("sink \(BroadcastTransmitter.name): broadcast channel \(channel.id) stays, to be deleted \(until); the strap's next run "
                + "reuses or deletes it, 'hrbridge recover' deletes it")
        }
    }

    private func run(_ client: APNsClient) {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let monotonic = MonotonicClock.seconds()
            if let stopAt, monotonic >= stopAt { return }
            if let retryAt, monotonic < retryAt {
                condition.wait(until: min(retryAt, stopAt ?? .infinity))
                continue
            }
            let wall = now()
            let due = channels.claimDue(app: app, at: APNsPayload.unixSeconds(wall)).filter { channel in
                guard refused.contains(channel.id) else { return true }
                channels.finishedDeleting(channel.id, deleted: false)
                return false
            }
            guard !due.isEmpty else {
                let next = channels.snapshot.nextDeletion(app: app, excluding: refused)
                let nextAt = next.map { monotonic + Double($0) - Double(wall.microsecondsSinceUnixEpoch) / 1_000_000 }
                if let stopAt, (nextAt ?? .infinity) > stopAt { return } // nothing more falls due within the grace
                condition.wait(until: min(nextAt ?? .infinity, stopAt ?? .infinity))
                continue
            }
            condition.unlock()
            let outcomes = due.map { delete($0, client) }
            condition.lock()
            for outcome in outcomes { note(outcome) }
        }
    }

    private enum Deletion {
        case done
        case refused(String)
        case retry(String, throttled: Bool, retryAfter: Double?)
    }

    private func delete(_ channel: ChannelRegistry.Channel, _ client: APNsClient) -> Deletion {
        let deletion: Deletion
        switch client.send(ChannelManagement.delete(channel.id, app: app)) {
        case let .unsigned(text): deletion = .refused(text)
        case let .unanswered(text): deletion = .retry(text, throttled: false, retryAfter: nil)
        case let .answered(answer):
            let status = answer.response.status
            if (200..<300).contains(status) || status == 404 || answer.reason == ChannelManagement.notRegistered {
                let gone = (200..<300).contains(status) ? "" : " (APNs had it no longer: \(answer.text))"
                log("sink \(BroadcastTransmitter.name): deleted broadcast channel \(channel.id)\(gone)")
                deletion = .done
            } else if status == 429 || (500..<600).contains(status) {
                deletion = .retry(answer.text, throttled: status == 429, retryAfter: answer.response.headers["retry-after"].flatMap(Double.init))
            } else {
                deletion = .refused(answer.text)
            }
        }
        switch deletion {
        case .done: channels.finishedDeleting(channel.id, deleted: true)
        case let .refused(text):
            log("sink \(BroadcastTransmitter.name): APNs refused to delete broadcast channel \(channel.id): \(text); kept in the channel "
                + "file for a later run")
            refused.insert(channel.id)
            channels.finishedDeleting(channel.id, deleted: false)
        case let .retry(text, _, _):
            log("sink \(BroadcastTransmitter.name): broadcast channel \(channel.id) not deleted yet, trying again: \(text)")
            channels.finishedDeleting(channel.id, deleted: false)
        }
        return deletion
    }

    private func note(_ deletion: Deletion) {
        switch deletion {
        case .done, .refused:
            failures = 0
            throttles = 0
            retryAt = nil
        case let .retry(_, throttled, retryAfter):
            let backoff: Double
            if throttled {
                throttles += 1
                backoff = schedules.throttled.delay(afterFailures: throttles)
            } else {
                failures += 1
                backoff = schedules.unreachable.delay(afterFailures: failures)
            }
            retryAt = MonotonicClock.seconds() + DeliveryWorker.delay(backoff: backoff, retryAfter: retryAfter, cap: schedules.throttled.cap)
        }
    }
}
