/// The scenario object's top level as one declared list: each part names the keys it reads and
/// reads them into the scenario being built, in the list's order, which is the order of their
/// diagnostics (a part that needs another's result, such as the node ids every reference
/// resolves against, comes after it). Rules between keys are parts of their own, right after
/// the keys they join. `ScenarioDecoder.decodeRoot` runs the list in one loop.
///
/// Adding a top-level section is one part here and the field of `ScenarioDraft` and `Scenario`
/// it fills; its keys' declarations give the schema, the table and the messages.
enum TopLevel {
    /// One part of the top level.
    struct Part: Sendable {
        /// The top-level keys it reads (none for a rule between keys read before).
        let keys: [String]
        /// Reads them from the scenario object into the draft.
        let read: @Sendable (ScenarioDecoder, ObjectReader, inout ScenarioDraft) -> Void
    }

    /// The parts, in reading order.
    static let parts: [Part] = [
        Part(keys: ScenarioParameters.section.parameters.map(\.key)) { d, r, s in
            // `$schema` (the file's JSON Schema, for editors) is read and not used.
            _ = d.values.read(ScenarioParameters.section, from: r, .root, into: &s.top, perNode: false)
        },
        Part(keys: ["environment"]) { d, r, s in
            s.environment = r.required("environment", "the place").flatMap {
                d.decodeEnvironment($0, JSONPath.root.appending("environment"))
            }
        },
        Part(keys: ["radio"]) { d, r, s in
            if let v = r.value("radio") { s.radio = d.decodeRadio(v, JSONPath.root.appending("radio")) }
        },
        Part(keys: ["link"]) { d, r, s in
            if let v = r.value("link") { s.link = d.decodeIdealLink(v, JSONPath.root.appending("link")) }
        },
        Part(keys: ["nodes"]) { d, r, s in
            let path = JSONPath.root.appending("nodes")
            s.nodes = r.required("nodes", "the phones").flatMap { n -> [NodeSpec]? in
                if case .object = n.value {
                    return d.decodePlacement(
                        n, path, seed: s.top.seed, cutoff: s.radio?.interactionMargin != nil, ids: &s.idsSeen)
                }
                return d.decodeNodes(n, path, ids: &s.idsSeen)
            }
            // References resolve against every well-formed id, even when another field of that
            // node is wrong, so one mistake is reported once, not again at every flow that names
            // the node.
            for (i, id) in s.idsSeen.enumerated() where !id.isEmpty && s.nodeIndex[id] == nil { s.nodeIndex[id] = i }
        },
        Part(keys: ["flows"]) { d, r, s in
            if let f = r.value("flows") {
                s.flows = d.decodeFlows(
                    f, JSONPath.root.appending("flows"), nodeIndex: s.nodeIndex, duration: s.top.duration)
            }
        },
        Part(keys: ["traffic"]) { d, r, s in
            if let t = r.value("traffic") {
                s.traffic = d.decodeTraffic(
                    t, JSONPath.root.appending("traffic"), nodeIndex: s.nodeIndex, nodeCount: s.nodes?.count ?? 0,
                    duration: s.top.duration)
            }
        },
        Part(keys: ScenarioParameters.distance.parameters.map(\.key)) { d, r, s in
            var item = ScenarioParameters.DistanceItem()
            var ok = d.values.read(ScenarioParameters.distance, from: r, .root, into: &item, perNode: false)
            s.distance = item.distance
            if ok, let v = r.value("distance_m"), let n = s.nodes, n.count != 2 {
                d.sink.report(
                    "distance_m places the second of exactly two nodes; this scenario has \(n.count)",
                    path: JSONPath.root.appending("distance_m"), at: v.origin)
                ok = false
            }
            if !ok { s.ok = false }
        },
        Part(keys: ["matrix"]) { d, r, s in
            if let m = r.value("matrix") {
                s.matrix = d.decodeMatrix(m, JSONPath.root.appending("matrix"))
                if s.matrix == nil { s.ok = false }
            }
        },
        Part(keys: ["transport"]) { d, r, s in
            if let t = r.value("transport") { s.transport = d.decodeTransport(t, JSONPath.root.appending("transport")) }
        },
        Part(keys: LayerSpecs.sectionKeys) { d, r, s in
            (s.layers, s.failedLayers) = LayerSpecs.decode(r, d, nodeIndex: s.nodeIndex, duration: s.top.duration)
        },
        Part(keys: []) { d, r, s in checkRoutes(d, r, &s) },
        Part(keys: ["expectations"]) { d, r, s in
            if let e = r.value("expectations") {
                let mesh = s.layers.mesh
                s.expectations = d.decodeExpectations(
                    e, JSONPath.root.appending("expectations"), nodeIndex: s.nodeIndex,
                    workloads: mesh?.messages.map(\.id) ?? [], groups: mesh?.messages.map(\.group) ?? [],
                    flows: s.flows?.map(\.id) ?? [], duration: s.top.duration)
            }
        },
        Part(keys: ["events"]) { d, r, s in
            guard let e = r.value("events") else { return }
            let path = JSONPath.root.appending("events")
            s.events = d.decodeEvents(e, path, nodeIndex: s.nodeIndex, duration: s.top.duration)
            if let list = s.events, s.meshDecoded, !d.checkAppEvents(list, e, path, mesh: s.layers.mesh) {
                s.events = nil
            }
            if let list = s.events, !LayerSpecs.bluetoothFailed(s.failedLayers),
                !d.checkBluetoothEvents(list, e, path, layers: s.layers)
            {
                s.events = nil
            }
        },
        Part(keys: ["mac"]) { d, r, s in
            if let m = r.value("mac") { s.mac = d.decodeMac(m, JSONPath.root.appending("mac")) }
        },
        Part(keys: ["host"]) { d, r, s in
            if let h = r.value("host") { s.host = d.decodeHost(h, JSONPath.root.appending("host")) }
        },
        Part(keys: ["limits"]) { d, r, s in
            if let l = r.value("limits") { s.limits = d.decodeLimits(l, JSONPath.root.appending("limits")) }
        },
        Part(keys: []) { d, r, s in
            // `host.roundQueue` says where a round's connections work: without a round it cannot act.
            if s.host != nil, let flows = s.flows, !flows.contains(where: { $0.round != nil }), let h = r.value("host"),
                let q = h["roundQueue"]
            {
                d.sink.report(
                    "\"roundQueue\" says where a round's connections work (a flow whose \"protocol\" is a list); this scenario has none",
                    path: JSONPath.root.appending("host").appending("roundQueue"), at: q.origin)
                s.ok = false
            }
        },
        Part(keys: []) { d, r, s in
            // Only on a file read without a fault so far: the phones' objects were checked when
            // the nodes were read, and a fault in them is reported once.
            if var list = s.nodes, let host = s.host, let nodes = r.value("nodes"), !d.sink.hasErrors {
                d.overlayNodeHosts(&list, nodes, JSONPath.root.appending("nodes"), host: host)
                s.nodes = list
            }
        },
        Part(keys: []) { d, r, s in
            if let nodes = s.nodes, let duration = s.top.duration, let n = r.value("nodes"), case .array = n.value,
                !d.checkWaypointBudget(nodes, n, JSONPath.root.appending("nodes"), duration: duration)
            {
                s.ok = false
            }
        }
    ]

