#if canImport(Glibc)
import Glibc
#endif
import Forwarding
import FoundationEssentials
import Platform

/// One strap's push tokens registered at run time, `<state directory>/push-tokens/<key>.json` (mode
/// 0600: whole tokens, which identify a phone), beside the activity state file of the same key and
/// under its lock. Saved whole and crash-safe (`DurableFile`) on every change, so a registration
/// that was answered survives a crash and the next run sends to it.
public enum PushTokenFile {
    static func path(directory: String, key: String) -> String {
        FilePath.join(FilePath.join(directory, "push-tokens"), key + ".json")
    }

    /// The book of `key`, from what the file holds (a damaged file is moved aside to
    /// `<path>.corrupt-<unix seconds>` and said through `warn`; the book starts empty), saving to it.
    public static func book(directory: String, key: String, warn: (String) -> Void) throws(SessionError) -> PushTokenBook {
        let file = DurableFile(path: path(directory: directory, key: key))
        do {
            try FilePath.createDirectories(file.folder)
        } catch {
            throw .unwritable("\(file.folder): cannot create the push token directory: \(error.reason)")
        }
        var registry = TokenRegistry()
        if let data = FileManager.default.contents(atPath: file.path) {
            do {
                registry = try TokenRegistry(decoding: Array(data))
            } catch {
                let aside = "\(file.path).corrupt-\(Int(Date().timeIntervalSince1970))"
                let moved = rename(file.path, aside) == 0
                warn("\(file.path): unreadable push tokens (\(error.message)); \(moved ? "moved to \(aside)" : "could not be moved aside"). "
                    + "The app must register its tokens again")
            }
        }
        return PushTokenBook(registry) { registry throws(PushTokenBook.StoreFailure) in
            do throws(FileSystemError) {
                try file.replace(with: registry.encoded())
            } catch {
                throw PushTokenBook.StoreFailure("\(error.path): cannot save the push tokens: \(error.reason)")
            }
        }
    }
}
