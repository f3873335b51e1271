@testable import Forwarding

/// Backoff scaled down ~20× so fault runs take seconds; the servers, sockets and failures are real.
enum FastDelivery {
    static let settings = DeliveryWorker.Settings(
        queueCapacity: 64,
        unreachable: RetrySchedule(initial: 0.05, cap: 0.2),
        throttled: RetrySchedule(initial: 0.1, cap: 0.3)
    )
}
