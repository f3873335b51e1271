import COpenSSL
import FoundationEssentials

/// How a JWT is signed (RFC 7518 §3.1), and the key each way needs.
public enum JWSAlgorithm: String, Sendable, Equatable {
    /// ECDSA P-256 with SHA-256: APNs provider tokens, with the team's .p8 key.
    case es256 = "ES256"
    /// RSASSA-PKCS1-v1_5 with SHA-256: Google's OAuth assertions, with a service account's key.
    case rs256 = "RS256"

    /// Who signs this way, for messages.
    var signer: String { self == .es256 ? "APNs" : "FCM" }

    var expectedKey: String {
        switch self {
        case .es256: "an EC P-256 key; APNs needs the .p8 key from the developer account"
        case .rs256: "an RSA key; FCM needs the private_key of a Google service-account key file"
        }
    }
}

/// A private key that signs JWTs through OpenSSL's libcrypto: the team's APNs auth key (the `.p8`
/// file Apple hands out: a PKCS#8 PEM EC P-256 key) or a Google service account's RSA key. Read-only
/// after loading, so one key serves every thread.
public final class SigningKey: @unchecked Sendable {
    private let key: OpaquePointer
    public let algorithm: JWSAlgorithm

    /// Loads and checks the key: for ES256 an EC key on P-256, the only curve it allows; for RS256 RSA.
    public convenience init(contentsOfFile path: String, algorithm: JWSAlgorithm = .es256) throws(SigningKeyError) {
        guard let pem = FileManager.default.contents(atPath: path) else { throw .unreadable(path, algorithm) }
        try self.init(pem: pem, source: path, algorithm: algorithm)
    }

    public init(pem: Data, source: String = "key", algorithm: JWSAlgorithm = .es256) throws(SigningKeyError) {
        if let problem = hrb_crypto_unavailable() { throw .libcryptoMissing(String(cString: problem), algorithm) }
        let loaded: OpaquePointer? = pem.withUnsafeBytes { bytes in
            guard let bio = hrb_BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { hrb_BIO_free(bio) }
            return hrb_PEM_read_bio_PrivateKey(bio)
        }
        guard let loaded else { throw .notAPrivateKey(source, Self.lastOpenSSLError()) }
        let fits = switch algorithm {
        case .es256: hrb_EVP_PKEY_get_base_id(loaded) == EVP_PKEY_EC && Self.curveName(of: loaded) == "prime256v1"
        case .rs256: hrb_EVP_PKEY_get_base_id(loaded) == EVP_PKEY_RSA
        }
        guard fits else {
            hrb_EVP_PKEY_free(loaded)
            throw .wrongKeyType(source, algorithm)
        }
        key = loaded
        self.algorithm = algorithm
    }

    deinit { hrb_EVP_PKEY_free(key) }

    /// The JWS signature of `message`: for ES256 r and s, 32 bytes each, not DER (RFC 7518 §3.4);
    /// for RS256 the PKCS#1 v1.5 signature, which is EVP's default padding for an RSA key.
    public func sign(_ message: [UInt8]) throws(SigningKeyError) -> [UInt8] {
        guard let context = hrb_EVP_MD_CTX_new() else { throw .signingFailed(Self.lastOpenSSLError()) }
        defer { hrb_EVP_MD_CTX_free(context) }
        guard hrb_EVP_DigestSignInit_sha256(context, key) == 1 else {
            throw .signingFailed(Self.lastOpenSSLError())
        }
        var length = 0
        guard hrb_EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw .signingFailed(Self.lastOpenSSLError())
        }
        var der = [UInt8](repeating: 0, count: length)
        guard hrb_EVP_DigestSign(context, &der, &length, message, message.count) == 1 else {
            throw .signingFailed(Self.lastOpenSSLError())
        }
        let signature = Array(der[..<length])
        return algorithm == .es256 ? try Self.rawSignature(fromDER: signature) : signature
    }

    private static func rawSignature(fromDER der: [UInt8]) throws(SigningKeyError) -> [UInt8] {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return hrb_d2i_ECDSA_SIG(&cursor, buffer.count)
        }
        guard let parsed else { throw .signingFailed(lastOpenSSLError()) }
        defer { hrb_ECDSA_SIG_free(parsed) }
        var raw = [UInt8](repeating: 0, count: 64)
        let written = raw.withUnsafeMutableBufferPointer { buffer in
            hrb_ECDSA_SIG_raw(parsed, buffer.baseAddress, buffer.baseAddress! + 32, 32)
        }
        guard written == 64 else { throw .signingFailed("signature component longer than 32 bytes") }
        return raw
    }

    private static func curveName(of key: OpaquePointer) -> String? {
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard hrb_EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, &name, name.count, &length) == 1 else {
            return nil
        }
        return String(decoding: name[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func lastOpenSSLError() -> String {
        let code = hrb_ERR_get_error()
        guard code != 0 else { return "no detail from OpenSSL" }
        var text = [CChar](repeating: 0, count: 256)
        hrb_ERR_error_string_n(code, &text, text.count)
        hrb_ERR_clear_error()
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

public enum SigningKeyError: Error, CustomStringConvertible, Equatable {
    case unreadable(String, JWSAlgorithm)
    case notAPrivateKey(String, String)
    case wrongKeyType(String, JWSAlgorithm)
    case signingFailed(String)
    /// libcrypto (loaded on first use) is not on this machine.
    case libcryptoMissing(String, JWSAlgorithm)

    public var description: String {
        switch self {
        case let .libcryptoMissing(detail, algorithm):
            "the \(algorithm.signer) sink signs with OpenSSL's libcrypto, which could not be loaded (\(detail)); install libssl3"
        case let .unreadable(path, algorithm): "\(path): cannot read the \(algorithm.signer) key file"
        case let .notAPrivateKey(source, detail): "\(source): not a PEM private key (\(detail))"
        case let .wrongKeyType(source, algorithm): "\(source): not \(algorithm.expectedKey)"
        case let .signingFailed(detail): "signing failed: \(detail)"
        }
    }
}
