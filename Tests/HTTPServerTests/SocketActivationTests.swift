import HTTPServer
import Testing

struct SocketActivationTests {
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
