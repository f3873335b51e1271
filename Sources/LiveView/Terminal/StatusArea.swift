/// The status block at the bottom of a terminal, as escape sequences: what to write to replace it,
/// to print log text above it, or to take it away. The cursor rests at the end of the block's last
/// line (no line feed after it), so a log line takes the block's place and the block is drawn again
/// below it: logs scroll above, the block stays at the bottom, and nothing is ever written into the
/// middle of a line. Pure: the caller writes the strings (under one lock, with the terminal's width).
///
/// Only ECMA-48 sequences every terminal since the VT100 knows: CR, CUU (`ESC [ n A`, cursor up)
/// and ED (`ESC [ J`, erase to the end of the screen).
public struct StatusArea: Sendable {
    /// The columns of each line drawn now; empty when no block is shown.
    public private(set) var drawn: [Int] = []

    public init() {}

    /// Erases the block and draws `lines` in its place.
    public mutating func replace(with lines: [String], width: Int) -> String {
        let erase = self.erase(width: width)
        return erase + draw(lines)
    }

    /// Erases the block, writes `text` (a line feed added if it lacks one), draws `lines` below it.
    public mutating func print(_ text: String, then lines: [String], width: Int) -> String {
        var output = erase(width: width) + text
        if !text.hasSuffix("\n") { output += "\n" }
        return output + draw(lines)
    }

    /// Erases the block for good (the command ends): the cursor at the start of a clean line.
    public mutating func remove(width: Int) -> String {
        let erase = self.erase(width: width)
        drawn = []
        return erase
    }

    private mutating func draw(_ lines: [String]) -> String {
        drawn = lines.map { DisplayWidth.columns(of: $0) }
        return lines.joined(separator: "\n")
    }

    /// From the end of the last line back to the start of the first, and everything below cleared.
    /// A line wider than the terminal now (it was made narrower) has wrapped onto more rows.
    private func erase(width: Int) -> String {
        guard !drawn.isEmpty else { return "" }
        let columns = max(1, width)
        let rows = drawn.reduce(0) { $0 + max(1, ($1 + columns - 1) / columns) }
        return "\r" + (rows > 1 ? "\u{1B}[\(rows - 1)A" : "") + "\u{1B}[J"
    }
}
