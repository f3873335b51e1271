import Evaluation
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

    /// `{"total":{…},"traces":[{…},…]}`: each trace's figures (the last row is the total), keys
    /// sorted; `{}` when a figure has no JSON number (a run too short to rate).
    static func json(_ rows: [(name: String, score: CadenceScore)], optimums: [(name: String, comparison: OptimumComparison)] = []) -> String {
        var json = JSONBytes(capacity: 1024 * rows.count)
        do throws(JSONNumberError) {
            json.beginObject()
            if let total = rows.last {
                json.key("total")
                try figures(total.name, total.score, optimum: optimums.first { $0.name == total.name }?.comparison, to: &json)
            }
            json.key("traces")
            try json.array(rows.dropLast()) { json, row throws(JSONNumberError) in
                try figures(row.name, row.score, optimum: optimums.first { $0.name == row.name }?.comparison, to: &json)
            }
            json.endObject()
        } catch {
            return "{}\n"
        }
        return String(decoding: json.bytes, as: UTF8.self) + "\n"
    }

    /// One trace's figures (or the total's) as `evaluate --json` prints them; `distance` absent
    /// without a distance sensor (no invented zeros), `optimum` with `--optimum` only.
    private static func figures(_ name: String, _ score: CadenceScore, optimum: OptimumComparison?,
                                to json: inout JSONBytes) throws(JSONNumberError) {
        json.beginObject()
        json.key("demotions")
        json.integer(score.demotions)
        if let distance = score.distance {
            json.key("distance")
            json.beginObject()
            json.key("largestLagMeters")
            try json.number(distance.largestLagMeters)
            json.key("measuredMeters")
            try json.number(distance.measuredMeters)
            json.key("shownMeters")
            try json.number(distance.shownMeters)
            json.endObject()
        }
        json.key("dropouts")
        json.integer(score.dropouts)
        json.key("dropoutsSaid")
        json.integer(score.dropoutsSaid)
        json.key("durationSeconds")
        try json.number(score.durationSeconds)
        json.key("largestPayloadBytes")
        json.integer(score.largestPayloadBytes)
        json.key("largestUrgentInAnHour")
        json.integer(score.largestUrgentInAnHour)
        json.key("liveSeconds")
        try json.number(score.liveSeconds)
        json.key("lossDelaysSeconds")
        try json.array(score.lossDelays) { json, delay throws(JSONNumberError) in try json.number(delay) }
        if let optimum {
            json.key("optimum")
            json.beginObject()
            json.key("budgets")
            try json.array(optimum.budgets) { json, budget throws(JSONNumberError) in
                json.beginObject()
                json.key("perLiveHour")
                try json.number(budget.perLiveHour)
                json.key("routineUpdates")
                json.integer(budget.updates)
                json.key("withinToleranceShare")
                try json.number(budget.share)
                json.endObject()
            }
            json.key("optimumAtPolicyCount")
            try json.number(optimum.optimumAtPolicyCount)
            json.key("policyRoutineUpdates")
            json.integer(optimum.policyRoutineUpdates)
            json.key("policyWithinToleranceShare")
            try json.number(optimum.policyShare)
            json.endObject()
        }
        json.key("routinePerLiveHour")
        try json.number(score.routinePerLiveHour)
        json.key("samples")
        json.integer(score.samples)
        json.key("shownSeconds")
        try json.number(score.shownSeconds)
        json.key("staleLiveSeconds")
        try json.number(score.staleLiveSeconds)
        json.key("trace")
        json.string(name, escapingSlash: false)
        json.key("updates")
        json.integer(score.updates)
        json.key("updatesByReason")
        json.object(sortingKeys: score.updatesByReason.map { entry in (entry.key, JSONBytes.value { $0.integer(entry.value) }) },
                    escapingSlash: false)
        json.key("updatesPerHour")
        try json.number(score.updatesPerHour)
        json.key("urgentPerHour")
        try json.number(score.urgentPerHour)
        json.key("urgentUpdates")
        json.integer(score.urgentUpdates)
        json.key("withinToleranceShare")
        try json.number(score.withinToleranceShare)
        json.endObject()
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
