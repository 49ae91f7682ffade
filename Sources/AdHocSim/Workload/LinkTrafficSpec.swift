/// Link-layer traffic (`traffic`): packets handed straight to the link layer, without a
/// transport, for radio and MAC studies and benchmarks.
public enum TrafficSpec: Sendable, Equatable {
    /// `from` always has packets of `bytes` queued for `to` (saturation).
    case saturated(from: Int, to: Int, bytes: Int, start: SimTime)
    /// Every node of `nodes` broadcasts `bytes` every `interval`, at a random phase.
    case broadcast(nodes: [Int], bytes: Int, interval: SimTime, start: SimTime)
}

extension ScenarioDecoder {
    func decodeTraffic(
        _ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int], nodeCount: Int, duration: Double?
    ) -> [TrafficSpec]? {
        guard let elements = values.array(node, path, "an array of traffic generators") else { return nil }
        var result: [TrafficSpec] = []
        var ok = true
        for (k, element) in elements.enumerated() {
            let p = path.appending(k)
            guard
                let r = ObjectReader(
                    element, path: p, sink: sink,
                    expected: "a traffic object with a \"kind\" (\"saturated\" or \"broadcast\")")
            else {
                ok = false
                continue
            }
            defer { r.finish() }
            func nodeRef(_ key: String, _ v: JSONNode, _ at: JSONPath) -> Int? {
                guard let name = values.string(v, at, "a node id") else { return nil }
                guard let index = nodeIndex[name] else {
                    sink.report("no node has the id \"\(Diagnostic.excerpt(name))\"", path: at, at: v.origin)
                    return nil
                }
                return index
            }
            let bytes = r.required("bytes", "the packet size in bytes").flatMap {
                values.integer($0, p.appending("bytes"), "a packet size in bytes in 1...65535", in: 1...65_535).map(
                    Int.init)
            }
            var start = SimTime.zero
            if let s = r.value("start_s") {
                if let v = values.number(
                    s, p.appending("start_s"),
                    "a start time in seconds in 0...\(JSONNumber(duration ?? ScenarioBounds.maxDurationSeconds).literal)",
                    in: 0...(duration ?? ScenarioBounds.maxDurationSeconds))
                {
                    start = .seconds(v)
                } else {
                    ok = false
                }
            }
            guard let kindNode = r.required("kind", "saturated or broadcast"),
                let kind = values.choice(
                    kindNode, p.appending("kind"), "a traffic kind", from: ["saturated", "broadcast"])
            else {
                for key in ["from", "to", "intervalS", "nodes"] { _ = r.value(key) }
                ok = false
                continue
            }
            if kind == "saturated" {
                let from = r.required("from", "the sending node").flatMap { nodeRef("from", $0, p.appending("from")) }
                let to = r.required("to", "the receiving node").flatMap { nodeRef("to", $0, p.appending("to")) }
                guard let from, let to, let bytes else { ok = false; continue }
                if from == to {
                    sink.report(
                        "\"from\" and \"to\" must be different nodes", path: p.appending("to"),
                        at: r.value("to")!.origin)
                    ok = false
                    continue
                }
                result.append(.saturated(from: from, to: to, bytes: bytes, start: start))
            } else {
                let interval = r.required("intervalS", "seconds between broadcasts").flatMap {
                    values.duration($0, p.appending("intervalS"), "an interval in seconds, > 0 and ≤ 3600", upTo: 3600)
                }
                var members = Array(0..<nodeCount)
                if let list = r.value("nodes") {
                    guard let items = values.array(list, p.appending("nodes"), "an array of node ids") else {
                        ok = false; continue
                    }
                    var picked: [Int] = []
                    for (j, item) in items.enumerated() {
                        if let n = nodeRef("nodes", item, p.appending("nodes").appending(j)) {
                            picked.append(n)
                        } else {
                            ok = false
                        }
                    }
                    members = picked
                }
                guard let interval, let bytes else { ok = false; continue }
                result.append(.broadcast(nodes: members, bytes: bytes, interval: .seconds(interval), start: start))
            }
        }
        return ok ? result : nil
    }
}
