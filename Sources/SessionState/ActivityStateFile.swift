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
///
/// Beside it, `<key>.json.newest` holds the newest state, rewritten in place on every save without a sync;
/// the state file itself is synced where the ledger says: at a start and an end before the update
/// goes out, for the next reservation off the update's way. The newest file is written first, so in the boot that wrote it
/// it is never older than the state file; after a restart of the machine only the synced state
/// file counts, with each activity's reservation (`ActivityLedger.lastSequencesKnown`). A rewrite
/// cut short by the process's death leaves text that does not parse (then the synced file counts)
/// or entries each as old or as new as the last two saves: the update being saved was not sent yet,
/// so either is right.
public final class ActivityStateFile {
    package let path: String
    private let lockPath: String
    /// The synced writes of the file, in order, on or off the update's way.
    private let writer: SyncedStateWriter
    /// The newest state, unsynced.
    private let newest: OverwrittenFile
    /// The kernel's boot id, said in each file: a file from this boot survived with the page cache.
    private let boot: String?
    private var lockDescriptor: Int32

    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Another live process holds the lock.
        case busy(path: String, holder: String)
        case io(path: String, what: String)

        package var description: String {
            switch self {
            case let .busy(path, holder):
                "\(path) is in use by another hrbridge (\(holder)): it is serving the same strap or trace; stop it first"
            case let .io(path, what): "\(path): \(what)"
            }
        }
    }

    /// Creates the directory if needed and takes the lock. `boot`: the machine's boot id (tests give another).
    package init(directory: String, key: String, boot: String? = BootIdentity.current) throws(Failure) {
        let folder = FilePath.join(directory, "activities")
        path = FilePath.join(folder, key + ".json")
        newest = OverwrittenFile(path: path + ".newest")
        self.boot = boot
        lockPath = FilePath.join(folder, key + ".lock")
        do {
            try FilePath.createDirectories(folder)
        } catch {
            throw .io(path: folder, what: "cannot create the state directory: \(error.description)")
        }
        lockDescriptor = try Self.lock(lockPath)
        writer = SyncedStateWriter(path: path, folder: folder)
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
    package func load() -> (ledger: ActivityLedger, warning: String?) {
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

    /// What the files hold (empty when there is none), leaving a damaged state file where it is:
    /// the newest file when this boot wrote it, else the synced state file with its reservations.
    package func read() throws(LedgerFormatError) -> ActivityLedger {
        guard let data = FileManager.default.contents(atPath: path) else { return ActivityLedger() }
        let synced = try ActivityLedger.decoded(Array(data))
        if let boot, let data = FileManager.default.contents(atPath: newest.path),
           let newer = try? ActivityLedger.decoded(Array(data)), newer.boot == boot {
            return newer.ledger
        }
        var ledger = synced.ledger
        ledger.lastSequencesKnown = false
        return ledger
    }

    /// Writes the newest state to the twin, then does what `sync` asks with the synced file
    /// (`DurableFile`: temporary file, fsync, rename, fsync of the directory); removes both when the
    /// ledger is empty. A crash at any moment leaves the old or the new state.
    package func save(_ ledger: ActivityLedger, sync: ActivityLedger.Sync = .now) throws(Failure) {
        var bytes: [UInt8] = []
        if !ledger.isEmpty {
            do {
                bytes = try ledger.encoded(boot: boot)
            } catch {
                throw .io(path: path, what: "cannot encode the activity state: \(error)")
            }
        }
        do throws(FileSystemError) {
            if ledger.isEmpty {
                try newest.remove() // the state file's removal syncs the folder
                try writer.removeNow()
                return
            }
            try newest.overwrite(with: bytes)
            switch sync {
            case .none: break
            case .now: try writer.writeNow(bytes)
            case .soon: writer.writeSoon(bytes)
            case .awaitSoon: try writer.awaitWrites()
            }
        } catch {
            throw .io(path: error.path, what: "cannot save the activity state: \(error.reason)")
        }
    }

    /// Removes the lock file (while still holding it) and lets go. The state file stays if not empty.
    package func release() {
        guard lockDescriptor >= 0 else { return }
        writer.close() // a write still under way finishes while the lock is held
        newest.close()
        unlink(lockPath)
        close(lockDescriptor)
        lockDescriptor = -1
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
