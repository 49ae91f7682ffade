/// Self-contained SVG charts: box plots and bar charts over categories, box plots in groups
/// (a place) coloured by their key (a protocol), line charts over a numeric (optionally
/// logarithmic) axis. Colour means something or nothing: a protocol always has its own colour
/// (Okabe and Ito's colour-blind-safe palette: TCP blue, UDP orange, QUIC green), every colour
/// is in the legend, and a chart whose boxes or bars share one meaning draws them in one
/// colour. Axes carry units; numbers are printed with `NumberText`, so the same data always
/// gives the same bytes; a chart is as wide as its boxes need.
public struct SvgChart: Sendable {
    /// One series of a line chart.
    public struct Series: Sendable {
        public var name: String
        public var points: [(x: Double, y: Double)]
        /// What gives the colour (a protocol), when it is not the name itself.
        public var colorKey: String?
        /// The line's dash pattern, by number: 0 solid, then dashed, dotted, dash-dotted (a
        /// second property, such as the write size, beside the colour's).
        public var dash: Int
        public init(name: String, points: [(x: Double, y: Double)], colorKey: String? = nil, dash: Int = 0) {
            self.name = name
            self.points = points
            self.colorKey = colorKey
            self.dash = dash
        }
    }

    /// The dash patterns of `Series.dash`.
    static let dashes = ["", "6 3", "2 3", "8 3 2 3"]

    /// What to draw.
    public enum Kind: Sendable {
        /// Tukey box plots, one per category: quartiles and median, whiskers to the farthest
        /// value within 1.5 IQR, points beyond them drawn as outliers; optionally a log y axis.
        case boxes([(label: String, values: [Double])], logY: Bool)
        /// Bars: one value per category.
        case bars([(label: String, value: Double)])
        /// Lines over a numeric x axis.
        case lines([Series], logX: Bool)
        /// Box plots in groups along the x axis, each box coloured by its key and filled or
        /// outlined, with an optional band and a note above each group.
        case groupedBoxes([BoxGroup], logY: Bool)
    }

    /// One box of a group: its key (the colour and the legend entry), its values, whether it is
    /// filled (measured) or outlined (simulated), and an optional shaded band behind it (the
    /// range it should fall in).
    public struct Box: Sendable {
        public var key: String
        public var values: [Double]
        public var filled: Bool
        public var band: ClosedRange<Double>?
        public init(key: String, values: [Double], filled: Bool = true, band: ClosedRange<Double>? = nil) {
            self.key = key
            self.values = values
            self.filled = filled
            self.band = band
        }
    }

    /// A group of boxes under one axis label, with an optional note drawn above it.
    public struct BoxGroup: Sendable {
        public var label: String
        public var boxes: [Box]
        public var note: String?
        public init(label: String, boxes: [Box], note: String? = nil) {
            self.label = label
            self.boxes = boxes
            self.note = note
        }
    }

    public var title: String
    public var xLabel: String
    public var yLabel: String
    public var kind: Kind

