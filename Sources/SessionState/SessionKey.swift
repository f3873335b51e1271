import Forwarding
import FoundationEssentials
import Platform
import Sensors

/// Names a session's state file: one per strap (a strap has one activity at a time, and two runs
/// must not both own it) and one per replayed trace file.
public enum SessionKey {
    /// `strap-<address or name>`, made safe as a file name.
    static func strap(_ selector: String) -> String {
        "strap-" + Spool.safeFileName(selector)
    }

    /// `strap-AA_BB_CC_DD_EE_FF` for an address, `strap-name-<name>` for a name (never mistaken for
    /// one), `strap-any` for "the first strap found": the command line's and the configuration's
    /// strap share one state file.
    public static func strap(_ selector: SensorSelector) -> String {
        switch selector {
        case let .address(address): strap(address)
        case let .name(name): strap("name-" + name)
        case .anyHeartRateStrap: strap("any")
        }
    }

    /// `replay-<file name>-<hash of the absolute path>`: readable, and distinct for equal names in
    /// different directories. Standard input is `replay-stdin`.
    public static func replay(tracePath path: String) -> String {
        guard path != "-" else { return "replay-stdin" }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        return "replay-" + Spool.safeFileName(FilePath.lastComponent(of: path)) + "-" + fnv1a(absolute)
    }

    /// FNV-1a, 32 bits, as 8 hex digits: stable across runs and builds (Swift's Hasher is seeded per process).
    static func fnv1a(_ text: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
