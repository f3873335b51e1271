import HTTPServer
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

    @Test func systemdsSocketIsTheOneNamedHTTPOrTheOnlyOne() throws {
        func chosen(_ environment: [String: String]) -> Result<Int32?, SocketActivation.Problem> {
            SocketActivation.descriptor(environment: environment, processID: 42)
        }
        #expect(try chosen([:]).get() == nil as Int32?)
        #expect(try chosen(["LISTEN_PID": "41", "LISTEN_FDS": "1"]).get() == nil, "for another process")
        #expect(try chosen(["LISTEN_PID": "42", "LISTEN_FDS": "1"]).get() == 3)
        #expect(try chosen(["LISTEN_PID": "42", "LISTEN_FDS": "0"]).get() == nil)
        #expect(try chosen(["LISTEN_PID": "42", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "metrics:http"]).get() == 4)
        #expect(try chosen(["LISTEN_PID": "42", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "other"]).get() == 3)
        guard case let .failure(problem) = chosen(["LISTEN_PID": "42", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "a:b"]) else {
            Issue.record("two unnamed sockets: which one?")
            return
        }
        #expect(problem.description.contains("FileDescriptorName=http"), "\(problem)")
    }
}
