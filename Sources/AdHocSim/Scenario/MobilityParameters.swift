/// A node's movement keys (`nodes[i].mobility`), each declared once: the decoder's
/// checks and messages, the schema's `$defs/mobility` and the tables in `docs/models/core.md`.
/// A node moves along `waypoints` or by the random-waypoint model; `waypoints` chooses the
/// first, and the other model's keys are then errors at their path (`decodeMobility`).
enum MobilityParameters {
    /// One mobility object being read.
    struct Item {
        var waypoints: [(time: SimTime, position: Position)] = []
        var speed: ClosedRange<Double>?
        var pause: ClosedRange<Double>?
        var area: (x: ClosedRange<Double>, y: ClosedRange<Double>)?
    }

    static func n(_ v: Double) -> String { JSONNumber(v).literal }
    static func pairSchema(_ item: JSONSchema) -> JSONSchema { .array(of: item).count(2) }

    /// Timed waypoints.
    static let waypoints = ParameterSection<Item>(
        "nodes[i].mobility",
        [
            Parameter(
                "waypoints",
                .custom(
                    schema: .array(
                        of: JSONSchema.array.prefixItems([
                            .number.minimum(0).maximum(ScenarioBounds.maxDurationSeconds),
                            ScenarioBounds.coordinateSchema, ScenarioBounds.coordinateSchema,
                            ScenarioBounds.coordinateSchema
                        ]).noMoreItems().minItems(4)
                    ).minItems(1),
                    value: "`[[t, x, y, z], ...]`: seconds (increasing), metres",
                    decode: { values, v, at, _, item in
                        guard let list = decodeWaypoints(values, v, at) else { return false }
                        item.waypoints = list
                        return true
                    }),
                default: "required",
                help:
                    "where the node is when: it walks in a straight line from one to the next, stands before the first and after the last",
                expected: "waypoints", source: .required, required: "an array of [t, x, y, z] waypoints")
        ])

    /// The random-waypoint model (Johnson & Maltz 1996).
    static let randomWaypoint = ParameterSection<Item>(
        "nodes[i].mobility",
        [
            Parameter(
                "model", .choice(["random-waypoint"], set: { _, _ in }), default: "required",
                help:
                    "pick a uniform point in `area`, walk there at a uniform speed, pause, repeat (Johnson and Maltz 1996; seeded per node)",
                expected: "a mobility model", source: .required,
                required: "\"random-waypoint\" (or give \"waypoints\")"),
            range(
                "speedMps", "a walking speed in m/s", MobilitySpec.speedBounds, unit: "m/s",
                help: "the walking speeds drawn from, [min, max]"
            ) { $0.speed = $1 },
            range(
                "pauseS", "a pause in seconds", MobilitySpec.pauseBounds, unit: "s",
                help: "the pauses drawn from, [min, max]"
            ) { $0.pause = $1 },
            Parameter(
                "area",
                .custom(
                    schema: pairSchema(pairSchema(ScenarioBounds.coordinateSchema)),
                    value: "`[[x0, y0], [x1, y1]]`, metres, x0 < x1 and y0 < y1",
                    decode: { values, v, at, _, item in
                        let b = ScenarioBounds.maxCoordinate
                        if case .array(let corners) = v.value, corners.count == 2,
                            case .array(let c0) = corners[0].value, c0.count == 2,
                            case .array(let c1) = corners[1].value,
                            c1.count == 2,
                            let x0 = values.number(c0[0], at.appending(0).appending(0), "x in metres", in: -b...b),
                            let y0 = values.number(c0[1], at.appending(0).appending(1), "y in metres", in: -b...b),
                            let x1 = values.number(c1[0], at.appending(1).appending(0), "x in metres", in: -b...b),
                            let y1 = values.number(c1[1], at.appending(1).appending(1), "y in metres", in: -b...b),
                            x0 < x1, y0 < y1
                        {
                            item.area = (x0...x1, y0...y1)
                            return true
                        }
                        values.sink.report(
                            "expected [[x0, y0], [x1, y1]] with x0 < x1 and y0 < y1, in metres", path: at, at: v.origin)
                        return false
                    }),
                default: "required", help: "the rectangle the waypoints are drawn in", expected: "an area",
                source: .required,
                required: "[[x0, y0], [x1, y1]] in metres")
        ])

