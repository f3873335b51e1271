import Platform
import FoundationEssentials

/// A Google service-account key file (the JSON the Firebase console downloads): who signs the OAuth
/// assertion, with which key, for which project, and where the token is exchanged. Only these fields
/// are read; the private key is kept as a loaded key, never as text.
public struct FCMServiceAccount: Sendable {
    public let projectID: String
    public let clientEmail: String
    public let keyID: String?
    public let tokenURI: String
    let key: SigningKey

    private struct File: Decodable {
        let type: String?
        let project_id: String
        let private_key_id: String?
        let private_key: String
        let client_email: String
        let token_uri: String?
    }

    /// Google's OAuth token endpoint, when the file does not name one.
    public static let defaultTokenURI = "https://oauth2.googleapis.com/token"

    public init(contentsOfFile path: String) throws(SinkSetupError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable("\(path): cannot read the FCM service-account key file") }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw .invalid("\(path): not a service-account key file (expected JSON with project_id, private_key and client_email)")
        }
        guard file.type == nil || file.type == "service_account" else {
            throw .invalid("\(path): \"type\" is \(file.type!.jsonQuoted), expected \"service_account\"")
        }
        do {
            key = try SigningKey(pem: Data(file.private_key.utf8), source: "\(path) private_key", algorithm: .rs256)
        } catch {
            if case .libcryptoMissing = error { throw .unavailable(error.description) }
            throw .invalid(error.description)
        }
        projectID = file.project_id
        clientEmail = file.client_email
        keyID = file.private_key_id
        tokenURI = file.token_uri ?? Self.defaultTokenURI
    }
}
