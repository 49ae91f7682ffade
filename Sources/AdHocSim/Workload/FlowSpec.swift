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

/// How the tests of a round follow the tap (`flows[i].roundStart`).
public enum RoundStart: String, Sendable, CaseIterable {
    /// Every test of the round starts at the tap.
    case together
    /// The first starts at the tap, each next one when the one before wrote its last message.
    case inTurn = "in-turn"
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
    /// The index of the first flow of this flow's round (`protocol` as a list), `nil` for a
    /// flow of its own. A round's flows join the same two phones; their thesis tests start at
    /// one tap and their connections share each phone's main queue (`HostStack`).
    public var round: Int?
    /// How a round's tests follow the tap (`roundStart`).
    public var roundStart: RoundStart = .together
    /// `via`: over the link or across the mesh; `nil` when the file does not say (the mesh
    /// when the scenario has one, else the link: `Scenario.carrier(of:)`).
    public var via: FlowCarrier?
    /// `discovery`: the apps find each other by Bonjour before the client connects
    /// (`AppDiscovery`); `false`: the client connects at `start`.
    public var discovery = false
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
            if let round = decodeFlow(element, p, nodeIndex: nodeIndex, nodeIds: nodeIds, duration: duration) {
                let leader = flows.count  // a round's first flow, where its members begin
                for var flow in round {
                    if let first = seen[flow.id] {
                        sink.report(
                            "duplicate flow id \"\(flow.id)\" (also flows[\(first)])", path: p.appending("id"),
                            at: element["id"]?.origin ?? element.origin)
                        ok = false
                    } else {
                        seen[flow.id] = i
                    }
                    flow.round = flow.round.map { _ in leader }
                    flows.append(flow)
                }
            } else {
                ok = false
            }
        }
        return ok ? flows : nil
    }

    private func decodeFlow(
        _ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int], nodeIds: SuggestionIndex, duration: Double?
    ) -> [FlowSpec]? {
        let start = FlowParameters.Item(nodeIndex: nodeIndex, nodeIds: nodeIds, runDuration: duration)
        guard let f = decode(FlowParameters.flow, node, path, into: start, perNode: false) else { return nil }
        if f.from == f.to {
            sink.report(
                "a flow needs two different nodes; \"from\" and \"to\" are the same", path: path.appending("to"),
                at: node["to"]?.origin ?? node.origin)
            return nil
        }
        // `roundStart` says how a round's thesis tests follow the tap: elsewhere it cannot act.
        if f.roundStartGiven {
            var thesis = false
            if case .thesis = f.workload { thesis = true }
            if !f.isRound || !thesis {
                sink.report(
                    "\"roundStart\" orders the thesis tests of a round (\"protocol\" a list, workload \"thesis\"); "
                        + (f.isRound ? "this workload has no tests" : "this flow is not a round"),
                    path: path.appending("roundStart"), at: node["roundStart"]?.origin ?? node.origin)
                return nil
            }
        }
        // A round's members name their round relative to it (0); `decodeFlows` places it.
        return f.transports.map { t in
            FlowSpec(
                id: f.isRound ? "\(f.id)-\(t.rawValue)" : f.id, from: f.from, to: f.to, transport: t,
                workload: f.workload, start: f.start, startPhase: f.phase, round: f.isRound ? 0 : nil,
                roundStart: f.roundStart, via: f.via, discovery: f.discovery)
        }
    }
}

extension ValueReader {
    /// `workload.startPhase`: `"random"`, `"connect"`, or seconds into the AWDL channel
    /// sequence, 0 ≤ s < 1.048576.
    func startPhase(_ node: JSONNode, _ path: JSONPath) -> StartPhase? {
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
        guard let v = number(node, path, what, in: 0...period.inSeconds) else { return nil }
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
