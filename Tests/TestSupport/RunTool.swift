import Foundation

/// Runs a command line tool (openssl, python3) and returns its stdout; throws with stderr on failure.
@discardableResult
public func runTool(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    let stdin = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(input) }
    try stdin.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw ToolError(command: ([executable] + arguments).joined(separator: " "), message: String(decoding: err, as: UTF8.self))
    }
    return String(decoding: out, as: UTF8.self)
}

public struct ToolError: Error, CustomStringConvertible {
    public let command: String
    public let message: String

    public init(command: String, message: String) {
        self.command = command
        self.message = message
    }

    public var description: String { "\(command) failed: \(message)" }
}
