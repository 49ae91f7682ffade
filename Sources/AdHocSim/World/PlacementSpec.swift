import Foundation

/// `"nodes"` given as a placement instead of a list: `count` phones named `n0` … `n<count−1>`,
/// placed independently and uniformly at random over a rectangle whose corner is the origin,
/// at a height of `z_m` (default 1.2 m: an assumption, a phone held in the hand, the
/// height the shipped topologies use). The rectangle is either `area_m: [width, depth]` or a square sized for
/// `density_per_km2` phones per km² (side √(count / density)), at most 8 192 phones, so a sweep over `count` keeps
/// the density and grows the area, as `topologies/bench/mesh-saturation.json` does. Positions
/// are drawn from the stream `"placement"` of the run's seed: each run of a sweep (its own
/// seed) gets its own placement, and the same seed always gives the same one.
extension ScenarioDecoder {
    /// The most phones a placement makes: 8 192, or 20 000 with the interaction cutoff
    /// (`radio.interactionMarginDb`), as for a mesh (`MeshBounds`). A short file must not ask for
    /// more than a run can hold: with every phone in range of every other and no cutoff, a
    /// 4 096-phone run peaks near 1.5 GB (measured: a city square at 100 000 per km²), and the
    /// radio's per-pair state grows with the square of the count (about 6 GB at 8 192); the
    /// cutoff keeps a phone's pairs to those it can hear (issue #31). Both bounds are
    /// assumptions: the 10 000-phone city bench peaks at 2.8 GiB with the cutoff at 3 dB.
    static let maxPlacedNodes = 8192
    static let maxPlacedNodesWithCutoff = 20_000
    /// The densest placement a scenario may ask for, phones per km² (assumption: a crush of
    /// one phone per square metre).
    static let maxDensityPerKm2 = 1_000_000.0

    /// The JSON Schema of a placement (`nodes` as an object), with the bounds `decodePlacement`
    /// checks: the count up to the cutoff's limit (the lower limit without it depends on
    /// another key, so it stays the decoder's), exactly one of `density_per_km2` and `area_m`,
    /// sizes and the height within `ScenarioBounds.maxCoordinate`.
    static var placementSchema: JSONNode {
        func n(_ v: Double) -> String { JSONNumber(v).literal }
        let c = n(ScenarioBounds.maxCoordinate)
        let side = #"{"type": "number", "exclusiveMinimum": 0, "maximum": \#(c)}"#
        return ScenarioSchema.object(
            #"""
            {"type": "object", "properties": {
              "count": {"type": "integer", "minimum": 1, "maximum": \#(maxPlacedNodesWithCutoff)},
              "density_per_km2": {"type": "number", "exclusiveMinimum": 0, "maximum": \#(n(maxDensityPerKm2))},
              "area_m": {"type": "array", "items": \#(side), "minItems": 2, "maxItems": 2},
              "z_m": {"type": "number", "minimum": -\#(c), "maximum": \#(c)}},
             "additionalProperties": false, "required": ["count"],
             "oneOf": [{"required": ["density_per_km2"]}, {"required": ["area_m"]}],
             "description": "phones placed uniformly at random"}
            """#)
    }

    func decodePlacement(
        _ node: JSONNode, _ path: JSONPath, seed: UInt64?, cutoff: Bool, ids: inout [String]
    ) -> [NodeSpec]? {
        guard
            let r = ObjectReader(
                node, path: path, sink: sink,
                expected: "an array of nodes, or a placement {\"count\", \"density_per_km2\" or \"area_m\", \"z_m\"}")
        else { return nil }
        defer { r.finish() }
        let most = cutoff ? Self.maxPlacedNodesWithCutoff : Self.maxPlacedNodes
        let count = r.required("count", "how many phones to place").flatMap {
            values.integer(
                $0, path.appending("count"),
                cutoff
                    ? "a number of phones in 1...\(most)"
                    : "a number of phones in 1...\(most) (up to \(Self.maxPlacedNodesWithCutoff) with radio.interactionMarginDb set)",
                in: 1...UInt64(most))
        }
        let densityNode = r.value("density_per_km2")
        let areaNode = r.value("area_m")
        var side: (Double, Double)?
        var sizeOK = true
        switch (densityNode, areaNode) {
        case (nil, nil):
            sink.report(
                "expected \"density_per_km2\" or \"area_m\" (where to place the phones), found neither", path: path,
                at: node.origin)
            sizeOK = false
        case (.some, .some(let a)):
            sink.report(
                "expected \"density_per_km2\" or \"area_m\", not both", path: path.appending("area_m"), at: a.origin)
            sizeOK = false
        case (.some(let d), nil):
            if let density = values.positive(
                d, path.appending("density_per_km2"), "phones per km², > 0 and ≤ \(JSONNumber(Self.maxDensityPerKm2).literal)",
                above: 0, upTo: Self.maxDensityPerKm2),
                let count
            {
                let s = (Double(count) / density).squareRoot() * 1000
                if s > ScenarioBounds.maxCoordinate {
                    sink.report(
                        "expected a density that keeps the square within \(JSONNumber(ScenarioBounds.maxCoordinate).literal) m; \(count) phones at \(JSONNumber(density).literal) per km² need \(JSONNumber(s).literal) m",
                        path: path.appending("density_per_km2"), at: d.origin)
                    sizeOK = false
                } else {
                    side = (s, s)
                }
            } else {
                sizeOK = false
            }
        case (nil, .some(let a)):
            let what = "[width, depth] in metres, each > 0 and ≤ \(JSONNumber(ScenarioBounds.maxCoordinate).literal)"
            if case .array(let e) = a.value, e.count == 2,
                let w = values.positive(
                    e[0], path.appending("area_m").appending(0), what, above: 0, upTo: ScenarioBounds.maxCoordinate),
                let h = values.positive(
                    e[1], path.appending("area_m").appending(1), what, above: 0, upTo: ScenarioBounds.maxCoordinate)
            {
                side = (w, h)
            } else {
                if case .array(let e) = a.value, e.count == 2 {
                } else {
                    sink.report(
                        "expected \(what), found \(a.value.summary)", path: path.appending("area_m"), at: a.origin)
                }
                sizeOK = false
            }
        }
        var z = 1.2
        if let v = r.value("z_m") {
            guard
                let h = values.number(
                    v, path.appending("z_m"),
                    "a height in metres within ±\(JSONNumber(ScenarioBounds.maxCoordinate).literal)",
                    in: -ScenarioBounds.maxCoordinate...ScenarioBounds.maxCoordinate)
            else { return nil }
            z = h
        }
        guard let count, sizeOK, let side, let seed else { return nil }
        var stream = RandomStream(seed: seed, name: "placement")
        var nodes: [NodeSpec] = []
        nodes.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let x = stream.uniform() * side.0
            let y = stream.uniform() * side.1
            let id = "n\(i)"
            ids.append(id)
            nodes.append(NodeSpec(id: id, position: Position(x: x, y: y, z: z)))
        }
        return nodes
    }
}