    /// `[min, max]` within `bounds`, min ≤ max.
    static func range(
        _ key: String, _ what: String, _ bounds: ClosedRange<Double>, unit: String, help: String,
        set: @escaping @Sendable (inout Item, ClosedRange<Double>) -> Void
    ) -> Parameter<Item> {
        let within = "\(n(bounds.lowerBound))...\(n(bounds.upperBound))"
        return Parameter(
            key,
            .custom(
                schema: pairSchema(.number.minimum(bounds.lowerBound).maximum(bounds.upperBound)),
                value: "`[min, max]`, each \(n(bounds.lowerBound)) … \(n(bounds.upperBound)) \(unit)",
                decode: { values, v, at, _, item in
                    guard case .array(let a) = v.value, a.count == 2 else {
                        values.sink.report(
                            "expected [min, max] (\(what)), found \(v.value.summary)", path: at, at: v.origin)
                        return false
                    }
                    guard let lo = values.number(a[0], at.appending(0), "\(what) in \(within)", in: bounds),
                        let hi = values.number(a[1], at.appending(1), "\(what) in \(within)", in: bounds)
                    else { return false }
                    guard lo <= hi else {
                        values.sink.report(
                            "expected [min, max] with min ≤ max, found [\(n(lo)), \(n(hi))]", path: at, at: v.origin)
                        return false
                    }
                    set(&item, lo...hi)
                    return true
                }),
            default: "required", help: help, expected: what, source: .required, required: what)
    }

    /// The waypoints of `v`: at least one, each `[t, x, y, z]`, times increasing.
    static func decodeWaypoints(
        _ values: ValueReader, _ w: JSONNode, _ wp: JSONPath
    ) -> [(time: SimTime, position: Position)]? {
        let sink = values.sink
        guard let items = values.array(w, wp, "an array of [t, x, y, z] waypoints"), !items.isEmpty else {
            if case .array = w.value { sink.report("expected at least one waypoint", path: wp, at: w.origin) }
            return nil
        }
        var result: [(time: SimTime, position: Position)] = []
        var ok = true
        var previous: Double?
        for (i, item) in items.enumerated() {
            let ip = wp.appending(i)
            guard case .array(let a) = item.value, a.count == 4,
                let t = values.number(
                    a[0], ip.appending(0),
                    "a time in seconds in 0...\(n(ScenarioBounds.maxDurationSeconds))",
                    in: 0...ScenarioBounds.maxDurationSeconds)
            else {
                if case .array(let a) = item.value, a.count == 4 {
                } else {
                    sink.report(
                        "expected [t, x, y, z]: a time in seconds and a position in metres, found \(item.value.summary)",
                        path: ip, at: item.origin)
                }
                ok = false
                continue
            }
            let bound = ScenarioBounds.maxCoordinate
            let xyz = (1...3).compactMap {
                values.number(a[$0], ip.appending($0), "a coordinate in metres within ±\(n(bound))", in: -bound...bound)
            }
            guard xyz.count == 3 else { ok = false; continue }
            if let p = previous, t <= p {
                sink.report(
                    "waypoints out of time order: t = \(n(t)) s follows t = \(n(p)) s (times must increase)",
                    path: ip.appending(0), at: a[0].origin)
                ok = false
            }
            previous = t
            result.append((.seconds(t), Position(x: xyz[0], y: xyz[1], z: xyz[2])))
        }
        return ok ? result : nil
    }
}

extension ScenarioDecoder {
    /// Decodes `nodes[i].mobility`: `waypoints` chooses that model and refuses the other's keys;
    /// otherwise the random-waypoint model's keys are read. `nil` after a problem.
    func decodeMobility(_ node: JSONNode, _ path: JSONPath) -> MobilitySpec? {
        guard
            let r = ObjectReader(
                node, path: path, sink: sink,
                expected: "an object {\"waypoints\": [[t, x, y, z], ...]} or {\"model\": \"random-waypoint\", ...}")
        else {
            return nil
        }
        defer { r.finish() }
        var item = MobilityParameters.Item()
        if r.value("waypoints") != nil {
            let others = MobilityParameters.randomWaypoint.parameters.map(\.key)
            let refused = !r.refuse(
                others, with: "waypoints", "a node moves along waypoints or by the random-waypoint model")
            guard values.read(MobilityParameters.waypoints, from: r, path, into: &item, perNode: false), !refused else {
                return nil
            }
            return .waypoints(item.waypoints)
        }
        guard values.read(MobilityParameters.randomWaypoint, from: r, path, into: &item, perNode: false),
            let speed = item.speed, let pause = item.pause, let area = item.area
        else { return nil }
        return .randomWaypoint(speed: speed, pause: pause, area: area)
    }
}
