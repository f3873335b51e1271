import BlueZ
import FoundationEssentials
import Sensors
import Trace
import Platform
import LiveLinks

/// `hrbridge import btsnoop CAPTURE -o OUT.trace`: a btmon capture of a real session becomes a
/// trace per device, named as `record` names several straps' files.
enum BtsnoopImportCommand {
    static let handleOption = CommandSpec.Option(
        name: "--handle", valueName: "HANDLE=UUID",
        help: "btsnoop: the characteristic at a handle, for a capture without the discovery (e.g. 0x002a=2a37)",
        repeatable: true
    )

    static func run(_ capturePath: String, _ arguments: ParsedArguments, spec: CommandSpec, console: Console) throws(CLIError) {
        for option in ["--rr", "--start", "--name"] where arguments.value(option) != nil {
            throw .usage("\(option) is for import csv; a capture has its own times and addresses", spec)
        }
        guard let outputPath = arguments.value("-o") else { throw .usage("missing -o OUTPUT", spec) }
        var handles: [UInt16: BluetoothUUID] = [:]
        for text in arguments.allValues("--handle") {
            guard let (handle, uuid) = parseHandle(text) else {
                throw .usage("--handle '\(text)' is not HANDLE=UUID, e.g. 0x002a=2a37", spec)
            }
            handles[handle] = uuid
        }
        guard let capture = FileManager.default.contents(atPath: capturePath) else {
            throw .noInput("\(capturePath): cannot read file")
        }
        let result: BtsnoopImport.Result
        do {
            result = try BtsnoopImport.convert(Array(capture), source: FilePath.lastComponent(of: capturePath), handles: handles)
        } catch {
            throw .dataError("\(capturePath): \(error)")
        }
        for line in result.skips.lines { console.warn("\(capturePath): \(line)") }
        guard !result.devices.isEmpty else {
            throw .dataError("\(capturePath): no LE connection in the capture (start btmon before the device connects)")
        }
        let files = TraceRecorder.files(outputPath, for: result.devices.map { .address($0.address) })
        for (device, file) in zip(result.devices, files) {
            do {
                let writer = try TraceWriter(path: file, header: device.header)
                for event in device.events { try writer.append(event) }
            } catch {
                throw .cannotCreate("\(error)")
            }
            let values = device.events.filter { if case .notification = $0.kind { true } else { false } }.count
            console.warn("wrote \(values) notifications of \(device.address) to \(file)")
        }
    }

    /// `0x002a=2a37`: a handle in hex (the `0x` optional), then a characteristic UUID.
    private static func parseHandle(_ text: String) -> (UInt16, BluetoothUUID)? {
        let parts = text.split(separator: "=", omittingEmptySubsequences: false)
        guard parts.count == 2, let uuid = BluetoothUUID(String(parts[1])) else { return nil }
        var digits = parts[0].lowercased()
        if digits.hasPrefix("0x") { digits.removeFirst(2) }
        guard (1...4).contains(digits.count), let handle = UInt16(digits, radix: 16) else { return nil }
        return (handle, uuid)
    }
}
