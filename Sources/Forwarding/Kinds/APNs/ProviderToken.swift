import FoundationEssentials
import Sensors

/// An APNs provider authentication token: a JWT signed ES256 with the team's key.
/// Header `{"alg":"ES256","kid":KEY_ID}`, claims `{"iat":SECONDS,"iss":TEAM_ID}`, `iat` a JSON
/// number (APNSwift sends a string; APNs documents a number).
public struct ProviderToken: Sendable, Equatable {
    public let text: String
    public let issuedAt: Timestamp

    private struct Header: Encodable {
        let alg = "ES256"
        let kid: String
    }

    private struct Claims: Encodable {
        let iss: String
        let iat: Int64
    }

    public static func sign(keyID: String, teamID: String, issuedAt: Timestamp, with key: SigningKey) throws(SigningKeyError) -> ProviderToken {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let seconds = issuedAt.microsecondsSinceUnixEpoch / Timestamp.microsecondsPerSecond
        // Encoding two structs of strings and an integer cannot fail.
        let header = (try? encoder.encode(Header(kid: keyID))) ?? Data()
        let claims = (try? encoder.encode(Claims(iss: teamID, iat: seconds))) ?? Data()
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(claims)
        let signature = try key.sign(Array(signingInput.utf8))
        return ProviderToken(text: signingInput + "." + Base64URL.encode(signature), issuedAt: issuedAt)
    }
}
