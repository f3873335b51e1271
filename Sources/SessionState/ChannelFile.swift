#if canImport(Glibc)
import Glibc
#endif
import Forwarding
import FoundationEssentials
import Platform

/// One strap's broadcast channels, `<state directory>/channels/<key>.json`, beside the activity state
/// file of the same key and under its lock: each channel APNs created for the strap, the activity on
/// it and when it may be deleted. Saved whole and crash-safe (`DurableFile`) on every change, so a
/// channel created is never lost to a crash: the next run reuses it, or deletes it when its time has
/// come, and `hrbridge recover` deletes it.
public enum ChannelFile {
    static func path(directory: String, key: String) -> String {
        FilePath.join(FilePath.join(directory, "channels"), key + ".json")
    }

    /// The book of `key`, from what the file holds (a damaged file is moved aside to
    /// `<path>.corrupt-<unix seconds>` and said through `warn`; the book starts empty), saving to it.
    /// `retiring`: for `recover`, which deletes every channel once what is owed on it went out.
    public static func book(directory: String, key: String, retiring: Bool = false, warn: (String) -> Void) throws(SessionError) -> ChannelBook {
        let file = DurableFile(path: path(directory: directory, key: key))
        do {
            try FilePath.createDirectories(file.folder)
        } catch {
            throw .unwritable("\(file.folder): cannot create the broadcast channel directory: \(error.reason)")
        }
        var registry = ChannelRegistry()
        if let data = FileManager.default.contents(atPath: file.path) {
            do {
                registry = try ChannelRegistry(decoding: Array(data))
            } catch {
                let aside = "\(file.path).corrupt-\(Int(Date().timeIntervalSince1970))"
                let moved = rename(file.path, aside) == 0
                warn("\(file.path): unreadable broadcast channels (\(error.message)); \(moved ? "moved to \(aside)" : "could not be moved aside"). "
                    + "The channels it listed stay at APNs until deleted by hand (GET /1/apps/BUNDLE/all-channels lists them)")
            }
        }
        return ChannelBook(registry, store: { registry throws(ChannelBook.StoreFailure) in
            do throws(FileSystemError) {
                if registry.channels.isEmpty { try file.remove() } else { try file.replace(with: registry.encoded()) }
            } catch {
                throw ChannelBook.StoreFailure("\(error.path): cannot save the broadcast channels: \(error.reason)")
            }
        }, retiring: retiring)
    }
}
