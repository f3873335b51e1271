#if canImport(Glibc)
import Glibc
#endif

/// A small file replaced whole and crash-safe: written to a temporary twin, synced, renamed over the
/// old one, and the directory synced, so a crash at any moment leaves the old or the new contents,
/// never a mix. What must outlive a run (the activity state, the push tokens) is kept this way.
public struct DurableFile: Sendable {
    public let path: String
    /// The folder holding it: renames and removals are made durable by syncing it.
    public let folder: String
    /// Its temporary twin, named once (per process, so two processes never share one).
    private let temporaryPath: String
    /// Permissions of a new file: 0600 for what holds identifiers (push tokens) or may show a person's workout.
    private let mode: mode_t

    public init(path: String, mode: mode_t = 0o600) {
        self.path = path
        folder = FilePath.parent(of: path)
        temporaryPath = "\(path).tmp-\(getpid())"
        self.mode = mode
    }

    /// Replaces the file with `bytes`. `folderDescriptor`: the folder, when the caller keeps it open
    /// (a state file saved on every update); otherwise it is opened for the sync.
    public func replace(with bytes: [UInt8], folderDescriptor: Int32 = -1) throws(FileSystemError) {
        let temporary = temporaryPath
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw FileSystemError(path: temporary, code: errno) }
        if let stop = writeAll(descriptor, bytes) {
            close(descriptor)
            unlink(temporary)
            throw FileSystemError(path: temporary, code: stop.code)
        }
        // The mode of an existing temporary file (a crashed run's) is not changed by open.
        let synced = fchmod(descriptor, mode) == 0 && fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileSystemError(path: path, code: code)
        }
        syncFolder(folderDescriptor)
    }

    /// Removes the file if it is there, durably.
    public func remove(folderDescriptor: Int32 = -1) throws(FileSystemError) {
        if unlink(path) != 0, errno != ENOENT { throw FileSystemError(path: path, code: errno) }
        syncFolder(folderDescriptor)
    }

    /// Makes a rename or removal durable.
    private func syncFolder(_ descriptor: Int32) {
        guard descriptor < 0 else {
            _ = fsync(descriptor)
            return
        }
        let opened = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard opened >= 0 else { return }
        _ = fsync(opened)
        close(opened)
    }
}
