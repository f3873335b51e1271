/// Where `plot`'s parts go: the heart-rate panel, below it the distance panel when the trace has a
/// distance sensor, then the time axis they share and the legend. Without a distance panel this is
/// the chart as it was before there was one, to the pixel.
struct PlotLayout {
    struct Panel {
        var left: Double
        var right: Double
        var top: Double
        var bottom: Double
    }

    static let width = 1200.0
    static let heartRate = Panel(left: 64, right: 1180, top: 64, bottom: 470)
    /// Shorter than the heart-rate panel: a distance only climbs, and its steps read at that size.
    let distance: Panel?

    init(distancePanel: Bool) {
        distance = distancePanel ? Panel(left: 64, right: 1180, top: 490, bottom: 650) : nil
    }

    var panels: [Panel] { [Self.heartRate] + (distance.map { [$0] } ?? []) }
    /// The bottom of the lowest panel, where the shared time axis hangs.
    var timeAxis: Double { (distance ?? Self.heartRate).bottom }
    /// The legend's first row; the updates by reason below it, then the distance lines in a row of their own.
    var legendTop: Double { timeAxis + 62 }
    var distanceLegendTop: Double { legendTop + 48 }
    var height: Double { legendTop + (distance == nil ? 68 : 92) }
}
