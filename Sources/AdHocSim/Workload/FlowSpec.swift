// The `flows` section: each flow's ends, transport, workload and start, and their decoding.

/// The transports a flow can use.
public enum TransportProtocol: String, Sendable, CaseIterable {
    case tcp, udp, quic
}

/// What a flow's client does.
public enum WorkloadSpec: Sendable, Equatable {
    /// The thesis test (measurement.md): `probes` echoed probes, then `packets` writes of
    /// `size` bytes.
    case thesis(probes: Int, packets: Int, size: Int)
    /// Send `bytes` as fast as the transport allows.
    case bulk(bytes: UInt64)
    /// Constant bit rate: writes of `size` bytes at `rateMbps`.
    case cbr(rateMbps: Double, size: Int)
}

/// How a flow's packets travel between its two nodes (`flows[i].via`).
public enum FlowCarrier: String, Sendable, CaseIterable {
    /// Straight over the link: the two nodes must hear each other (one hop).
    case link
    /// IP over the mesh (`MeshNetwork`): each packet follows its sender's source route, hop by
    /// hop through the relays' transmit queues and radios. The default when the scenario has
    /// a `mesh` section.
    case mesh
}

/// One flow between two nodes.
public struct FlowSpec: Sendable, Equatable {
    /// The flow's name (unique).
    public var id: String
    /// Index of the client node in `Scenario.nodes`.
    public var from: Int
    /// Index of the server node in `Scenario.nodes`.
    public var to: Int
    /// The transport.
    public var transport: TransportProtocol
    /// The client's behaviour.
    public var workload: WorkloadSpec
    /// When the client starts.
    public var start: SimTime
    /// When the thesis test's probe burst begins (`workload.startPhase`).
    public var startPhase: StartPhase = .random
    /// `via`: over the link or across the mesh; `nil` when the file does not say (the mesh
    /// when the scenario has one, else the link: `Scenario.carrier(of:)`).
    public var via: FlowCarrier?
}

