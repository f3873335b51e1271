import Platform
import Sensors

/// An APNs provider authentication token: a JWT signed ES256 with the team's key.
/// Header `{"alg":"ES256","kid":KEY_ID}`, claims `{"iat":SECONDS,"iss":TEAM_ID}`, `iat` a JSON
/// number (APNSwift sends a string; APNs documents a number).
public struct ProviderToken: Sendable, Equatable {
    public let text: String
    public let issuedAt: Timestamp

    public static func sign(keyID: String, teamID: String, issuedAt: Timestamp, with key: SigningKey) throws(SigningKeyError) -> ProviderToken {
        let seconds = issuedAt.microsecondsSinceUnixEpoch / Timestamp.microsecondsPerSecond
        var header = JSONBytes(capacity: 48)
        header.beginObject()
        header.key("alg")
        header.string("ES256")
        header.key("kid")
        header.string(keyID, escapingSlash: false)
        header.endObject()
        var claims = JSONBytes(capacity: 48)
        claims.beginObject()
        claims.key("iat")
        claims.integer(seconds)
        claims.key("iss")
        claims.string(teamID, escapingSlash: false)
        claims.endObject()
        let signingInput = Base64URL.encode(header.bytes) + "." + Base64URL.encode(claims.bytes)
        let signature = try key.sign(Array(signingInput.utf8))
        return ProviderToken(text: signingInput + "." + Base64URL.encode(signature), issuedAt: issuedAt)
    }
}
