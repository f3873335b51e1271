import FoundationEssentials
import Platform

/// Maps data to pixels and picks round tick steps, for one axis.
struct PlotScale {
    var domain: ClosedRange<Double>
    /// Pixel positions of the domain's lower and upper bound (may run downwards, as a y axis does).
    var pixels: (from: Double, to: Double)

    func callAsFunction(_ value: Double) -> Double {
        let span = domain.upperBound - domain.lowerBound
        let share = span > 0 ? (value - domain.lowerBound) / span : 0
        return pixels.from + share * (pixels.to - pixels.from)
    }

    /// Round values inside the domain, `step` apart.
    func ticks(step: Double) -> [Double] {
        var values: [Double] = []
        var value = (domain.lowerBound / step).rounded(.up) * step
        while value <= domain.upperBound + step * 1e-9 {
            values.append(value)
            value += step
        }
        return values
    }

    /// The smallest step from `candidates` that gives at most `maximumTicks` ticks.
    static func step(for span: Double, candidates: [Double], maximumTicks: Int) -> Double {
        candidates.first { span / $0 <= Double(maximumTicks) } ?? (candidates.last ?? max(span, 1))
    }
}

/// Builds SVG text; numbers rounded to 0.1 px so the file stays small and stable.
struct SVGText {
    private(set) var text = ""

    mutating func add(_ element: String) { text += element + "\n" }

    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : rounded.fixed(1)
    }

    static func escaped(_ value: String) -> String {
        value.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
            .replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }
}
