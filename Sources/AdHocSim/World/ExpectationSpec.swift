/// A routing regression check (`expectations[i]`), evaluated by `adhocsim check`.
public enum Expectation: Sendable, Equatable {
    /// A route from `from` to `to` exists at or before `time` (checked every 100 ms).
    case routeBy(time: SimTime, from: Int, to: Int)
    /// At `time`, the route from `from` to `to` exists, avoids `avoids` and has at most `maxHops` hops.
    case routeAt(time: SimTime, from: Int, to: Int, avoids: [Int], maxHops: Int?)
    /// At the end, no Multipeer session holds more than `max` nodes (the node included).
    case maxSessionSize(max: Int)
    /// At the end, no phone has more than `max` session peers (seed 002: "each node can
    /// connect to up to 8 other nodes").
    case maxNeighbours(max: Int)
    /// The run's event-trajectory fingerprint equals `hex`.
    case fingerprint(String)
    /// At the end, the delivery ratio of mesh message workload `workload` (index into
    /// `mesh.messages`) is at least `min` and at most `max`.
    case deliveryRatio(workload: Int, min: Double?, max: Double?)
    /// At the end, the share of the bytes flow `flow` (index into `flows`) wrote that reached
    /// its server is at least `min` and at most `max` (a flow across the mesh that must work).
    case flowDelivered(flow: Int, min: Double?, max: Double?)
    /// Every ordered pair of nodes first holds a route at most `within` after both joined
    /// (time zero, or their `join` event), unless the run ends first: MAdHoc's "routes
    /// established within 10 seconds of connecting" (seed 002).
    case routesWithin(SimTime)
}

/// The `metric` expectations, each declared once: its name in the file, its form and what it
/// checks (the decoder's choices, `adhocsim check --help` and the schema test read this list).
public enum ExpectationMetric: String, CaseIterable, Sendable {
    case maxSessionSize = "max_session_size"
    case maxNeighbours = "max_neighbours"
    case deliveryRatio = "delivery_ratio"
    case flowDelivered = "flow_delivered"
    case routesWithin = "routes_within_s"

    /// The expectation as written in a scenario.
    public var form: String {
        switch self {
        case .maxSessionSize: return "{\"metric\": \"max_session_size\", \"max\": 8}"
        case .maxNeighbours: return "{\"metric\": \"max_neighbours\", \"max\": 8}"
        case .deliveryRatio: return "{\"metric\": \"delivery_ratio\", \"flow\": \"<mesh.messages id>\", \"min\": 0.99}"
        case .flowDelivered: return "{\"metric\": \"flow_delivered\", \"flow\": \"<flows id>\", \"min\": 0.99}"
        case .routesWithin: return "{\"metric\": \"routes_within_s\", \"max\": 10}"
        }
    }

    /// What it checks.
    public var help: String {
        switch self {
        case .maxSessionSize:
            return "at the end, no Multipeer session holds more than max nodes, the phone included (a phone's "
                + "peers fill its sessions one after another, mesh.maxPeers − 1 others each)"
        case .maxNeighbours:
            return "at the end, no phone has more than max session peers (seed 002: up to 8 other nodes)"
        case .deliveryRatio:
            return "at the end, the share of a mesh message workload's messages delivered is within min...max "
                + "(a group id: every recipient's share)"
        case .flowDelivered:
            return "at the end, the share of the bytes a flow wrote that reached its server is within min...max"
        case .routesWithin:
            return "every ordered pair first holds a route at most max seconds after both joined (unless the run "
                + "ends first; seed 002: routes within 10 s of connecting)"
        }
    }

    /// Every expectation form with what it checks, for help texts: the two route forms, the
    /// metrics, the fingerprint.
    public static var forms: [(form: String, help: String)] {
        [
            ("{\"by_s\": T, \"route\": {\"from\", \"to\"}}", "a route from → to exists at or before T s (checked every 100 ms)"),
            (
                "{\"at_s\": T, \"route\": {\"from\", \"to\", \"avoids\": [...], \"maxHops\": N}}",
                "at T s the route exists, relays through none of avoids and has at most maxHops hops"
            ),
        ] + allCases.map { ($0.form, $0.help) } + [
            ("{\"fingerprint\": \"<16 hex digits>\"}", "the run's event-trajectory fingerprint is this one")
        ]
    }
}

