import Platform
import Testing

/// The links' timeouts and retry delays sleep through `TaskSleep`: it must last at least as asked,
/// and a cancelled sleep must end at once (its timer taken away), before it began or during it.
@Suite(.timeLimit(.minutes(1))) struct TaskSleepTests {
    @Test func lastsAtLeastTheDuration() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        try await TaskSleep.sleep(for: .milliseconds(50))
        #expect(clock.now - started >= .milliseconds(50))
    }

    @Test func cancelledDuringTheSleepEndsAtOnce() async {
        let clock = ContinuousClock()
        let started = clock.now
        let sleeping = Task { () -> Bool in
            do { try await TaskSleep.sleep(for: .seconds(60)) } catch { return true }
            return false
        }
        try? await Task.sleep(for: .milliseconds(20))
        sleeping.cancel()
        #expect(await sleeping.value, "the sleep threw CancellationError")
        #expect(clock.now - started < .seconds(10))
    }

    @Test func cancelledBeforeItBeganThrows() async {
        let sleeping = Task { () -> Bool in
            withUnsafeCurrentTask { $0?.cancel() }
            do { try await TaskSleep.sleep(for: .seconds(60)) } catch { return true }
            return false
        }
        #expect(await sleeping.value)
    }
}
