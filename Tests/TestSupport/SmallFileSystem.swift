import Foundation

/// A 64 KiB tmpfs mounted for one test and filled but for `freeBytes`: a full disk that a test can
/// make room on again (`makeRoom`). Mounting needs root (CI runs as root); `canMount` says whether
/// this machine lets us, for tests that need it.
public final class SmallFileSystem {
    public let directory: TemporaryDirectory
    private var mounted = false
    private static let size = 64 * 1024
    private var filler: String { directory.path("filler") }

    public init(freeBytes: Int) throws {
        directory = try TemporaryDirectory()
        try Self.mount(at: directory.url.path)
        mounted = true
        try Data(count: Self.size - freeBytes).write(to: URL(fileURLWithPath: filler))
    }

    public func path(_ name: String) -> String { directory.path(name) }

    /// Removes the filler: the disk has room again.
    public func makeRoom() throws { try FileManager.default.removeItem(atPath: filler) }

    public static let canMount: Bool = {
        guard getuid() == 0, let probe = try? TemporaryDirectory() else { return false }
        guard (try? mount(at: probe.url.path)) != nil else { return false }
        return unmount(probe.url.path)
    }()

    private static func mount(at path: String) throws {
        let process = try Process.run(URL(fileURLWithPath: "/bin/mount"), arguments: ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path])
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw MountError(path: path) }
    }

    @discardableResult
    private static func unmount(_ path: String) -> Bool {
        guard let process = try? Process.run(URL(fileURLWithPath: "/bin/umount"), arguments: [path]) else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    struct MountError: Error, CustomStringConvertible {
        let path: String
        var description: String { "cannot mount a tmpfs at \(path)" }
    }

    deinit { if mounted { Self.unmount(directory.url.path) } }
}