extension ScenarioDecoder {
    func decodeExpectations(
        _ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int], workloads: [String],
        groups: [String?] = [], flows: [String] = [], duration: Double?
    ) -> [Expectation]? {
        guard let items = values.array(node, path, "an array of expectations") else { return nil }
        var out: [Expectation] = []
        var ok = true
        for (i, item) in items.enumerated() {
            let p = path.appending(i)
            guard let r = ObjectReader(item, path: p, sink: sink, expected: "an expectation object") else {
                ok = false; continue
            }
            defer { r.finish() }
            func nodeRef(_ v: JSONNode, _ at: JSONPath) -> Int? { values.node(v, at, in: nodeIndex) }
            let upper = duration ?? ScenarioBounds.maxDurationSeconds
            let one = "an expectation checks one thing: a fingerprint, a metric or a route"
            if let f = r.value("fingerprint") {
                if !r.refuse(["by_s", "at_s", "route", "metric", "max"], with: "fingerprint", one) { ok = false }
                guard let hex = values.string(f, p.appending("fingerprint"), "16 hex digits"), hex.count == 16,
                    hex.allSatisfy(\.isHexDigit)
                else {
                    if case .string = f.value {
                        sink.report("expected 16 hex digits", path: p.appending("fingerprint"), at: f.origin)
                    }
                    ok = false
                    continue
                }
                out.append(.fingerprint(hex.lowercased()))
                continue
            }
            if let m = r.value("metric") {
                if !r.refuse(["by_s", "at_s", "route"], with: "metric", one) { ok = false }
                guard
                    let metric = values.choice(
                        m, p.appending("metric"), "a metric",
                        from: ExpectationMetric.allCases.map(\.rawValue))
                else {
                    _ = r.value("max"); _ = r.value("min"); _ = r.value("flow")
                    ok = false
                    continue
                }
                if metric == "delivery_ratio" || metric == "flow_delivered" {
                    let isFlow = metric == "flow_delivered"
                    let what = isFlow ? "the id of a flow" : "the id of a mesh message workload"
                    let names = isFlow ? flows : workloads
                    let flowNode = r.required("flow", what)
                    var workload: Int?
                    var members: [Int] = []
                    if let flowNode, let name = values.string(flowNode, p.appending("flow"), what) {
                        workload = names.firstIndex(of: name)
                        if !isFlow && workload == nil {
                            // A group message: every recipient's workload must meet the bound.
                            members = groups.indices.filter { groups[$0] == name }
                            workload = members.first
                        }
                        if workload == nil {
                            let none = isFlow ? "the scenario has no flows" : "the scenario has no mesh.messages"
                            let known = names.isEmpty ? none : "known: " + names.joined(separator: ", ")
                            let kind = isFlow ? "flow" : "mesh message workload"
                            sink.report(
                                "no \(kind) is named \"\(name)\" (\(known))", path: p.appending("flow"),
                                at: flowNode.origin)
                        }
                    }
                    let lo = r.value("min").flatMap {
                        values.number($0, p.appending("min"), "a ratio in 0...1", in: 0...1)
                    }
                    let hi = r.value("max").flatMap {
                        values.number($0, p.appending("max"), "a ratio in 0...1", in: 0...1)
                    }
                    if r.value("min") == nil && r.value("max") == nil {
                        sink.report("expected \"min\" or \"max\" (a ratio in 0...1)", path: p, at: item.origin)
                        ok = false
                        continue
                    }
                    guard let workload, (r.value("min") == nil || lo != nil), (r.value("max") == nil || hi != nil)
                    else { ok = false; continue }
                    if isFlow {
                        out.append(.flowDelivered(flow: workload, min: lo, max: hi))
                    } else {
                        for w in members.isEmpty ? [workload] : members {
                            out.append(.deliveryRatio(workload: w, min: lo, max: hi))
                        }
                    }
                    continue
                }
                if !r.refuse(["flow", "min"], with: "metric", "\(metric) takes only \"max\"") { ok = false }
                if metric == "routes_within_s" {
                    guard let v = r.required("max", "the longest wait for a route in seconds"),
                        let s = values.number(
                            v, p.appending("max"), "a time in seconds in 0...\(JSONNumber(upper).literal)",
                            in: 0...upper)
                    else { ok = false; continue }
                    out.append(.routesWithin(.seconds(s)))
                    continue
                }
                let neighbours = metric == ExpectationMetric.maxNeighbours.rawValue
                guard let v = r.required("max", "the largest allowed value"),
                    let max = values.integer(
                        v, p.appending("max"), neighbours ? "a number of peers in 0...64" : "a session size in 1...64",
                        in: neighbours ? 0...64 : 1...64)
                else { ok = false; continue }
                out.append(neighbours ? .maxNeighbours(max: Int(max)) : .maxSessionSize(max: Int(max)))
                continue
            }
            let by = r.value("by_s"), at = r.value("at_s")
            guard let routeNode = r.required("route", "{\"from\", \"to\"}"),
                let rr = ObjectReader(
                    routeNode, path: p.appending("route"), sink: sink,
                    expected: "a route {\"from\", \"to\", \"avoids\"?, \"maxHops\"?}")
            else {
                ok = false
                continue
            }
            let rp = p.appending("route")
            let from = rr.required("from", "a node id").flatMap { nodeRef($0, rp.appending("from")) }
            let to = rr.required("to", "a node id").flatMap { nodeRef($0, rp.appending("to")) }
            var avoids: [Int] = []
            if let a = rr.value("avoids"), let list = values.array(a, rp.appending("avoids"), "an array of node ids") {
                for (j, n) in list.enumerated() {
                    if let k = nodeRef(n, rp.appending("avoids").appending(j)) { avoids.append(k) } else { ok = false }
                }
            }
            let maxHops = rr.value("maxHops").flatMap {
                values.integer($0, rp.appending("maxHops"), "a hop count in 1...1000", in: 1...1000).map(Int.init)
            }
            rr.finish()
            let timeNode = by ?? at
            guard let timeNode, (by == nil) != (at == nil) else {
                sink.report("expected exactly one of \"by_s\" or \"at_s\"", path: p, at: item.origin)
                ok = false
                continue
            }
            guard
                let t = values.number(
                    timeNode, p.appending(by != nil ? "by_s" : "at_s"),
                    "a time in seconds in 0...\(JSONNumber(upper).literal)", in: 0...upper),
                let from, let to
            else { ok = false; continue }
            out.append(
                by != nil
                    ? .routeBy(time: .seconds(t), from: from, to: to)
                    : .routeAt(time: .seconds(t), from: from, to: to, avoids: avoids, maxHops: maxHops))
        }
        return ok ? out : nil
    }
}
