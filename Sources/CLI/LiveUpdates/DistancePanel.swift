import Evaluation
import FoundationEssentials
import Sensors
import LiveState
import Platform

/// `plot`'s second panel, for a trace with a distance sensor: the true distance (a thin grey line
/// through the sensor's measurements, from 0 at each activity's start) and the distance the phone
/// showed (blue steps, held from one update to the next), on the heart-rate panel's time axis. The
/// gap between them is how far the Lock Screen lagged.
struct DistancePanel {
    var area: PlotLayout.Panel
    var track: DistanceTrack
    var score: DistanceScore
    var updates: [ActivityUpdate]

    func add(to svg: inout SVGText, t: (Timestamp) -> Double, end: Timestamp) {
        let highest = max(track.points.map(\.meters).max() ?? 0, updates.map(\.contentState.distanceMeters).max() ?? 0)
        let step = PlotScale.step(for: highest, candidates: [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500,
                                                            5000, 10000, 20000, 25000, 50000, 100_000], maximumTicks: 4)
        let y = PlotScale(domain: 0...max((highest / step).rounded(.up) * step, step), pixels: (area.bottom, area.top))
        addAxis(to: &svg, y: y, step: step)
        addShown(to: &svg, t: t, y: y, end: end)
        addMeasured(to: &svg, t: t, y: y) // on top: over a long run the steps are thinner than their line
    }

    /// In metres up to a kilometre step, in kilometres from there, so the labels stay short.
    private func addAxis(to svg: inout SVGText, y: PlotScale, step: Double) {
        let n = SVGText.number
        let (unit, metersPerUnit) = step >= 1000 ? ("km", 1000.0) : ("m", 1.0)
        for value in y.ticks(step: step) {
            svg.add(##"<line x1="\##(n(area.left))" x2="\##(n(area.right))" y1="\##(n(y(value)))" y2="\##(n(y(value)))" stroke="#e6e6e6"/>"##)
            svg.add(##"<text x="\##(n(area.left - 8))" y="\##(n(y(value) + 4))" font-size="12" text-anchor="end" fill="#444">\##(n(value / metersPerUnit))</text>"##)
        }
        svg.add(##"<text transform="translate(18 \##(n((area.top + area.bottom) / 2))) rotate(-90)" font-size="13" text-anchor="middle" fill="#444">distance (\##(unit))</text>"##)
    }

    /// Straight between measurements (the athlete moved on in between), from 0 at the activity's start.
    private func addMeasured(to svg: inout SVGText, t: (Timestamp) -> Double, y: PlotScale) {
        let n = SVGText.number
        var path = ""
        var activity: String?
        for point in track.points {
            if point.activityID != activity, let start = updates.first(where: { $0.activityID == point.activityID }) {
                path += "M\(n(t(start.timestamp))) \(n(y(0)))"
            }
            path += "L\(n(t(point.time))) \(n(y(point.meters)))"
            activity = point.activityID
        }
        svg.add(##"<path d="\##(path)" fill="none" stroke="#555" stroke-width="1.1" stroke-opacity="0.8"/>"##)
    }

    /// Each update's distance held until the next one; the end rises to the final state and stops.
    private func addShown(to svg: inout SVGText, t: (Timestamp) -> Double, y: PlotScale, end: Timestamp) {
        let n = SVGText.number
        var path = ""
        for (index, update) in updates.enumerated() {
            let level = n(y(update.contentState.distanceMeters))
            let continues = index > 0 && updates[index - 1].event != .end
            path += continues ? "V\(level)" : "M\(n(t(update.timestamp))) \(level)"
            guard update.event != .end else { continue }
            path += "H\(n(t(index + 1 < updates.count ? updates[index + 1].timestamp : end)))"
        }
        svg.add(##"<path d="\##(path)" fill="none" stroke="#1f77b4" stroke-width="2.2"/>"##)
    }

    /// A legend row of its own: the two lines and the figures `evaluate` gives.
    func addLegend(to svg: inout SVGText, top: Double) {
        let n = SVGText.number
        var x = area.left
        func item(_ symbol: String, _ text: String, colour: String = "#333") {
            svg.add(symbol)
            svg.add(##"<text x="\##(n(x + 18))" y="\##(n(top + 4))" font-size="12" fill="\##(colour)">\##(SVGText.escaped(text))</text>"##)
            x += 26 + Double(text.count) * 7
        }
        item(##"<path d="M\##(n(x)) \##(n(top))h14" stroke="#555" stroke-width="1.2"/>"##, "distance measured by the sensor")
        item(##"<path d="M\##(n(x)) \##(n(top))h14" stroke="#1f77b4" stroke-width="2.5"/>"##, "distance shown on the phone")
        let figures = "\(score.shownMeters.fixed(1)) m shown at the end (\(score.measuredMeters.fixed(1)) m measured), "
            + "at most \(score.largestLagMeters.fixed(1)) m behind"
        svg.add(##"<text x="\##(n(x + 6))" y="\##(n(top + 4))" font-size="12" fill="#777">\##(SVGText.escaped(figures))</text>"##)
    }
}
