import FoundationEssentials

/// The kernel's id of this boot (`/proc/sys/kernel/random/boot_id`, new at every start of the
/// machine): a file written in this boot had the page cache behind it, so no power cut lost what
/// it was written after.
enum BootIdentity {
    /// Read once; nil where the kernel does not say (then no unsynced file is trusted).
    static let current: String? = FileManager.default.contents(atPath: "/proc/sys/kernel/random/boot_id")
        .map { String(decoding: $0, as: UTF8.self).trimmed }
        .flatMap { $0.isEmpty ? nil : $0 }
}
