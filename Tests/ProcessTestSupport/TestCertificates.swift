import Foundation
import TestSupport

/// A throwaway CA and a server certificate for 127.0.0.1/localhost, made with the openssl CLI,
/// so the TLS tests verify a real chain against a CA file instead of switching verification off.
public struct TestCertificates {
    public let directory: TemporaryDirectory
    public var caFile: String { directory.path("ca.pem") }
    public var serverCertificate: String { directory.path("server.pem") }
    public var serverKey: String { directory.path("server-key.pem") }

    public static func make() throws -> TestCertificates {
        let directory = try TemporaryDirectory()
        let certificates = TestCertificates(directory: directory)
        let path = directory.path
        try runTool("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                                         "-nodes", "-keyout", path("ca-key.pem"), "-out", path("ca.pem"),
                                         "-days", "2", "-subj", "/CN=hrbridge test CA"])
        try runTool("/usr/bin/openssl", ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                         "-keyout", path("server-key.pem"), "-out", path("server.csr"), "-subj", "/CN=127.0.0.1"])
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: path("san.ext"), atomically: true, encoding: .utf8)
        try runTool("/usr/bin/openssl", ["x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"),
                                         "-CAkey", path("ca-key.pem"), "-CAcreateserial", "-out", path("server.pem"),
                                         "-days", "2", "-extfile", path("san.ext")])
        return certificates
    }

    /// A PKCS#8 PEM P-256 private key, the shape of an APNs `.p8` file.
    public static func makeAPNsKey(in directory: TemporaryDirectory, name: String = "AuthKey_TEST.p8") throws -> String {
        let path = directory.path(name)
        try runTool("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path])
        return path
    }
}
