import Platform
import Testing

struct ListenAddressTests {
    @Test func addressesParseAndSayWhetherTheyAreLoopback() throws {
        let cases: [(String, String, Bool)] = [
            ("127.0.0.1:8787", "127.0.0.1:8787", true),
            ("127.8.9.10:0", "127.8.9.10:0", true),
            ("localhost:80", "127.0.0.1:80", true),
            ("[::1]:8787", "[::1]:8787", true),
            ("[::ffff:127.0.0.1]:1", "[::ffff:127.0.0.1]:1", true),
            ("0.0.0.0:8787", "0.0.0.0:8787", false),
            ("192.168.1.20:65535", "192.168.1.20:65535", false),
            ("[::]:8787", "[::]:8787", false),
            ("[fe80::1]:8787", "[fe80::1]:8787", false),
        ]
        for (text, printed, loopback) in cases {
            let address = try ListenAddress(parsing: text)
            #expect(address.description == printed, "\(text)")
            #expect(address.isLoopback == loopback, "\(text)")
        }
    }

    @Test func whatIsNoAddressSaysWhatIsExpected() {
        for text in ["8787", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:+80", "example.com:80",
                     "::1:8787", "[::1]", "[127.0.0.1]:80", "127.1:80", " 127.0.0.1:80", "127.0.0.1:80 ", "127.0.0.1:0x50"] {
            #expect(throws: ListenAddress.Problem.self, "\(text)") { try ListenAddress(parsing: text) }
        }
        #expect((try? ListenAddress(parsing: "example.com:80")) == nil)
        do {
            _ = try ListenAddress(parsing: "example.com:80")
        } catch {
            #expect(error.description.contains("expected HOST:PORT") && error.description.contains("example.com"), "\(error)")
        }
    }
}
