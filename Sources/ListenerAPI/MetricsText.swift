import BlueZ
import Forwarding
import LiveState
import Sensors
import Session

/// `/metrics` in Prometheus' text exposition format (version 0.0.4), made only when scraped from
/// what the sessions counted anyway. Names follow Prometheus' rules: `hrbridge_` first, base units
/// (seconds, bytes), `_total` on counters, `# HELP` and `# TYPE` once per family; labels are the
/// strap's control name, sensor and sink kinds, reasons and outcomes: never a token or an activity id.
enum MetricsText {
    static func exposition(_ sessions: [(strap: String, metrics: SessionMetrics)], version: String) -> String {
        var families = Families()
        families.add("hrbridge_build_info", .gauge, "The running hrbridge's version.", [("version", version)], 1)
        for (strap, metrics) in sessions {
            let strapLabel = [("strap", strap)]
            families.add("hrbridge_session_running", .gauge, "1 while the strap's session runs.", strapLabel, metrics.running ? 1 : 0)
            for (index, kind) in SensorKind.all.enumerated() {
                let labels = strapLabel + [("sensor", kind.metricName)]
                families.add("hrbridge_sensor_notifications_total", .counter,
                             "Measurement notifications received, valid or not.", labels, Double(metrics.tally.notifications(kind: index)))
                families.add("hrbridge_sensor_rejected_values_total", .counter,
                             "Measurement values dropped as malformed.", labels, Double(metrics.tally.rejected(kind: index)))
            }
            for role in SensorRole.allCases {
                families.add("hrbridge_sensor_links_up", .gauge, "1 while the sensor's link is up.",
                             strapLabel + [("role", role.rawValue)], metrics.tally.linksUp.contains(role) ? 1 : 0)
            }
            families.add("hrbridge_sensor_reconnects_total", .counter, "Sensor links that came back after a drop.",
                         strapLabel, Double(metrics.tally.reconnects))
            if let age = metrics.secondsSinceValidSample {
                families.add("hrbridge_last_valid_sample_age_seconds", .gauge,
                             "Seconds since the strap's newest valid heart-rate sample (trace time in a replay).", strapLabel, age)
            }
            for (kind, count) in metrics.updates.sorted(by: { ($0.key.reason, $0.key.priority) < ($1.key.reason, $1.key.priority) }) {
                families.add("hrbridge_updates_total", .counter, "Live Activity updates sent, by reason and priority.",
                             strapLabel + [("reason", kind.reason), ("priority", String(kind.priority))], Double(count))
            }
            families.add("hrbridge_urgent_updates_total", .counter, "Updates sent at priority 10 (the hourly budget spent).",
                         strapLabel, Double(metrics.urgentPushes))
            families.add("hrbridge_urgent_demotions_total", .counter,
                         "Sensor-lost or sensor-back updates sent at priority 5: budget spent or sensor flapping.",
                         strapLabel, Double(metrics.demotions))
            addSinks(metrics.sinks, strap: strap, to: &families)
        }
        return families.text
    }

    /// Sinks of one kind (two file sinks) are summed: the kind is the label, never a URL or a path.
    private static func addSinks(_ sinks: [SinkSnapshot], strap: String, to families: inout Families) {
        var kinds: [String] = []
        for sink in sinks where !kinds.contains(sink.kind) { kinds.append(sink.kind) }
        for kind in kinds {
            let same = sinks.filter { $0.kind == kind }
            let labels = [("strap", strap), ("sink", kind)]
            let outcomes: [(String, KeyPath<SinkCounters, Int>)] = [
                ("sent", \.sent), ("retried", \.retried), ("superseded", \.superseded), ("dropped", \.dropped),
                ("failed", \.failed), ("spooled", \.spooled),
            ]
            for (outcome, path) in outcomes {
                families.add("hrbridge_sink_deliveries_total", .counter, "Deliveries by sink kind and outcome.",
                             labels + [("outcome", outcome)], Double(same.reduce(0) { $0 + $1.counters[keyPath: path] }))
            }
            families.add("hrbridge_sink_queue_depth", .gauge, "Deliveries waiting in the sink's queue.", labels,
                         Double(same.reduce(0) { $0 + $1.waiting }))
            families.add("hrbridge_sink_spool_bytes", .gauge, "Size of the sink's spool file, kept for a later run.", labels,
                         Double(same.reduce(0) { $0 + $1.spoolBytes }))
            families.add("hrbridge_sink_halted", .gauge, "1 when the sink stopped sending for good.", labels,
                         same.contains { $0.halted != nil } ? 1 : 0)
            let peripherals = same.compactMap(\.peripheral)
            guard !peripherals.isEmpty else { continue }
            families.add("hrbridge_peripheral_advertising", .gauge, "Peripherals registered with bluetoothd and advertising.", labels,
                         Double(peripherals.filter { $0.adapter != nil }.count))
            let measurements: [(String, KeyPath<BLEPeripheral.Snapshot, Int>, KeyPath<BLEPeripheral.Snapshot, Int>)] = [
                ("heart_rate", \.heartRateSubscribers, \.heartRateSent), ("running", \.runningSubscribers, \.runningSent),
            ]
            for (measurement, subscribers, sent) in measurements {
                let measured = labels + [("measurement", measurement)]
                families.add("hrbridge_peripheral_centrals", .gauge, "Centrals subscribed to the peripheral's measurement.", measured,
                             Double(peripherals.reduce(0) { $0 + $1[keyPath: subscribers] }))
                families.add("hrbridge_peripheral_notifications_total", .counter,
                             "Measurement values the peripheral sent (each to every subscribed central).", measured,
                             Double(peripherals.reduce(0) { $0 + $1[keyPath: sent] }))
            }
        }
    }

    /// Metric families in the order first added, each with its samples.
    private struct Families {
        enum Kind: String { case counter, gauge }
        private var order: [String] = []
        private var headers: [String: String] = [:]
        private var samples: [String: [String]] = [:]

        mutating func add(_ name: String, _ kind: Kind, _ help: String, _ labels: [(String, String)], _ value: Double) {
            if headers[name] == nil {
                order.append(name)
                headers[name] = "# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n"
            }
            let labelText = labels.map { "\($0.0)=\"\(escaped($0.1))\"" }.joined(separator: ",")
            samples[name, default: []].append("\(name){\(labelText)} \(format(value))\n")
        }

        var text: String { order.map { headers[$0]! + samples[$0]!.joined() }.joined() }

        /// Label values escape backslash, double quote and line feed (the format's three).
        private func escaped(_ value: String) -> String {
            var text = ""
            for character in value.unicodeScalars {
                switch character {
                case "\\": text += "\\\\"
                case "\"": text += "\\\""
                case "\n": text += "\\n"
                default: text.unicodeScalars.append(character)
                }
            }
            return text
        }

        private func format(_ value: Double) -> String {
            value.rounded() == value && value.magnitude < 1e15 ? String(Int64(value)) : String(value)
        }
    }
}

extension SensorKind {
    /// The kind as a label value: `heart_rate`, `running_speed_and_cadence`.
    var metricName: String { name.lowercased().split(separator: " ").joined(separator: "_") }
}
