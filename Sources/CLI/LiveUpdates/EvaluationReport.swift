import Foundation
import LiveState

/// `evaluate`'s output: aligned tables for people, one JSON document for machines.
enum EvaluationReport {
    static func table(_ rows: [(name: String, score: CadenceScore)], tolerance: Double) -> String {
        let headers = ["trace", "duration", "samples", "updates", "per hour", "p10/h", "p10 max 1 h", "demoted",
                       "live", "within ±\(format(tolerance))", "loss delay", "stale live", "payload"]
        var lines = [headers]
        for (name, score) in rows {
            lines.append([
                name, clock(score.durationSeconds), String(score.samples), String(score.updates),
                String(format: "%.1f", score.updatesPerHour),
                String(format: "%.1f", score.urgentPerHour), String(score.largestUrgentInAnHour), String(score.demotions),
                String(format: "%.1f %%", score.liveShare * 100),
                String(format: "%.2f %%", score.withinToleranceShare * 100),
                score.lossDelays.max().map { String(format: "%.1f s", $0) } ?? "-",
                String(format: "%.0f s", score.staleLiveSeconds),
                "\(score.largestPayloadBytes) B",
            ])
        }
        var text = align(lines)
        let reasons = rows.last.map { $0.score.updatesByReason.keys.sorted(by: reasonOrder) } ?? []
        var byReason = [["updates by reason"] + reasons]
        for (name, score) in rows {
            byReason.append([name] + reasons.map { String(score.updatesByReason[$0] ?? 0) })
        }
        text += "\n" + align(byReason)
        if rows.contains(where: { $0.score.distance != nil }) { text += "\n" + distanceTable(rows) }
        return text
    }

    /// Only when some trace had a distance sensor; a trace without one says so rather than show zeros.
    private static func distanceTable(_ rows: [(name: String, score: CadenceScore)]) -> String {
        var lines = [["distance", "shown at end", "measured", "largest lag"]]
        for (name, score) in rows {
            guard let distance = score.distance else {
                lines.append([name, "no sensor", "-", "-"])
                continue
            }
            lines.append([name] + [distance.shownMeters, distance.measuredMeters, distance.largestLagMeters].map {
                String(format: "%.1f m", $0)
            })
        }
        return align(lines)
    }

    static func json(_ rows: [(name: String, score: CadenceScore)]) -> String {
        let objects: [[String: Any]] = rows.map { name, score in
            var object: [String: Any] = [
                "trace": name,
                "durationSeconds": score.durationSeconds,
                "samples": score.samples,
                "updates": score.updates,
                "updatesPerHour": score.updatesPerHour,
                "updatesByReason": score.updatesByReason,
                "urgentUpdates": score.urgentUpdates,
                "urgentPerHour": score.urgentPerHour,
                "largestUrgentInAnHour": score.largestUrgentInAnHour,
                "demotions": score.demotions,
                "liveSeconds": score.liveSeconds,
                "withinToleranceShare": score.withinToleranceShare,
                "lossDelaysSeconds": score.lossDelays,
                "staleLiveSeconds": score.staleLiveSeconds,
                "largestPayloadBytes": score.largestPayloadBytes,
            ]
            if let distance = score.distance { // absent without a distance sensor: no invented zeros
                object["distance"] = [
                    "shownMeters": distance.shownMeters,
                    "measuredMeters": distance.measuredMeters,
                    "largestLagMeters": distance.largestLagMeters,
                ]
            }
            return object
        }
        let document: [String: Any] = ["traces": Array(objects.dropLast()), "total": objects.last ?? [:]]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// start, changed, refresh, … in the order a run produces them; unknown ones after, by name.
    private static func reasonOrder(_ lhs: String, _ rhs: String) -> Bool {
        let order = ["start", "changed", "refresh", "sensor-lost", "sensor-back", "paused", "resumed", "label"]
        let left = order.firstIndex(of: lhs) ?? order.count
        let right = order.firstIndex(of: rhs) ?? order.count
        return left != right ? left < right : lhs < rhs
    }

    private static func align(_ lines: [[String]]) -> String {
        let widths = (0..<(lines.first?.count ?? 0)).map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.map { cells in
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    private static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
