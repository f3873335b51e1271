import Foundation
import ProcessTestSupport
import Sensors
import TestSupport
import Testing
@testable import Forwarding

@Suite(.timeLimit(.minutes(1))) struct ProviderTokenTests {
    @Test func signatureVerifiesWithPythonCryptographyAndClaimsAreNumbers() throws {
        let directory = try TemporaryDirectory()
        let keyPath = try TestCertificates.makeAPNsKey(in: directory)
        let publicKeyPath = directory.path("public.pem")
        try runTool("/usr/bin/openssl", ["pkey", "-in", keyPath, "-pubout", "-out", publicKeyPath])
        let key = try SigningKey(contentsOfFile: keyPath)
        let token = try ProviderToken.sign(keyID: "ABC123DEFG", teamID: "DEF123GHIJ",
                                           issuedAt: Timestamp(unixSeconds: 1_700_000_000), with: key)

        let verifier = TestScripts.path("verify_jwt.py")
        let output = try runTool("/usr/bin/python3", [verifier, publicKeyPath, token.text])
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [String: Any]])
        #expect(decoded["header"]?["alg"] as? String == "ES256")
        #expect(decoded["header"]?["kid"] as? String == "ABC123DEFG")
        #expect(decoded["claims"]?["iss"] as? String == "DEF123GHIJ")
        // A JSON number, not the string "1700000000".
        #expect(decoded["claims"]?["iat"] as? Int == 1_700_000_000)
        #expect(!(decoded["claims"]?["iat"] is String))
    }

    @Test func aTamperedTokenFailsIndependentVerification() throws {
        let directory = try TemporaryDirectory()
        let keyPath = try TestCertificates.makeAPNsKey(in: directory)
        let otherKeyPath = try TestCertificates.makeAPNsKey(in: directory, name: "other.p8")
        let otherPublic = directory.path("other.pem")
        try runTool("/usr/bin/openssl", ["pkey", "-in", otherKeyPath, "-pubout", "-out", otherPublic])
        let token = try ProviderToken.sign(keyID: "K", teamID: "T", issuedAt: Timestamp(unixSeconds: 1), with: SigningKey(contentsOfFile: keyPath))
        let verifier = TestScripts.path("verify_jwt.py")
        #expect(throws: ToolError.self) { try runTool("/usr/bin/python3", [verifier, otherPublic, token.text]) }
    }

    @Test func rejectsKeysThatAreNotP256() throws {
        let directory = try TemporaryDirectory()
        let rsa = directory.path("rsa.pem")
        try runTool("/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", rsa])
        #expect(throws: SigningKeyError.wrongKeyType(rsa, .es256)) { try SigningKey(contentsOfFile: rsa) }
        #expect(throws: SigningKeyError.unreadable("/nonexistent.p8", .es256)) { try SigningKey(contentsOfFile: "/nonexistent.p8") }
        #expect(throws: SigningKeyError.self) { try SigningKey(pem: Data("not a key".utf8)) }
    }

    /// (renewal age asked, minutes since issue, reusable?)
    static let renewalTable: [(Double, Double, Bool)] = [
        (50, 0, true),
        (50, 49, true),
        (50, 50, false),
        (5, 19, true),    // clamped up to 20 min: APNs limits renewals
        (90, 56, false),  // clamped down to 55 min: APNs expires tokens at 60
        (50, -0.5, false), // clock went backwards: sign afresh
    ]

    @Test func renewalPolicy() {
        let issued = Timestamp(unixSeconds: 1_000_000)
        for (renewalMinutes, ageMinutes, reusable) in Self.renewalTable {
            let policy = ProviderTokenPolicy(renewalAge: renewalMinutes * 60)
            #expect(policy.canReuse(issuedAt: issued, at: issued.adding(seconds: ageMinutes * 60)) == reusable,
                    "renewal \(renewalMinutes) min, age \(ageMinutes) min")
        }
    }

    @Test func sourceReusesThenRenews() throws {
        let directory = try TemporaryDirectory()
        let keyPath = try TestCertificates.makeAPNsKey(in: directory)
        let source = ProviderTokenSource(key: try SigningKey(contentsOfFile: keyPath), keyID: "K", teamID: "T")
        let start = Timestamp(unixSeconds: 1_700_000_000)
        let first = try source.token(at: start)
        #expect(try source.token(at: start.adding(seconds: 30 * 60)) == first)
        let renewed = try source.token(at: start.adding(seconds: 51 * 60))
        #expect(renewed != first)
        #expect(renewed.issuedAt == start.adding(seconds: 51 * 60))
        let forced = try source.renew(at: start.adding(seconds: 52 * 60))
        #expect(try source.token(at: start.adding(seconds: 53 * 60)) == forced)
    }
}