    /// Each flow's `via` against the mesh: a flow told to cross a mesh needs one, and discovery
    /// (Bonjour over the link) finds a server one hop away, so a flow across the mesh has none.
    static func checkRoutes(_ d: ScenarioDecoder, _ r: ObjectReader, _ s: inout ScenarioDraft) {
        guard s.meshDecoded, let f = r.value("flows"), case .array(let elements) = f.value, let flows = s.flows
        else { return }
        let mesh = s.layers.mesh
        for (i, flow) in flows.enumerated() where i < elements.count {
            let at = JSONPath.root.appending("flows").appending(i)
            if mesh == nil && flow.via == .mesh {
                d.sink.report(
                    "flow \"\(flow.id)\" asks to travel via the mesh, but the scenario has no \"mesh\" section; add one "
                        + "(its sessions and routes carry the flow) or set \"via\": \"link\" for a one-hop flow",
                    path: at.appending("via"), at: elements[i]["via"]?.origin ?? elements[i].origin)
                s.ok = false
            } else if mesh != nil && flow.discovery && flow.via != .link {
                d.sink.report(
                    "flow \"\(flow.id)\" travels across the mesh, but \"discovery\" is the apps' Bonjour over the "
                        + "link, which finds a server one hop away; set \"via\": \"link\" or drop \"discovery\"",
                    path: at.appending("discovery"), at: elements[i]["discovery"]?.origin ?? elements[i].origin)
                s.ok = false
            }
        }
    }
}

/// A scenario being read: each top-level part's result (`nil` after a problem; a default where
/// the key is optional), and whether a rule between keys failed.
struct ScenarioDraft {
    var top = ScenarioParameters.Item()
    var environment: EnvironmentSpec?
    var radio: RadioSpec? = RadioSpec()
    var link: IdealLinkSpec? = IdealLinkSpec()
    /// Every node's id as read (empty where it was wrong), in node order.
    var idsSeen: [String] = []
    var nodes: [NodeSpec]?
    /// Node ids to indices, for the references of every later part.
    var nodeIndex: [String: Int] = [:]
    var flows: [FlowSpec]? = []
    var traffic: [TrafficSpec]? = []
    var distance: DistanceSpec?
    var matrix: Matrix?
    var transport: TransportSpec? = TransportSpec()
    var layers = LayerSpecs()
    /// The layers' sections present that did not decode.
    var failedLayers: [String] = []
    var expectations: [Expectation]? = []
    var events: [NodeEvent]? = []
    var mac: MacSpec? = MacSpec()
    var host: HostSpec? = HostSpec()
    var limits: RunLimits? = RunLimits()
    /// False once a rule between keys, or a part with no result of its own, failed.
    var ok = true

    /// Whether the mesh section, if any, decoded.
    var meshDecoded: Bool { !failedLayers.contains(MeshNetwork.sectionKey) }
}
