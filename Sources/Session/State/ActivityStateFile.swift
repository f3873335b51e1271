#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import Platform

/// One session's state file, `<state directory>/activities/<key>.json`, with its lock `<key>.lock`
/// held for the session's life: a second run for the same key is refused instead of both ending
/// each other's activities. The lock is `flock(2)`, so a crashed or killed run releases it with
/// its last descriptor; its state file stays for the next run to recover.
public final class ActivityStateFile {
    let path: String
    private let lockPath: String
    /// The file and its temporary twin: named once, not per update.
    private let file: DurableFile
    private var lockDescriptor: Int32
    /// The folder, open while the lock is held: each save syncs it, without an open and close per update.
    private var folderDescriptor: Int32 = -1

    enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Another live process holds the lock.
        case busy(path: String, holder: String)
        case io(path: String, what: String)

        var description: String {
            switch self {
            case let .busy(path, holder):
                "\(path) is in use by another hrbridge (\(holder)): it is serving the same strap or trace; stop it first"
            case let .io(path, what): "\(path): \(what)"
            }
        }
    }

    /// Creates the directory if needed and takes the lock.
    init(directory: String, key: String) throws(Failure) {
        let folder = FilePath.join(directory, "activities")
        path = FilePath.join(folder, key + ".json")
        file = DurableFile(path: path)
        lockPath = FilePath.join(folder, key + ".lock")
        do {
            try FilePath.createDirectories(folder)
        } catch {
            throw .io(path: folder, what: "cannot create the state directory: \(error.description)")
        }
        lockDescriptor = try Self.lock(lockPath)
        folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    deinit { release() }

    /// As `init`, failing as a session does: another owner means the strap or trace is in use.
    public static func opened(directory: String, key: String) throws(SessionError) -> ActivityStateFile {
        do {
            return try ActivityStateFile(directory: directory, key: key)
        } catch {
            if case .busy = error { throw .inUse(error.description) }
            throw .unwritable(error.description)
        }
    }

    /// What the last run left, if anything. A file that cannot be read is not lost: it is moved to
    /// `<path>.corrupt-<unix seconds>` and the returned warning names both paths and the fault.
    func load() -> (ledger: ActivityLedger, warning: String?) {
        do {
            return (try read(), nil)
        } catch {
            let aside = "\(path).corrupt-\(Int(Date().timeIntervalSince1970))"
            let moved = rename(path, aside) == 0
            let whereNow = moved ? "moved to \(aside)" : "could not be moved aside (\(String(cString: strerror(errno))))"
            return (ActivityLedger(), "\(path): unreadable activity state (\(error.message)); \(whereNow). "
                + "Activities it listed were not ended: end them by hand if the phone still shows one")
        }
    }

    /// What the file holds (empty when there is none), leaving a damaged file where it is.
    func read() throws(LedgerFormatError) -> ActivityLedger {
        guard let data = FileManager.default.contents(atPath: path) else { return ActivityLedger() }
        return try ActivityLedger(decoding: Array(data))
    }

    /// Replaces the file atomically (`DurableFile`: temporary file, fsync, rename, fsync of the
    /// directory), or removes it when the ledger is empty: a crash at any moment leaves the old or
    /// the new state.
    func save(_ ledger: ActivityLedger) throws(Failure) {
        var bytes: [UInt8] = []
        if !ledger.isEmpty {
            do {
                bytes = try ledger.encoded()
            } catch {
                throw .io(path: path, what: "cannot encode the activity state: \(error)")
            }
        }
        do throws(FileSystemError) {
            if ledger.isEmpty { try file.remove(folderDescriptor: folderDescriptor) } else {
                try file.replace(with: bytes, folderDescriptor: folderDescriptor)
            }
        } catch {
            throw .io(path: error.path, what: "cannot save the activity state: \(error.reason)")
        }
    }

    /// Removes the lock file (while still holding it) and lets go. The state file stays if not empty.
    func release() {
        guard lockDescriptor >= 0 else { return }
        unlink(lockPath)
        close(lockDescriptor)
        lockDescriptor = -1
        if folderDescriptor >= 0 { close(folderDescriptor) }
        folderDescriptor = -1
    }

    /// Takes the lock on `lockPath`, retrying when the file was replaced between open and lock (a
    /// releasing run unlinks it), and writes our pid into it for the "in use" message.
    private static func lock(_ lockPath: String) throws(Failure) -> Int32 {
        for _ in 0..<maximumLockAttempts {
            let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw .io(path: lockPath, what: "cannot open: \(lastError)") }
            if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let holder = String(decoding: FileManager.default.contents(atPath: lockPath) ?? Data(), as: UTF8.self)
                    .trimmed
                close(descriptor)
                throw .busy(path: lockPath, holder: holder.isEmpty ? "pid unknown" : "pid \(holder)")
            }
            var opened = stat()
            var named = stat()
            guard fstat(descriptor, &opened) == 0, stat(lockPath, &named) == 0, opened.st_ino == named.st_ino else {
                close(descriptor) // unlinked or replaced by a run that just released it: open the new one
                continue
            }
            let pid = Array("\(getpid())\n".utf8)
            _ = ftruncate(descriptor, 0)
            _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress!, $0.count, 0) }
            return descriptor
        }
        throw .io(path: lockPath, what: "the lock file keeps being replaced")
    }

    /// Another run's release can race our open a few times at most; more means something is wrong.
    private static let maximumLockAttempts = 8

    private static var lastError: String { String(cString: strerror(errno)) }
}
