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
    /// cutoff keeps a phone's pairs to those it can hear. Both bounds are
    /// assumptions: the 10 000-phone city bench peaks at 2.8 GiB with the cutoff at 3 dB.
    static let maxPlacedNodes = 8192
    static let maxPlacedNodesWithCutoff = 20_000
    /// The densest placement a scenario may ask for, phones per km² (assumption: a crush of
    /// one phone per square metre).
    static let maxDensityPerKm2 = 1_000_000.0

    /// The JSON Schema of a placement (`nodes` as an object): the declarations' objects
    /// (`PlacementParameters`), with exactly one of `density_per_km2` and `area_m` (`oneOf`).
    /// The count's lower limit without the cutoff depends on another key, so it stays the
    /// decoder's.
    static var placementSchema: JSONSchema {
        PlacementParameters.section.schema(perNode: false)
            .oneOf([.requiring(["density_per_km2"]), .requiring(["area_m"])])
            .description("phones placed uniformly at random")
    }

    func decodePlacement(
        _ node: JSONNode, _ path: JSONPath, seed: UInt64?, cutoff: Bool, ids: inout [String]
    ) -> [NodeSpec]? {
        let start = PlacementParameters.Item(cutoff: cutoff)
        let read = values.decodeAll(PlacementParameters.section, node, path, into: start, perNode: false) { r, _ in
            // Where to place them: a density or an area, exactly one.
            switch (r.value("density_per_km2"), r.value("area_m")) {
            case (nil, nil):
                self.sink.report(
                    "expected \"density_per_km2\" or \"area_m\" (where to place the phones), found neither", path: path,
                    at: node.origin)
                return false
            case (.some, .some(let a)):
                self.sink.report(
                    "expected \"density_per_km2\" or \"area_m\", not both", path: path.appending("area_m"), at: a.origin
                )
                return false
            default:
                return true
            }
        }
        guard let (placement, ok) = read, ok, let count = placement.count, let side = placement.side, let seed else {
            return nil
        }
        var stream = RandomStream(seed: seed, name: "placement")
        var nodes: [NodeSpec] = []
        nodes.reserveCapacity(count)
        for i in 0..<count {
            let x = stream.uniform() * side.0
            let y = stream.uniform() * side.1
            let id = "n\(i)"
            ids.append(id)
            nodes.append(NodeSpec(id: id, position: Position(x: x, y: y, z: placement.z)))
        }
        return nodes
    }
}

/// A placement's keys (`nodes` as an object), each declared once: the decoder's
/// checks and messages, the schema's placement object and the table in `docs/models/core.md`.
/// Rules between keys stay in code: exactly one of a density and an area (`decodePlacement`),
/// the count's limit by the cutoff and the density's square within the coordinates (the custom
/// decodes, the count read first).
enum PlacementParameters {
    /// One placement being read.
    struct Item {
        /// Whether `radio.interactionMarginDb` is set (the count's limit).
        let cutoff: Bool
        var count: Int?
        /// The rectangle's width and depth, m.
        var side: (Double, Double)?
        var z = 1.2
    }

    static let section = ParameterSection<Item>(
        "nodes",
        [
            Parameter(
                "count",
                .custom(
                    schema: .integer.minimum(1).maximum(Double(ScenarioDecoder.maxPlacedNodesWithCutoff)),
                    value:
                        "1 … \(ScenarioDecoder.maxPlacedNodes), or … \(ScenarioDecoder.maxPlacedNodesWithCutoff) with `radio.interactionMarginDb` set",
                    decode: { values, v, at, _, item in
                        let most =
                            item.cutoff ? ScenarioDecoder.maxPlacedNodesWithCutoff : ScenarioDecoder.maxPlacedNodes
                        let what =
                            item.cutoff
                            ? "a number of phones in 1...\(most)"
                            : "a number of phones in 1...\(most) (up to \(ScenarioDecoder.maxPlacedNodesWithCutoff) with radio.interactionMarginDb set)"
                        guard let n = values.integer(v, at, what, in: 1...UInt64(most)) else { return false }
                        item.count = Int(n)
                        return true
                    }),
                default: "required", help: "how many phones, named `n0` … `n<count−1>`", expected: "a number of phones",
                source: .required, required: "how many phones to place"),
            Parameter(
                "density_per_km2",
                .custom(
                    schema: .number.exclusiveMinimum(0).maximum(ScenarioDecoder.maxDensityPerKm2),
                    value: "> 0 … \(JSONNumber(ScenarioDecoder.maxDensityPerKm2).literal) phones per km²",
                    decode: { values, v, at, _, item in
                        let upper = ScenarioDecoder.maxDensityPerKm2
                        guard
                            let density = values.positive(
                                v, at, "phones per km², > 0 and ≤ \(JSONNumber(upper).literal)", above: 0, upTo: upper)
                        else { return false }
                        guard let count = item.count else { return true }
                        let s = (Double(count) / density).squareRoot() * 1000
                        guard s <= ScenarioBounds.maxCoordinate else {
                            values.sink.report(
                                "expected a density that keeps the square within \(JSONNumber(ScenarioBounds.maxCoordinate).literal) m; \(count) phones at \(JSONNumber(density).literal) per km² need \(JSONNumber(s).literal) m",
                                path: at, at: v.origin)
                            return false
                        }
                        item.side = (s, s)
                        return true
                    }),
                default: "this or `area_m`",
                help: "place them over a square of side √(count / density) km (a sweep over `count` keeps the density)",
                expected: "phones per km²", source: .required),
            Parameter(
                "area_m",
                .custom(
                    schema: .array(of: .number.exclusiveMinimum(0).maximum(ScenarioBounds.maxCoordinate)).count(2),
                    value: "`[width, depth]`, each > 0 … \(JSONNumber(ScenarioBounds.maxCoordinate).literal) m",
                    decode: { values, v, at, _, item in
                        let what =
                            "[width, depth] in metres, each > 0 and ≤ \(JSONNumber(ScenarioBounds.maxCoordinate).literal)"
                        guard case .array(let e) = v.value, e.count == 2 else {
                            values.sink.report("expected \(what), found \(v.value.summary)", path: at, at: v.origin)
                            return false
                        }
                        guard
                            let w = values.positive(
                                e[0], at.appending(0), what, above: 0, upTo: ScenarioBounds.maxCoordinate),
                            let h = values.positive(
                                e[1], at.appending(1), what, above: 0, upTo: ScenarioBounds.maxCoordinate)
                        else { return false }
                        item.side = (w, h)
                        return true
                    }),
                default: "this or `density_per_km2`",
                help: "place them over a rectangle of this width (x) and depth (y) from the origin",
                expected: "[width, depth]", source: .required),
            Parameter(
                "z_m",
                .custom(
                    schema: ScenarioBounds.coordinateSchema,
                    value: "± \(JSONNumber(ScenarioBounds.maxCoordinate).literal) m",
                    decode: { values, v, at, _, item in
                        let c = ScenarioBounds.maxCoordinate
                        guard
                            let z = values.number(
                                v, at, "a height in metres within ±\(JSONNumber(c).literal)", in: -c...c)
                        else { return false }
                        item.z = z
                        return true
                    }),
                default: "1.2", help: "every phone's height",
                expected: "a height in metres",
                source: .assumption("a phone held in the hand, the height the shipped topologies use"))
        ], objectExpected: "an array of nodes, or a placement {\"count\", \"density_per_km2\" or \"area_m\", \"z_m\"}")
}