    public init(title: String, xLabel: String, yLabel: String, kind: Kind) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.kind = kind
    }

    static let minimumWidth = 760.0, height = 440.0
    static let left = 80.0, right = 170.0, top = 50.0, bottom = 90.0
    /// Okabe and Ito's palette ("Color Universal Design", 2008), for series without a protocol.
    static let palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
    /// The one colour of boxes and bars whose colour means nothing.
    static let plain = "#56B4E9"
    /// Each protocol's colour, the same in every chart.
    static let protocolColors = ["tcp": "#0072B2", "udp": "#E69F00", "quic": "#009E73"]

    /// The colour of series or box key `name`: its protocol's, else the palette's `index`th.
    static func color(_ name: String, index: Int) -> String {
        protocolColors[name.lowercased()] ?? palette[index % palette.count]
    }

    /// The chart's width: at least `minimumWidth`, wider when its boxes need the room (28 px a box).
    var width: Double {
        let boxes: Int
        switch kind {
        case .boxes(let g, _): boxes = g.count
        case .groupedBoxes(let g, _): boxes = g.reduce(0) { $0 + $1.boxes.count + 1 }
        case .bars(let b): boxes = b.count
        case .lines: boxes = 0
        }
        return Swift.max(SvgChart.minimumWidth, SvgChart.left + SvgChart.right + 28 * Double(boxes))
    }

    static func f(_ v: Double) -> String { NumberText.fixed(v, decimals: 1) }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
            of: ">", with: "&gt;")
    }

    /// "Nice" tick values covering [lo, hi].
    /// At most 12 ticks, and none for a non-finite range: a step too small to move a huge value
    /// (1e17 + 20 == 1e17 in floating point) can never loop forever.
    static func ticks(_ lo: Double, _ hi: Double) -> [Double] {
        guard lo.isFinite, hi.isFinite, (hi - lo).isFinite else { return [] }
        let span = Swift.max(hi - lo, 1e-9)
        let raw = span / 5
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? raw
        var t = floor(lo / step) * step
        var out: [Double] = [t]
        while t < hi - step * 1e-9 && out.count < 12 {
            let next = t + step
            guard next > t else { break }
            t = next
            out.append(t)
        }
        return out
    }

    static func label(_ v: Double) -> String {
        if abs(v) >= 1000 || v == v.rounded() { return NumberText.fixed(v, decimals: 0) }
        if abs(v) >= 10 { return NumberText.fixed(v, decimals: 1) }
        if abs(v) >= 0.01 || v == 0 { return NumberText.fixed(v, decimals: 2) }
        // Small values (log axes reach 0.001 and below): enough decimals to show the first digit.
        let decimals = Int((-log10(abs(v)) - 1e-9).rounded(.up))
        return decimals <= 9 ? NumberText.fixed(v, decimals: decimals) : "\(v)"  // shortest round-trip form
    }

    /// A Tukey box of sorted, non-empty values: the quartiles and median, and the whiskers'
    /// ends, the farthest values within 1.5 IQR of the box.
    static func tukey(_ v: [Double]) -> (q1: Double, median: Double, q3: Double, low: Double, high: Double) {
        let q1 = quantile(v, 0.25), median = quantile(v, 0.5), q3 = quantile(v, 0.75)
        let fence = 1.5 * (q3 - q1)
        return (q1, median, q3, v.first { $0 >= q1 - fence } ?? q1, v.last { $0 <= q3 + fence } ?? q3)
    }

    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        let pos = q * Double(sorted.count - 1)
        let i = Int(pos), frac = pos - Double(i)
        return i + 1 < sorted.count ? sorted[i] + frac * (sorted[i + 1] - sorted[i]) : sorted[i]
    }

    /// The SVG document.
    public var svg: String {
        let w = width, h = SvgChart.height
        let plotW = w - SvgChart.left - SvgChart.right, plotH = h - SvgChart.top - SvgChart.bottom
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\" viewBox=\"0 0 \(Int(w)) \(Int(h))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        out +=
            "<text x=\"\(SvgChart.f(w / 2))\" y=\"24\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">\(SvgChart.escape(title))</text>\n"
        // y range
        var ys: [Double] = []
        var logY = false
        switch kind {
        case .boxes(let groups, let log):
            ys = groups.flatMap(\.values)
            logY = log
        case .bars(let bars): ys = bars.map(\.value)
        case .lines(let series, _): ys = series.flatMap { $0.points.map(\.y) }
        case .groupedBoxes(let groups, let log):
            ys = groups.flatMap {
                $0.boxes.flatMap { $0.values + ($0.band.map { [$0.lowerBound, $0.upperBound] } ?? []) }
            }
            logY = log
        }
        let yTicks: [Double]
        let py: (Double) -> Double
        if logY {
            let positive = ys.filter { $0 > 0 && $0.isFinite }
            let lo = floor(log10(positive.min() ?? 1)), hi = ceil(log10(positive.max() ?? 10))
            yTicks = stride(from: lo, through: Swift.max(hi, lo + 1), by: 1).map { pow(10, $0) }
            let l0 = lo, span = Swift.max(hi, lo + 1) - lo
            py = { SvgChart.top + plotH - (log10(Swift.max($0, pow(10, l0))) - l0) / span * plotH }
        } else {
            yTicks = SvgChart.ticks(0, Swift.max(ys.filter(\.isFinite).max() ?? 1, 1e-9) * 1.05)
            let yTop = yTicks.last ?? 1
            py = { SvgChart.top + plotH - $0 / yTop * plotH }
        }
        // axes and y grid
        for t in yTicks {
            out +=
                "<line x1=\"\(SvgChart.f(SvgChart.left))\" y1=\"\(SvgChart.f(py(t)))\" x2=\"\(SvgChart.f(SvgChart.left + plotW))\" y2=\"\(SvgChart.f(py(t)))\" stroke=\"#e0e0e0\"/>\n"
            out +=
                "<text x=\"\(SvgChart.f(SvgChart.left - 6))\" y=\"\(SvgChart.f(py(t) + 4))\" text-anchor=\"end\">\(SvgChart.label(t))</text>\n"
        }
        out +=
            "<line x1=\"\(SvgChart.f(SvgChart.left))\" y1=\"\(SvgChart.f(SvgChart.top))\" x2=\"\(SvgChart.f(SvgChart.left))\" y2=\"\(SvgChart.f(SvgChart.top + plotH))\" stroke=\"black\"/>\n"
        out +=
            "<line x1=\"\(SvgChart.f(SvgChart.left))\" y1=\"\(SvgChart.f(SvgChart.top + plotH))\" x2=\"\(SvgChart.f(SvgChart.left + plotW))\" y2=\"\(SvgChart.f(SvgChart.top + plotH))\" stroke=\"black\"/>\n"
        out +=
            "<text transform=\"translate(18,\(SvgChart.f(SvgChart.top + plotH / 2))) rotate(-90)\" text-anchor=\"middle\">\(SvgChart.escape(yLabel))</text>\n"
        switch kind {
        case .boxes, .bars, .groupedBoxes:
            // Category labels are slanted below the axis; the axis title goes beside its end.
            out +=
                "<text x=\"\(SvgChart.f(SvgChart.left + plotW + 8))\" y=\"\(SvgChart.f(SvgChart.top + plotH + 4))\" text-anchor=\"start\">\(SvgChart.escape(xLabel))</text>\n"
        case .lines:
            out +=
                "<text x=\"\(SvgChart.f(SvgChart.left + plotW / 2))\" y=\"\(SvgChart.f(h - 20))\" text-anchor=\"middle\">\(SvgChart.escape(xLabel))</text>\n"
        }
        switch kind {
        case .boxes(let groups, _):
            let slot = plotW / Double(Swift.max(groups.count, 1))
            for (i, g) in groups.enumerated() {
                let cx = SvgChart.left + slot * (Double(i) + 0.5)
                out +=
                    "<text transform=\"translate(\(SvgChart.f(cx)),\(SvgChart.f(SvgChart.top + plotH + 14))) rotate(30)\" text-anchor=\"start\">\(SvgChart.escape(g.label))</text>\n"
                let v = g.values.sorted()
                guard !v.isEmpty else { continue }
                let (q1, med, q3, low, high) = SvgChart.tukey(v)
                let bw = slot * 0.5
                let color = SvgChart.plain
                out += "<g class=\"box\" data-label=\"\(SvgChart.escape(g.label))\">"
                out +=
                    "<line x1=\"\(SvgChart.f(cx))\" y1=\"\(SvgChart.f(py(low)))\" x2=\"\(SvgChart.f(cx))\" y2=\"\(SvgChart.f(py(high)))\" stroke=\"\(color)\"/>"
                for o in v where o < low || o > high {
                    out +=
                        "<circle cx=\"\(SvgChart.f(cx))\" cy=\"\(SvgChart.f(py(o)))\" r=\"2\" fill=\"none\" stroke=\"\(color)\"/>"
                }
                out +=
                    "<rect x=\"\(SvgChart.f(cx - bw / 2))\" y=\"\(SvgChart.f(py(q3)))\" width=\"\(SvgChart.f(bw))\" height=\"\(SvgChart.f(Swift.max(py(q1) - py(q3), 1)))\" fill=\"\(color)\" fill-opacity=\"0.3\" stroke=\"\(color)\"/>"
                out +=
                    "<line x1=\"\(SvgChart.f(cx - bw / 2))\" y1=\"\(SvgChart.f(py(med)))\" x2=\"\(SvgChart.f(cx + bw / 2))\" y2=\"\(SvgChart.f(py(med)))\" stroke=\"black\" stroke-width=\"2\"/>"
                out += "</g>\n"
            }
        case .bars(let bars):
            let slot = plotW / Double(Swift.max(bars.count, 1))
            for (i, b) in bars.enumerated() {
                let cx = SvgChart.left + slot * (Double(i) + 0.5)
                let color = SvgChart.plain
                out +=
                    "<rect class=\"bar\" data-label=\"\(SvgChart.escape(b.label))\" x=\"\(SvgChart.f(cx - slot * 0.3))\" y=\"\(SvgChart.f(py(b.value)))\" width=\"\(SvgChart.f(slot * 0.6))\" height=\"\(SvgChart.f(SvgChart.top + plotH - py(b.value)))\" fill=\"\(color)\"/>\n"
                out +=
                    "<text x=\"\(SvgChart.f(cx))\" y=\"\(SvgChart.f(py(b.value) - 4))\" text-anchor=\"middle\">\(SvgChart.label(b.value))</text>\n"
                out +=
                    "<text x=\"\(SvgChart.f(cx))\" y=\"\(SvgChart.f(SvgChart.top + plotH + 18))\" text-anchor=\"middle\">\(SvgChart.escape(b.label))</text>\n"
            }
        case .lines(let series, let logX):
            let xs = series.flatMap { $0.points.map(\.x) }.filter(\.isFinite)
            let tx: (Double) -> Double = logX ? { log10(Swift.max($0, 1e-9)) } : { $0 }
            let lo = tx(xs.min() ?? 0), hi = tx(xs.max() ?? 1)
            let span = hi - lo > 0 ? hi - lo : 1
            func px(_ v: Double) -> Double { SvgChart.left + (tx(v) - lo) / span * plotW }
            let xTicks: [Double]
            if logX {
                let decades: [Double] = stride(from: floor(lo), through: ceil(hi), by: 1).map { pow(10, $0) }
                xTicks = decades.filter { (t: Double) -> Bool in tx(t) >= lo - 1e-9 && tx(t) <= hi + 1e-9 }
            } else {
                let first: Double = xs.min() ?? 0, last: Double = xs.max() ?? 1
                xTicks = SvgChart.ticks(first, last).filter { (t: Double) -> Bool in
                    t >= first - 1e-9 && t <= last + 1e-9
                }
            }
            for t in xTicks {
                out +=
                    "<text x=\"\(SvgChart.f(px(t)))\" y=\"\(SvgChart.f(SvgChart.top + plotH + 18))\" text-anchor=\"middle\">\(SvgChart.label(t))</text>\n"
            }
            for (i, s) in series.enumerated() {
                let color = SvgChart.color(s.colorKey ?? s.name, index: i)
                let pattern = SvgChart.dashes[s.dash % SvgChart.dashes.count]
                let dash = pattern.isEmpty ? "" : " stroke-dasharray=\"\(pattern)\""
                let pts = s.points.sorted { $0.x < $1.x }.map { "\(SvgChart.f(px($0.x))),\(SvgChart.f(py($0.y)))" }
                    .joined(separator: " ")
                out +=
                    "<polyline class=\"series\" data-series=\"\(SvgChart.escape(s.name))\" data-color=\"\(color)\" points=\"\(pts)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dash)/>\n"
                for p in s.points {
                    out +=
                        "<circle cx=\"\(SvgChart.f(px(p.x)))\" cy=\"\(SvgChart.f(py(p.y)))\" r=\"3\" fill=\"\(color)\"/>\n"
                }
                let ly = SvgChart.top + 10 + Double(i) * 18
                out +=
                    "<line x1=\"\(SvgChart.f(w - SvgChart.right + 15))\" y1=\"\(SvgChart.f(ly))\" x2=\"\(SvgChart.f(w - SvgChart.right + 35))\" y2=\"\(SvgChart.f(ly))\" stroke=\"\(color)\" stroke-width=\"3\"\(dash)/>"
                out +=
                    "<text x=\"\(SvgChart.f(w - SvgChart.right + 40))\" y=\"\(SvgChart.f(ly + 4))\">\(SvgChart.escape(s.name))</text>\n"
            }
        case .groupedBoxes(let groups, _):
            out += SvgChart.groupedBoxes(groups, plotW: plotW, plotH: plotH, width: w, py: py)
        }
        out += "</svg>\n"
        return out
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
