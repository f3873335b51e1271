import Evaluation
import FoundationEssentials
import Sensors
import LiveState
import Platform

/// `plot`'s chart: raw samples, the rate the phone showed (steps, with the tolerance band), a marker
/// per update coloured by reason, shaded sensor-lost spans, time and bpm axes, and a legend; below,
/// for a trace with a distance sensor, the distance panel on the same time axis (`DistancePanel`).
/// Built so a person tuning the cadence sees at a glance what the engine did and why.
struct UpdatePlot {
    var title: String
    var run: RecordedRun
    var score: CadenceScore
    var tolerance: Double

    private let plotArea = PlotLayout.heartRate

    /// Reason colours, chosen to read apart (and in the same order as the legend).
    static let palette: [(reason: String, colour: String, label: String)] = [
        ("start", "#2ca02c", "start"),
        ("changed", "#1f77b4", "changed"),
        ("refresh", "#9a9a9a", "refresh"),
        ("sensor-lost", "#d62728", "sensor lost"),
        ("sensor-back", "#ff7f0e", "sensor back"),
        ("paused", "#9467bd", "paused"),
        ("resumed", "#9467bd", "resumed"),
        ("label", "#17becf", "label"),
        ("end", "#222222", "end"),
    ]

    func svg() -> String {
        guard let span = run.span else { return emptyChart() }
        let start = span.lowerBound
        let seconds = max(span.upperBound.seconds(since: start), 1)
        let rates = run.samples.map(\.rate) + run.updates.compactMap(\.contentState.heartRate)
        let low = (Double((rates.min() ?? 60) - 8) / 10).rounded(.down) * 10
        let high = (Double((rates.max() ?? 180) + 8) / 10).rounded(.up) * 10
        let track = run.distanceTrack
        let layout = PlotLayout(distancePanel: track != nil)
        let x = PlotScale(domain: 0...seconds, pixels: (plotArea.left, plotArea.right))
        let y = PlotScale(domain: low...high, pixels: (plotArea.bottom, plotArea.top))
        func t(_ time: Timestamp) -> Double { x(time.seconds(since: start)) }

        var svg = SVGText()
        let (width, height) = (SVGText.number(PlotLayout.width), SVGText.number(layout.height))
        svg.add(##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(width)" height="\##(height)" viewBox="0 0 \##(width) \##(height)" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"##)
        svg.add(##"<rect width="\##(width)" height="\##(height)" fill="#ffffff"/>"##)
        addTitle(to: &svg)
        addLostSpans(to: &svg, t: t, end: span.upperBound)
        addAxes(to: &svg, layout: layout, x: x, y: y, seconds: seconds, low: low, high: high)
        addSamples(to: &svg, t: t, y: y)
        addPublished(to: &svg, t: t, y: y, end: span.upperBound)
        addMarkers(to: &svg, t: t, y: y)
        addLegend(to: &svg, top: layout.legendTop)
        if let track, let area = layout.distance, let distance = score.distance {
            let panel = DistancePanel(area: area, track: track, score: distance, updates: run.updates)
            panel.add(to: &svg, t: t, end: span.upperBound)
            panel.addLegend(to: &svg, top: layout.distanceLegendTop)
        }
        svg.add("</svg>")
        return svg.text
    }

    private func addTitle(to svg: inout SVGText) {
        let n = SVGText.number
        svg.add(##"<text x="64" y="28" font-size="18" font-weight="bold" fill="#222">\##(SVGText.escaped(title))</text>"##)
        let lossText = score.lossDelays.max().map { ", sensor lost ≤ \($0.fixed(1)) s after the last sample" } ?? ""
        let summary = "\(score.updates) updates (\(score.updatesPerHour.fixed(1)) per hour), "
            + (score.withinToleranceShare * 100).fixed(1) + " %" + " of live time within ±\(n(tolerance)) bpm"
            + lossText + ", \(n(score.staleLiveSeconds)) s stale while live"
        svg.add(##"<text x="64" y="50" font-size="13" fill="#555">\##(SVGText.escaped(summary))</text>"##)
    }

    /// The bpm axis on the heart-rate panel; the time axis across every panel, labelled below the lowest.
    private func addAxes(to svg: inout SVGText, layout: PlotLayout, x: PlotScale, y: PlotScale, seconds: Double, low: Double, high: Double) {
        let n = SVGText.number
        let bpmStep = PlotScale.step(for: high - low, candidates: [5, 10, 20, 25, 50], maximumTicks: 10)
        for value in y.ticks(step: bpmStep) {
            svg.add(##"<line x1="\##(n(plotArea.left))" x2="\##(n(plotArea.right))" y1="\##(n(y(value)))" y2="\##(n(y(value)))" stroke="#e6e6e6"/>"##)
            svg.add(##"<text x="\##(n(plotArea.left - 8))" y="\##(n(y(value) + 4))" font-size="12" text-anchor="end" fill="#444">\##(Int(value))</text>"##)
        }
        let timeStep = PlotScale.step(for: seconds, candidates: [5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200], maximumTicks: 14)
        let axis = layout.timeAxis
        for value in x.ticks(step: timeStep) {
            for panel in layout.panels {
                svg.add(##"<line x1="\##(n(x(value)))" x2="\##(n(x(value)))" y1="\##(n(panel.top))" y2="\##(n(panel.bottom))" stroke="#f0f0f0"/>"##)
            }
            svg.add(##"<line x1="\##(n(x(value)))" x2="\##(n(x(value)))" y1="\##(n(axis))" y2="\##(n(axis + 5))" stroke="#444"/>"##)
            svg.add(##"<text x="\##(n(x(value)))" y="\##(n(axis + 20))" font-size="12" text-anchor="middle" fill="#444">\##(clock(value))</text>"##)
        }
        for panel in layout.panels {
            svg.add(##"<rect x="\##(n(panel.left))" y="\##(n(panel.top))" width="\##(n(panel.right - panel.left))" height="\##(n(panel.bottom - panel.top))" fill="none" stroke="#444"/>"##)
        }
        svg.add(##"<text x="\##(n((plotArea.left + plotArea.right) / 2))" y="\##(n(axis + 40))" font-size="13" text-anchor="middle" fill="#444">time since the first event (\##(seconds >= 3600 ? "h:mm:ss" : "m:ss"))</text>"##)
        svg.add(##"<text transform="translate(18 \##(n((plotArea.top + plotArea.bottom) / 2))) rotate(-90)" font-size="13" text-anchor="middle" fill="#444">heart rate (bpm)</text>"##)
    }

    /// Light red from each sensor-lost update to the next update that shows a rate again (or the end).
    private func addLostSpans(to svg: inout SVGText, t: (Timestamp) -> Double, end: Timestamp) {
        let n = SVGText.number
        for (index, update) in run.updates.enumerated() where update.reason == .sensorLost {
            let back = run.updates[(index + 1)...].first { $0.contentState.heartRate != nil || $0.event == .end }
            let from = t(update.timestamp), to = t(back?.timestamp ?? end)
            svg.add(##"<rect x="\##(n(from))" y="\##(n(plotArea.top))" width="\##(n(max(to - from, 1)))" height="\##(n(plotArea.bottom - plotArea.top))" fill="#d62728" fill-opacity="0.12"/>"##)
        }
    }

    /// The published rate as steps (held until the next update), with a ±tolerance band behind it.
    private func addPublished(to svg: inout SVGText, t: (Timestamp) -> Double, y: PlotScale, end: Timestamp) {
        let n = SVGText.number
        var line = ""
        var band = ""
        for (index, update) in run.updates.enumerated() {
            guard update.event != .end, let rate = update.contentState.heartRate else { continue }
            let next = index + 1 < run.updates.count ? run.updates[index + 1].timestamp : end
            let (from, to, level) = (t(update.timestamp), t(next), y(Double(rate)))
            let continues = index > 0 && run.updates[index - 1].contentState.heartRate != nil && run.updates[index - 1].event != .end
            line += continues ? "V\(n(level))H\(n(to))" : "M\(n(from)) \(n(level))H\(n(to))"
            let top = y(Double(rate) + tolerance), bottom = y(Double(rate) - tolerance)
            band += "M\(n(from)) \(n(top))H\(n(to))V\(n(bottom))H\(n(from))Z"
        }
        svg.add(##"<path d="\##(band)" fill="#1f77b4" fill-opacity="0.10"/>"##)
        svg.add(##"<path d="\##(line)" fill="none" stroke="#1f77b4" stroke-width="2.2"/>"##)
    }

    /// The true samples, broken where they stop for longer than the engine's silence timeout.
    private func addSamples(to svg: inout SVGText, t: (Timestamp) -> Double, y: PlotScale) {
        let n = SVGText.number
        var path = ""
        var previous: Timestamp?
        for sample in run.samples {
            let joined = previous.map { sample.time.seconds(since: $0) < 10 } ?? false
            path += (joined ? "L" : "M") + "\(n(t(sample.time))) \(n(y(Double(sample.rate))))"
            previous = sample.time
        }
        svg.add(##"<path d="\##(path)" fill="none" stroke="#555" stroke-width="0.9" stroke-opacity="0.75"/>"##)
        if run.samples.count < 600 { // sparse sources: show each sample
            for sample in run.samples {
                svg.add(##"<circle cx="\##(n(t(sample.time)))" cy="\##(n(y(Double(sample.rate))))" r="1.6" fill="#555"/>"##)
            }
        }
    }

    /// One marker per update: on the shown rate, or on the top edge when no rate is shown.
    private func addMarkers(to svg: inout SVGText, t: (Timestamp) -> Double, y: PlotScale) {
        let n = SVGText.number
        for update in run.updates {
            let key = update.reason.endCause != nil ? "end" : update.reason.rawValue
            let colour = Self.palette.first { $0.reason == key }?.colour ?? "#000000"
            let cy = update.contentState.heartRate.map { y(Double($0)) } ?? plotArea.top
            let shape = update.priority == ActivityUpdate.immediatePriority
                ? ##"<rect x="\##(n(t(update.timestamp) - 5))" y="\##(n(cy - 5))" width="10" height="10""##
                : ##"<circle cx="\##(n(t(update.timestamp)))" cy="\##(n(cy))" r="4""##
            svg.add(shape + ##" fill="\##(colour)" stroke="#ffffff" stroke-width="1"><title>\##(SVGText.escaped(describe(update)))</title></\##(shape.hasPrefix("<rect") ? "rect" : "circle")>"##)
        }
    }

    private func addLegend(to svg: inout SVGText, top: Double) {
        let n = SVGText.number
        var x = plotArea.left
        func item(_ symbol: String, _ text: String) {
            svg.add(symbol)
            svg.add(##"<text x="\##(n(x + 18))" y="\##(n(top + 4))" font-size="12" fill="#333">\##(SVGText.escaped(text))</text>"##)
            x += 26 + Double(text.count) * 7
        }
        item(##"<path d="M\##(n(x)) \##(n(top))h14" stroke="#555" stroke-width="1.2"/>"##, "samples")
        item(##"<path d="M\##(n(x)) \##(n(top))h14" stroke="#1f77b4" stroke-width="2.5"/>"##, "shown on the phone (±\(SVGText.number(tolerance)) bpm band)")
        item(##"<rect x="\##(n(x))" y="\##(n(top - 7))" width="14" height="14" fill="#d62728" fill-opacity="0.12"/>"##, "sensor lost")
        x = plotArea.left
        let row = top + 24
        let counts = score.updatesByReason.reduce(into: [String: Int]()) { counts, entry in
            counts[entry.key.hasPrefix("end:") ? "end" : entry.key, default: 0] += entry.value
        }
        for entry in Self.palette {
            let count = counts[entry.reason] ?? 0
            let immediate = UpdateReason(rawValue: entry.reason == "end" ? "end:stopped" : entry.reason).isImmediate
            let symbol = immediate
                ? ##"<rect x="\##(n(x + 2))" y="\##(n(row - 5))" width="10" height="10" fill="\##(entry.colour)"/>"##
                : ##"<circle cx="\##(n(x + 7))" cy="\##(n(row))" r="4.5" fill="\##(entry.colour)"/>"##
            svg.add(symbol)
            let text = "\(entry.label) \(count)"
            svg.add(##"<text x="\##(n(x + 18))" y="\##(n(row + 4))" font-size="12" fill="\##(count > 0 ? "#333" : "#aaa")">\##(text)</text>"##)
            x += 30 + Double(text.count) * 7
        }
        svg.add(##"<text x="\##(n(x + 6))" y="\##(n(row + 4))" font-size="12" fill="#777">(squares: priority 10, dots: priority 5)</text>"##)
    }

    private func emptyChart() -> String {
        ##"<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="600"><text x="40" y="60">\##(SVGText.escaped(title)): no events</text></svg>"## + "\n"
    }

    private func describe(_ update: ActivityUpdate) -> String {
        let seconds = run.span.map { update.timestamp.seconds(since: $0.lowerBound) } ?? 0
        let rate = update.contentState.heartRate.map { "\($0) bpm" } ?? "no rate"
        return "\(clock(seconds)) #\(update.sequence) \(update.reason.rawValue): \(rate)"
    }

    private func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 3600
            ? "\(whole / 3600):\((whole / 60 % 60).twoDigits):\((whole % 60).twoDigits)"
            : "\(whole / 60):\((whole % 60).twoDigits)"
    }
}
