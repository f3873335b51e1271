/// The status block's text: one line per sensor, in columns, each line fitted to the terminal.
///
///     F1:5A:17:00:00:01  142 bpm  live  1.23 km  #17 changed 4s ago  next in 1:52
///       Stryd 1A2B       distance live  1.23 km
///
/// Pure: sensors and the terminal's size in, lines out (no escape sequences: `StatusArea` places them).
public enum StatusLines {
    /// Names longer than this are cut: the numbers after them matter more.
    public static let nameColumnLimit = 24
    /// Narrower than this, a line would say nothing useful: no block is drawn.
    public static let minimumWidth = 20

    /// The lines for a terminal `width` columns wide and `height` rows high. Each line takes at most
    /// `width - 1` columns (a line filling the last column leaves the cursor pending a wrap, which
    /// terminals handle differently); at least one row stays for the log above, and sensors that do
    /// not fit are counted on the last line.
    public static func render(_ sensors: [SensorStatus], width: Int, height: Int) -> [String] {
        guard width >= minimumWidth, height >= 2, !sensors.isEmpty else { return [] }
        let names = sensors.map { label(of: $0) }
        let nameColumn = min(nameColumnLimit, names.map { DisplayWidth.columns(of: $0) }.max() ?? 0)
        var lines = zip(sensors, names).map { sensor, name in
            DisplayWidth.truncated(DisplayWidth.fitted(name, to: nameColumn) + "  " + fields(of: sensor), to: width - 1)
                .trimmingTrailingSpaces
        }
        let rows = height - 1
        if lines.count > rows {
            let hidden = lines.count - (rows - 1)
            lines = Array(lines.prefix(rows - 1)) + [DisplayWidth.truncated("… \(hidden) more sensors", to: width - 1)]
        }
        return lines
    }

    /// The name as shown: a distance sensor indented under its strap.
    private static func label(of sensor: SensorStatus) -> String {
        let name = DisplayWidth.printable(sensor.name)
        return sensor.role == .distance ? "  " + name : name
    }

    private static func fields(of sensor: SensorStatus) -> String {
        var parts: [String] = []
        switch sensor.role {
        case .strap:
            parts.append(sensor.heartRate.map { rightAligned($0) + " bpm" } ?? "--- bpm")
            parts.append(sensor.link.rawValue)
        case .distance:
            parts.append("distance")
            parts.append(sensor.link.rawValue)
        }
        if let meters = sensor.distanceMeters { parts.append(distance(meters)) }
        if sensor.role == .strap {
            if let update = sensor.lastUpdate {
                parts.append("#\(update.sequence) \(DisplayWidth.printable(update.reason)) \(duration(update.age)) ago")
            } else if sensor.link != .stopped {
                parts.append("no update yet")
            }
            if let next = sensor.nextDeadlineIn { parts.append(next <= 0 ? "next now" : "next in \(clock(next))") }
        }
        return parts.joined(separator: "  ")
    }

    /// `850 m` below a kilometre, then `1.23 km`.
    static func distance(_ meters: Double) -> String {
        guard meters.isFinite, meters >= 0 else { return "? m" }
        if meters < 1000 { return "\(Int(meters.rounded(.down))) m" }
        let hundredths = Int((meters / 10).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) km"
    }

    /// An age: `4s`, `3m05s`, `1h02m`.
    static func duration(_ seconds: Double) -> String {
        let whole = seconds.isFinite ? max(0, Int(seconds.rounded(.down))) : 0
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m\(twoDigits(whole % 60))s" }
        return "\(whole / 3600)h\(twoDigits(whole / 60 % 60))m"
    }

    /// A countdown as a clock shows it: `0:07`, `1:52`, `1:02:03`.
    static func clock(_ seconds: Double) -> String {
        let whole = seconds.isFinite ? max(0, Int(seconds.rounded(.up))) : 0
        if whole < 3600 { return "\(whole / 60):\(twoDigits(whole % 60))" }
        return "\(whole / 3600):\(twoDigits(whole / 60 % 60)):\(twoDigits(whole % 60))"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

extension StatusLines {
    /// A rate right-aligned in three columns, so the columns after it stay put as it changes.
    static func rightAligned(_ value: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, 3 - text.count)) + text
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
