/// Box plots in groups (`SvgChart.Kind.groupedBoxes`): one group per axis label (a place, or
/// a place and protocol), its boxes side by side, each in its key's colour (a protocol's),
/// filled (measured) or outlined (simulated), an optional band shaded behind a box (where it
/// should fall), an optional note above the group (a ratio of medians), and a legend of every
/// key and, when both kinds appear, of what filled and outlined mean.
extension SvgChart {
    static func groupedBoxes(
        _ groups: [BoxGroup], plotW: Double, plotH: Double, width w: Double, py: (Double) -> Double
    ) -> String {
        var out = ""
        let slots = groups.reduce(0) { $0 + $1.boxes.count + 1 }
        let slot = plotW / Double(Swift.max(slots, 1))
        var keys: [String] = []
        for g in groups { for b in g.boxes where !keys.contains(b.key) { keys.append(b.key) } }
        // Protocols in the one order every chart lists them: TCP, UDP, QUIC.
        let order = ["tcp", "udp", "quic"]
        if keys.allSatisfy({ order.contains($0.lowercased()) }) {
            keys.sort { order.firstIndex(of: $0.lowercased()) ?? 0 < order.firstIndex(of: $1.lowercased()) ?? 0 }
        }
        var k = 0  // the slot the next box takes; each group is followed by an empty one
        for g in groups {
            let first = SvgChart.left + slot * (Double(k) + 0.5)
            let last = SvgChart.left + slot * (Double(k + g.boxes.count - 1) + 0.5)
            let mid = (first + last) / 2
            out +=
                "<text transform=\"translate(\(f(mid)),\(f(SvgChart.top + plotH + 14))) rotate(30)\" text-anchor=\"start\">\(escape(g.label))</text>\n"
            out += "<g class=\"group\" data-label=\"\(escape(g.label))\">"
            var highest = SvgChart.top + plotH
            for b in g.boxes {
                let cx = SvgChart.left + slot * (Double(k) + 0.5)
                k += 1
                let color = SvgChart.color(b.key, index: keys.firstIndex(of: b.key) ?? 0)
                let bw = slot * 0.7
                if let band = b.band {
                    out +=
                        "<rect class=\"band\" x=\"\(f(cx - slot / 2))\" y=\"\(f(py(band.upperBound)))\" width=\"\(f(slot))\" height=\"\(f(Swift.max(py(band.lowerBound) - py(band.upperBound), 1)))\" fill=\"#dddddd\"/>"
                }
                let v = b.values.sorted()
                guard !v.isEmpty else { continue }
                let (q1, med, q3, low, high) = tukey(v)
                highest = Swift.min(highest, py(v[v.count - 1]))
                out +=
                    "<g class=\"box\" data-key=\"\(escape(b.key))\" data-filled=\"\(b.filled)\" data-color=\"\(color)\" data-median=\"\(NumberText.fixed(med, decimals: 3))\">"
                out +=
                    "<line x1=\"\(f(cx))\" y1=\"\(f(py(low)))\" x2=\"\(f(cx))\" y2=\"\(f(py(high)))\" stroke=\"\(color)\"/>"
                for o in v where o < low || o > high {
                    out += "<circle cx=\"\(f(cx))\" cy=\"\(f(py(o)))\" r=\"2\" fill=\"none\" stroke=\"\(color)\"/>"
                }
                let fill = b.filled ? "fill=\"\(color)\" fill-opacity=\"0.6\"" : "fill=\"white\""
                out +=
                    "<rect x=\"\(f(cx - bw / 2))\" y=\"\(f(py(q3)))\" width=\"\(f(bw))\" height=\"\(f(Swift.max(py(q1) - py(q3), 1)))\" \(fill) stroke=\"\(color)\" stroke-width=\"2\"/>"
                out +=
                    "<line x1=\"\(f(cx - bw / 2))\" y1=\"\(f(py(med)))\" x2=\"\(f(cx + bw / 2))\" y2=\"\(f(py(med)))\" stroke=\"black\" stroke-width=\"2\"/>"
                out += "</g>"
            }
            if let note = g.note {
                out +=
                    "<text class=\"note\" x=\"\(f(mid))\" y=\"\(f(Swift.max(highest - 6, SvgChart.top - 4)))\" text-anchor=\"middle\" font-size=\"10\">\(escape(note))</text>"
            }
            out += "</g>\n"
            k += 1
        }
        // The legend: each key's colour, then what filled and outlined mean when both appear.
        var ly = SvgChart.top + 10
        for (i, key) in keys.enumerated() {
            let color = SvgChart.color(key, index: i)
            out +=
                "<g class=\"legend\" data-key=\"\(escape(key))\"><rect x=\"\(f(w - SvgChart.right + 15))\" y=\"\(f(ly - 6))\" width=\"16\" height=\"12\" fill=\"\(color)\" fill-opacity=\"0.6\" stroke=\"\(color)\"/>"
            out +=
                "<text x=\"\(f(w - SvgChart.right + 38))\" y=\"\(f(ly + 4))\">\(escape(key.uppercased()))</text></g>\n"
            ly += 18
        }
        let kinds = Set(groups.flatMap { $0.boxes.map(\.filled) })
        if kinds.count == 2 {
            for (filled, name) in [(true, "measured"), (false, "simulated")] {
                let fill = filled ? "fill=\"#777777\" fill-opacity=\"0.6\"" : "fill=\"white\""
                out +=
                    "<g class=\"legend\" data-kind=\"\(name)\"><rect x=\"\(f(w - SvgChart.right + 15))\" y=\"\(f(ly - 6))\" width=\"16\" height=\"12\" \(fill) stroke=\"#777777\" stroke-width=\"2\"/>"
                out += "<text x=\"\(f(w - SvgChart.right + 38))\" y=\"\(f(ly + 4))\">\(name)</text></g>\n"
                ly += 18
            }
        }
        if groups.contains(where: { $0.boxes.contains { $0.band != nil } }) {
            out +=
                "<g class=\"legend\" data-kind=\"band\"><rect x=\"\(f(w - SvgChart.right + 15))\" y=\"\(f(ly - 6))\" width=\"16\" height=\"12\" fill=\"#dddddd\"/>"
            out += "<text x=\"\(f(w - SvgChart.right + 38))\" y=\"\(f(ly + 4))\">agreement band</text></g>\n"
        }
        return out
    }
}