extension ScenarioDecoder {
    /// Decodes the `flows` array, resolving node names against `nodeIndex`.
    func decodeFlows(_ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int], duration: Double?) -> [FlowSpec]? {
        guard let elements = values.array(node, path, "an array of flows") else { return nil }
        var flows: [FlowSpec] = []
        var ok = true
        var seen: [String: Int] = [:]
        let nodeIds = SuggestionIndex(nodeIndex.keys.sorted())  // once, for "did you mean"
        for (i, element) in elements.enumerated() {
            let p = path.appending(i)
            if let flow = decodeFlow(element, p, nodeIndex: nodeIndex, nodeIds: nodeIds, duration: duration) {
                if let first = seen[flow.id] {
                    sink.report(
                        "duplicate flow id \"\(flow.id)\" (also flows[\(first)])", path: p.appending("id"),
                        at: element["id"]?.origin ?? element.origin)
                    ok = false
                } else {
                    seen[flow.id] = i
                }
                flows.append(flow)
            } else {
                ok = false
            }
        }
        return ok ? flows : nil
    }

    private func decodeFlow(
        _ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int], nodeIds: SuggestionIndex, duration: Double?
    ) -> FlowSpec? {
        guard
            let r = ObjectReader(
                node, path: path, sink: sink,
                expected: "a flow object {\"id\", \"from\", \"to\", \"protocol\", \"workload\"}")
        else {
            return nil
        }
        defer { r.finish() }
        let id = r.required("id", "the flow's name").flatMap { decodeIdentifier($0, path.appending("id"), "a flow id") }
        func endpoint(_ key: String) -> Int? {
            guard let v = r.required(key, "a node id") else { return nil }
            guard let name = values.string(v, path.appending(key), "a node id") else { return nil }
            guard let index = nodeIndex[name] else {
                var message = "no node has the id \"\(Diagnostic.excerpt(name))\""
                if let s = nodeIds.closest(to: name) {
                    message += "; did you mean \"\(s)\"?"
                }
                sink.report(message, path: path.appending(key), at: v.origin)
                return nil
            }
            return index
        }
        let from = endpoint("from")
        let to = endpoint("to")
        let transport = r.required("protocol", "tcp, udp or quic").flatMap {
            values.choice($0, path.appending("protocol"), "a transport", of: TransportProtocol.self)
        }
        var phase = StartPhase.random
        let workload = r.required("workload", "what the client does").flatMap {
            decodeWorkload($0, path.appending("workload"), phase: &phase)
        }
        var start = SimTime.zero
        var startOK = true
        if let s = r.value("start_s") {
            let upper = duration ?? ScenarioBounds.maxDurationSeconds
            if let v = values.number(
                s, path.appending("start_s"),
                "a start time in seconds, ≥ 0 and before the end of the run (\(JSONNumber(upper).literal) s)",
                in: 0...upper)
            {
                start = .seconds(v)
            } else {
                startOK = false
            }
        }
        var via: FlowCarrier?
        var viaOK = true
        if let v = r.value("via") {
            via = values.choice(v, path.appending("via"), "how the flow travels", of: FlowCarrier.self)
            viaOK = via != nil
        }
        guard let id, let from, let to, let transport, let workload, startOK, viaOK else { return nil }
        if from == to {
            sink.report(
                "a flow needs two different nodes; \"from\" and \"to\" are the same", path: path.appending("to"),
                at: r.value("to")!.origin)
            return nil
        }
        return FlowSpec(
            id: id, from: from, to: to, transport: transport, workload: workload, start: start, startPhase: phase,
            via: via)
    }

    private func decodeWorkload(_ node: JSONNode, _ path: JSONPath, phase: inout StartPhase) -> WorkloadSpec? {
        guard let r = ObjectReader(node, path: path, sink: sink, expected: "a workload object with a \"kind\"") else {
            return nil
        }
        defer { r.finish() }
        guard let kindNode = r.required("kind", "thesis, bulk or cbr"),
            let kind = values.choice(
                kindNode, path.appending("kind"), "a workload kind", from: ["thesis", "bulk", "cbr"])
        else {
            // Still mark the other keys known so the user sees only the real problem.
            for key in ["probes", "packets", "size", "bytes", "rateMbps", "startPhase"] { _ = r.value(key) }
            return nil
        }
        func count(_ key: String, _ what: String, _ range: ClosedRange<UInt64>, default value: UInt64? = nil) -> Int? {
            guard let v = value == nil ? r.required(key, what) : r.value(key) else { return value.map(Int.init) }
            return values.integer(
                v, path.appending(key), "\(what), a whole number in \(range.lowerBound)...\(range.upperBound)",
                in: range
            ).map(Int.init)
        }
        switch kind {
        case "thesis":
            // Default of 100 probes: the seed thesis's plan (measurement.md, "Procedure").
            let probes = count("probes", "the number of echoed probes", 0...1_000_000, default: 100)
            let packets = count("packets", "the number of application writes", 1...10_000_000)
            let size = count("size", "the bytes per write", 1...WorkloadBounds.maxWriteBytes)
            var phaseOK = true
            if let v = r.value("startPhase") {
                if let p = decodeStartPhase(v, path.appending("startPhase")) { phase = p } else { phaseOK = false }
            }
            guard let probes, let packets, let size, phaseOK else { return nil }
            return .thesis(probes: probes, packets: packets, size: size)
        case "bulk":
            guard let v = r.required("bytes", "the bytes to send"),
                let bytes = values.integer(
                    v, path.appending("bytes"), "a byte count in 1...1000000000000", in: 1...1_000_000_000_000)
            else { return nil }
            return .bulk(bytes: bytes)
        default:
            let rate = r.required("rateMbps", "the sending rate in Mbit/s").flatMap {
                // At least 1 bit/s, so the interval between writes stays within the clock's range.
                values.number(
                    $0, path.appending("rateMbps"), "a rate in Mbit/s in 0.000001...100000", in: 0.000_001...100_000)
            }
            let size = count("size", "the bytes per write", 1...WorkloadBounds.maxWriteBytes)
            guard let rate, let size else { return nil }
            // One write every size·8 / rate seconds: it must be at least the clock's 1 ns, or the
            // writes would all fall on one instant.
            let interval = Double(size) * 8 / (rate * 1e6)
            guard (interval * 1e9).rounded() >= 1 else {
                sink.report(
                    "a CBR of \(JSONNumber(rate).literal) Mbit/s in \(size)-byte writes is one write every "
                        + "\(JSONNumber(interval).literal) s, below the clock's 1 ns; lower the rate or raise the size",
                    path: path.appending("rateMbps"), at: r.value("rateMbps")?.origin ?? node.origin)
                return nil
            }
            return .cbr(rateMbps: rate, size: size)
        }
    }
}

extension ScenarioDecoder {
    /// `workload.startPhase`: `"random"`, `"connect"`, or seconds into the AWDL channel
    /// sequence, 0 ≤ s < 1.048576.
    func decodeStartPhase(_ node: JSONNode, _ path: JSONPath) -> StartPhase? {
        let what = "\"random\", \"connect\" or seconds into the AWDL channel sequence, 0 ≤ s < 1.048576"
        if case .string(let s) = node.value {
            switch s {
            case "random": return .random
            case "connect": return .connect
            default:
                sink.report("expected \(what), found \"\(s)\"", path: path, at: node.origin)
                return nil
            }
        }
        let period = FlowApplication.phasePeriod
        guard let v = values.number(node, path, what, in: 0...period.inSeconds) else { return nil }
        let t = SimTime.seconds(v)
        guard t < period else {
            sink.report("expected \(what), found \(JSONNumber(v).literal)", path: path, at: node.origin)
            return nil
        }
        return .offset(t)
    }
}

/// Bounds of workload values (assumptions: far above anything the thesis used, 16 384 bytes).
enum WorkloadBounds {
    /// The largest single application write: 1 MiB.
    static let maxWriteBytes: UInt64 = 1 << 20
}
