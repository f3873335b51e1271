#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Platform
import Synchronization

/// The synced writes of one state file, one at a time and in the order asked: on the caller's
/// thread when an update must wait for them (a start, an end), on a queue of their own when it
/// need not (the next reservation, asked for half a block ahead). A sync that failed off the
/// update's way is done again on the way of the update that needs it, which then fails if it fails.
final class SyncedStateWriter: Sendable {
    private let file: DurableFile
    private let queue = DispatchQueue(label: "hrbridge.state-file")
    /// The folder, open while the file is held: each write syncs it, without an open and close each time.
    private let folderDescriptor: Int32
    /// The last write off the update's way that failed, with what it was to write.
    private let failed = Mutex<[UInt8]?>(nil)

    init(path: String, folder: String) {
        file = DurableFile(path: path)
        folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    /// Writes `bytes` durably before returning (after any write asked before).
    func writeNow(_ bytes: [UInt8]) throws(FileSystemError) {
        let result = queue.sync { () -> Result<Void, FileSystemError> in
            failed.withLock { $0 = nil } // what it would have written is older than this
            return Result { () throws(FileSystemError) in try file.replace(with: bytes, folderDescriptor: folderDescriptor) }
        }
        try result.get()
    }

    /// Writes `bytes` durably on the writer's own queue.
    func writeSoon(_ bytes: [UInt8]) {
        queue.async { [self] in
            do {
                try file.replace(with: bytes, folderDescriptor: folderDescriptor)
                failed.withLock { $0 = nil }
            } catch {
                failed.withLock { $0 = bytes }
            }
        }
    }

    /// Returns once every write asked for is on disk; one that failed is done again here.
    func awaitWrites() throws(FileSystemError) {
        queue.sync {}
        guard let bytes = failed.withLock({ $0 }) else { return }
        try writeNow(bytes)
    }

    /// Removes the file durably (after any write asked before).
    func removeNow() throws(FileSystemError) {
        let result = queue.sync { () -> Result<Void, FileSystemError> in
            failed.withLock { $0 = nil }
            return Result { () throws(FileSystemError) in try file.remove(folderDescriptor: folderDescriptor) }
        }
        try result.get()
    }

    /// Waits for the writes asked for and lets the folder go.
    func close() {
        queue.sync {}
        if folderDescriptor >= 0 { Glibc.close(folderDescriptor) }
    }
}
