import COpenSSL
import Foundation

/// The team's APNs auth key (the `.p8` file Apple hands out: a PKCS#8 PEM EC P-256 private key),
/// signing through OpenSSL's libcrypto. Read-only after loading, so one key serves every thread.
public final class SigningKey: @unchecked Sendable {
    private let key: OpaquePointer

    /// Loads and checks the key: it must be an EC key on P-256, the only curve ES256 allows.
    public convenience init(contentsOfFile path: String) throws(SigningKeyError) {
        guard let pem = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
        try self.init(pem: pem, source: path)
    }

    public init(pem: Data, source: String = "key") throws(SigningKeyError) {
        if let problem = hrb_crypto_unavailable() { throw .libcryptoMissing(String(cString: problem)) }
        let loaded: OpaquePointer? = pem.withUnsafeBytes { bytes in
            guard let bio = hrb_BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { hrb_BIO_free(bio) }
            return hrb_PEM_read_bio_PrivateKey(bio)
        }
        guard let loaded else { throw .notAPrivateKey(source, Self.lastOpenSSLError()) }
        guard hrb_EVP_PKEY_get_base_id(loaded) == EVP_PKEY_EC, Self.curveName(of: loaded) == "prime256v1" else {
            hrb_EVP_PKEY_free(loaded)
            throw .wrongKeyType(source)
        }
        key = loaded
    }

    deinit { hrb_EVP_PKEY_free(key) }

    /// ECDSA P-256 over SHA-256, as JWS wants it (RFC 7518 §3.4): r and s, 32 bytes each, not DER.
    public func signES256(_ message: [UInt8]) throws(SigningKeyError) -> [UInt8] {
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
        return try Self.rawSignature(fromDER: Array(der[..<length]))
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
    case unreadable(String)
    case notAPrivateKey(String, String)
    case wrongKeyType(String)
    case signingFailed(String)
    /// libcrypto (loaded on first use) is not on this machine.
    case libcryptoMissing(String)

    public var description: String {
        switch self {
        case let .libcryptoMissing(detail): "the APNs sink signs with OpenSSL's libcrypto, which could not be loaded (\(detail)); install libssl3"
        case let .unreadable(path): "\(path): cannot read the APNs key file"
        case let .notAPrivateKey(source, detail): "\(source): not a PEM private key (\(detail))"
        case let .wrongKeyType(source): "\(source): not an EC P-256 key; APNs needs the .p8 key from the developer account"
        case let .signingFailed(detail): "ES256 signing failed: \(detail)"
        }
    }
}
