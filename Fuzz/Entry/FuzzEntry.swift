#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FuzzTargets

// Built two ways (scripts/fuzz):
// - with `-sanitize=fuzzer,address -DFUZZING`: libFuzzer's own main drives
//   `LLVMFuzzerTestOneInput`; the target is named by HRBRIDGE_FUZZ_TARGET, since libFuzzer takes
//   every argument that is not a flag as a corpus directory. A contract violation traps, so
//   libFuzzer saves the input like any crash.
// - plainly (`swift build`): `hrbridge-fuzz TARGET FILE...` runs the same checks on files, to
//   look at a saved crash without the fuzzer.

/// A line on standard error (Glibc's `stderr` is a global Swift 6 will not touch).
func warn(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

#if FUZZING
nonisolated(unsafe) private var selected: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    let name = getenv("HRBRIDGE_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget.named(name) else {
        warn("hrbridge-fuzz: set HRBRIDGE_FUZZ_TARGET to one of: \(FuzzTarget.all.map(\.name).joined(separator: " "))")
        exit(64)
    }
    selected = target
    return 0
}

/// SwiftPM links an executable with `main` defined as `<module>_main` (so tests can link the
/// module); with no `@main` here, that is this, which hands over to libFuzzer's driver.
@_cdecl("hrbridge_fuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try selected!.check(bytes)
    } catch {
        fatalError("\(selected!.name): contract violated: \(error)")
    }
    return 0
}
#else
@main
struct ReplayInputs {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--list" {
            for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
            return
        }
        guard let name = arguments.first, name != "--help", let target = FuzzTarget.named(name) else {
            warn("""
            usage: hrbridge-fuzz TARGET FILE...   run TARGET's check on each file (a saved crash, a corpus)
                   hrbridge-fuzz --list           the targets
            Fuzzing itself: scripts/fuzz [TARGET] [SECONDS] (a build with libFuzzer).
            """)
            exit(arguments.first == "--help" ? 0 : 64)
        }
        var failed = false
        for path in arguments.dropFirst() {
            guard let file = fopen(path, "rb") else {
                warn("\(path): cannot read: \(String(cString: strerror(errno)))")
                exit(66)
            }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while case let count = fread(&chunk, 1, chunk.count, file), count > 0 { bytes += chunk[..<count] }
            fclose(file)
            do {
                try target.check(bytes)
                print("\(path): ok")
            } catch {
                print("\(path): \(error)")
                failed = true
            }
        }
        exit(failed ? 1 : 0)
    }
}
#endif
