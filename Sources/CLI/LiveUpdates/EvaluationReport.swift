import Evaluation
import FoundationEssentials
import LiveState
import Platform

/// `evaluate`'s output: aligned tables for people, one JSON document for machines.
enum EvaluationReport {
    static func table(_ rows: [(name: String, score: CadenceScore)], tolerance: Double) -> String {
        let headers = ["trace", "duration", "samples", "updates", "per hour", "routine/live h", "p10/h", "p10 max 1 h", "demoted",
                       "live", "within ±\(format(tolerance))", "losses said", "loss delay", "stale live", "payload"]
        var lines = [headers]
        for (name, score) in rows {
            lines.append([
                name, clock(score.durationSeconds), String(score.samples), String(score.updates),
                score.updatesPerHour.fixed(1), score.routinePerLiveHour.fixed(1),
                score.urgentPerHour.fixed(1), String(score.largestUrgentInAnHour), String(score.demotions),
                (score.liveShare * 100).fixed(1) + " %",
                (score.withinToleranceShare * 100).fixed(2) + " %",
                "\(score.dropoutsSaid)/\(score.dropouts)",
                score.lossDelays.max().map { $0.fixed(1) + " s" } ?? "-",
                score.staleLiveSeconds.fixed(0) + " s",
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
                $0.fixed(1) + " m"
            })
        }
        return align(lines)
    }

    /// `evaluate --optimum`: the policy beside the offline optimum, on the oracle's terms.
    static func optimumTable(_ rows: [(name: String, comparison: OptimumComparison)]) -> String {
        let budgets = rows.first?.comparison.budgets.map(\.perLiveHour) ?? []
        var lines = [["optimum (raw samples)", "live", "routine", "policy", "optimum at its count"]
            + budgets.map { "optimum at \(format($0))/h" }]
        for (name, comparison) in rows {
            lines.append([name, clock(comparison.liveHours * 3600), String(comparison.policyRoutineUpdates),
                          (comparison.policyShare * 100).fixed(2) + " %", (comparison.optimumAtPolicyCount * 100).fixed(2) + " %"]
                + comparison.budgets.map { (($0.share * 100).fixed(2) + " % (\($0.updates))") })
        }
        return align(lines)
    }

    static func json(_ rows: [(name: String, score: CadenceScore)], optimums: [(name: String, comparison: OptimumComparison)] = []) -> String {
        let objects = rows.map { row in
            TraceFigures(name: row.name, score: row.score, optimum: optimums.first { $0.name == row.name }?.comparison)
        }
        let document = Document(traces: Array(objects.dropLast()), total: objects.last)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers and dictionaries of them cannot fail.
        let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private struct Document: Encodable {
        let traces: [TraceFigures]
        let total: TraceFigures?
    }

    /// One trace's figures (or the total's) as `evaluate --json` prints them.
    private struct TraceFigures: Encodable {
        struct Distance: Encodable {
            let shownMeters: Double
            let measuredMeters: Double
            let largestLagMeters: Double
        }

        let trace: String
        let durationSeconds: Double
        let samples: Int
        let updates: Int
        let updatesPerHour: Double
        let updatesByReason: [String: Int]
        let urgentUpdates: Int
        let urgentPerHour: Double
        let largestUrgentInAnHour: Int
        let demotions: Int
        let liveSeconds: Double
        let withinToleranceShare: Double
        let shownSeconds: Double
        let routinePerLiveHour: Double
        let dropouts: Int
        let dropoutsSaid: Int
        let lossDelaysSeconds: [Double]
        let staleLiveSeconds: Double
        let largestPayloadBytes: Int
        /// Absent without a distance sensor: no invented zeros.
        let distance: Distance?
        /// With `--optimum` only.
        let optimum: Optimum?

        struct Optimum: Encodable {
            struct Budget: Encodable {
                let perLiveHour: Double
                let routineUpdates: Int
                let withinToleranceShare: Double
            }

            let policyWithinToleranceShare: Double
            let policyRoutineUpdates: Int
            let optimumAtPolicyCount: Double
            let budgets: [Budget]
        }

        init(name: String, score: CadenceScore, optimum: OptimumComparison?) {
            self.optimum = optimum.map {
                Optimum(policyWithinToleranceShare: $0.policyShare, policyRoutineUpdates: $0.policyRoutineUpdates,
                        optimumAtPolicyCount: $0.optimumAtPolicyCount,
                        budgets: $0.budgets.map { Optimum.Budget(perLiveHour: $0.perLiveHour, routineUpdates: $0.updates, withinToleranceShare: $0.share) })
            }
            trace = name
            durationSeconds = score.durationSeconds
            samples = score.samples
            updates = score.updates
            updatesPerHour = score.updatesPerHour
            updatesByReason = score.updatesByReason
            urgentUpdates = score.urgentUpdates
            urgentPerHour = score.urgentPerHour
            largestUrgentInAnHour = score.largestUrgentInAnHour
            demotions = score.demotions
            liveSeconds = score.liveSeconds
            withinToleranceShare = score.withinToleranceShare
            shownSeconds = score.shownSeconds
            routinePerLiveHour = score.routinePerLiveHour
            dropouts = score.dropouts
            dropoutsSaid = score.dropoutsSaid
            lossDelaysSeconds = score.lossDelays
            staleLiveSeconds = score.staleLiveSeconds
            largestPayloadBytes = score.largestPayloadBytes
            distance = score.distance.map { Distance(shownMeters: $0.shownMeters, measuredMeters: $0.measuredMeters, largestLagMeters: $0.largestLagMeters) }
        }
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
        return "\(whole / 3600):\((whole / 60 % 60).twoDigits):\((whole % 60).twoDigits)"
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
