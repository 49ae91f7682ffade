/// Link-layer traffic (`traffic`): packets handed straight to the link layer, without a
/// transport, for radio and MAC studies and benchmarks.
public enum TrafficSpec: Sendable, Equatable {
    /// `from` always has packets of `bytes` queued for `to` (saturation).
    case saturated(from: Int, to: Int, bytes: Int, start: SimTime)
    /// Every node of `nodes` broadcasts `bytes` every `interval`, at a random phase.
    case broadcast(nodes: [Int], bytes: Int, interval: SimTime, start: SimTime)
}

/// The `mac` section.
public struct MacSpec: Sendable, Equatable {
    /// A-MPDU aggregation on or off (`mac.aggregation`).
    public var aggregation: Bool?
    /// Transmit queue limit, packets (`mac.queuePackets`).
    public var queuePackets: Int?
    /// Nothing set.
    public init() {}
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

    func decodeMac(_ node: JSONNode, _ path: JSONPath) -> MacSpec? {
        guard
            let r = ObjectReader(
                node, path: path, sink: sink, expected: "an object {\"aggregation\", \"queuePackets\"}")
        else { return nil }
        defer { r.finish() }
        var spec = MacSpec()
        var ok = true
        if let v = r.value("aggregation") {
            spec.aggregation = values.bool(v, path.appending("aggregation"), "true or false")
            if spec.aggregation == nil { ok = false }
        }
        if let v = r.value("queuePackets") {
            spec.queuePackets = values.integer(
                v, path.appending("queuePackets"), "a queue limit in packets in 1...100000", in: 1...100_000
            ).map(Int.init)
            if spec.queuePackets == nil { ok = false }
        }
        return ok ? spec : nil
    }

    /// AWDL occupancy: an array of distinct slot indices 0...15.
    func decodeSlots(_ node: JSONNode, _ path: JSONPath) -> UInt16? {
        guard let items = values.array(node, path, "an array of AWDL slot indices 0...15") else { return nil }
        var mask: UInt16 = 0
        for (j, item) in items.enumerated() {
            guard let s = values.integer(item, path.appending(j), "a slot index in 0...15", in: 0...15) else {
                return nil
            }
            mask |= 1 << UInt16(s)
        }
        if mask == 0 {
            sink.report("expected at least one slot", path: path, at: node.origin)
            return nil
        }
        return mask
    }
}
