import BlueZ
import DBus
import Testing

@Suite struct ReconnectPolicyTests {
    let policy = ReconnectPolicy()

    @Test(arguments: [
        (BusError.remote(name: "org.bluez.Error.InProgress", message: "In Progress"), ReconnectPolicy.Verdict.waitPatiently),
        (.remote(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local"), .retrySoon),
        (.remote(name: "org.bluez.Error.Failed", message: "Software caused connection abort"), .retrySoon),
        (.remote(name: "org.bluez.Error.Failed", message: "Page Timeout"), .retry),
        (.remote(name: "org.bluez.Error.NotReady", message: "Resource Not Ready"), .waitForAdapter),
        (.remote(name: "org.bluez.Error.NotPermitted", message: "Notify acquired"), .retry),
        (.remote(name: "org.bluez.Error.NotConnected", message: "Not Connected"), .retry),
        (.remote(name: "org.bluez.Error.AlreadyConnected", message: ""), .proceed),
        (.remote(name: "org.freedesktop.DBus.Error.NoReply", message: "timeout"), .retry),
        (.remote(name: "org.freedesktop.DBus.Error.ServiceUnknown", message: ""), .waitForBlueZ),
        (.remote(name: "org.freedesktop.DBus.Error.AccessDenied", message: "denied"), .fatal),
        (.disconnected, .fatal),
    ])
    func classifies(_ error: BusError, as verdict: ReconnectPolicy.Verdict) {
        #expect(policy.classify(error) == verdict)
    }

    @Test(arguments: [
        (1, 0.5, Duration.milliseconds(500)), (2, 0.5, .seconds(1)), (3, 0.5, .seconds(2)),
        (7, 0.5, .seconds(30)), (50, 0.5, .seconds(30)),
        (1, 0.0, .milliseconds(400)), (1, 1.0, .milliseconds(600)),
    ])
    func backsOffExponentiallyWithCappedJitter(failures: Int, random: Double, expected: Duration) {
        #expect(policy.delay(afterFailures: failures, verdict: .retry, random: random) == expected)
    }

    @Test func abortsRetrySoonWhateverTheCount() {
        #expect(policy.delay(afterFailures: 6, verdict: .retrySoon, random: 0.5) == .milliseconds(250))
    }

    @Test func inProgressWaitsTheSamePatientTimeWhateverTheCount() {
        for failures in [1, 2, 9] {
            #expect(policy.delay(afterFailures: failures, verdict: .waitPatiently, random: 0.5) == .seconds(5))
        }
    }
}
