#if canImport(Glibc)
import Platform
import Glibc
#endif

/// systemd's socket activation (sd_listen_fds(3)), without libsystemd: the sockets a unit bound for
/// this process start at descriptor 3; `LISTEN_PID` says they are for this process, `LISTEN_FDS` how
/// many, `LISTEN_FDNAMES` their `FileDescriptorName=`s. The listener takes the one named `http`
/// (udev/hrbridge.socket), or the only one.
public enum SocketActivation {
    /// SD_LISTEN_FDS_START.
    public static let firstDescriptor: Int32 = 3
    /// `FileDescriptorName=` in hrbridge.socket.
    public static let socketName = "http"

    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The descriptor passed for the listener; nil when systemd passed none to this process. Pure.
    public static func descriptor(environment: [String: String], processID: Int32) -> Result<Int32?, Problem> {
        guard let pid = environment["LISTEN_PID"], Int32(pid) == processID,
              let countText = environment["LISTEN_FDS"], let count = Int32(countText), count > 0 else { return .success(nil) }
        let names = environment["LISTEN_FDNAMES"].map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) } ?? []
        if let index = names.firstIndex(of: socketName), index < count { return .success(firstDescriptor + Int32(index)) }
        if count == 1 { return .success(firstDescriptor) }
        return .failure(Problem(description: "systemd passed \(count) sockets (\(names.joined(separator: ", "))) and none is named "
            + "\(socketName): give the listening one FileDescriptorName=\(socketName)"))
    }

    /// The socket systemd passed, checked to be a listening TCP socket, marked close-on-exec, and
    /// the variables unset (they describe this process only). nil when there is none.
    public static func take(environment: [String: String]) -> Result<(descriptor: Int32, address: ListenAddress)?, Problem> {
        let chosen: Int32
        switch descriptor(environment: environment, processID: getpid()) {
        case let .failure(problem): return .failure(problem)
        case .success(nil): return .success(nil)
        case let .success(descriptor?): chosen = descriptor
        }
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        var listening: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(chosen, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening != 0,
              let address = ListenAddress(boundSocket: chosen) else {
            return .failure(Problem(description: "descriptor \(chosen) from systemd is not a listening TCP socket (ListenStream=HOST:PORT)"))
        }
        _ = fcntl(chosen, F_SETFD, FD_CLOEXEC)
        return .success((chosen, address))
    }
}
