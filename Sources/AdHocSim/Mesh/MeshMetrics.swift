/// What the mesh measured (seed 002's metrics), computed once when the run ends.
///
/// Definitions (also in docs/guide.md, the output section):
/// - delivery ratio = messages whose first copy reached the receiver / messages created;
///   messages still in flight at the end count as not delivered (as ns-3's FlowMonitor counts
///   queued packets as lost);
/// - latency = first arrival at the receiver − creation (so it includes retries and the wait
///   for a route), over delivered messages;
/// - hops = hops of the path the first delivered copy took;
/// - confirmation RTT = route-return arrival at the sender − send time of the attempt it
///   answers, over confirmed messages;
/// - route establishment = the first time the source held a route to the destination;
/// - repair time = first time the source of a route broken by a failed relay held a route
///   without that relay − the failure time;
/// - control overhead = heartbeat bytes (originated and forwarded) per node per simulated second.
public struct MeshMetrics: Sendable {
    /// One node's view.
    public struct Node: Sendable, Equatable {
        /// Session peers at the end (the node itself not counted).
        public var sessionPeers: Int
        /// Routing control frames sent (heartbeats, or RREQ/RREP/RERR with classic DSR; originated and forwarded) and their bytes.
        public var controlFrames: UInt64
        /// See `controlFrames`.
        public var controlBytes: UInt64
        /// Message and route-return frames sent (originated and forwarded) and their bytes.
        public var messageFrames: UInt64
        /// See `messageFrames`.
        public var messageBytes: UInt64
        /// Session set-up frames sent (Bonjour, invitations, connection frames) and bytes.
        public var sessionFrames: UInt64 = 0
        /// See `sessionFrames`.
        public var sessionBytes: UInt64 = 0
        /// With Multipeer set-up: when the node first joined a session (`nil`: never, or
        /// sessions formed at once).
        public var firstSession: SimTime?
        /// Messages, route returns (and with classic DSR replies and errors) passed on as a
        /// relay, each counted once however many copies its hop sent.
        public var relayed: UInt64 = 0
        /// Such frames received for another node and dropped (`mesh.forwarding:
        /// "path-broadcast"`).
        public var notOnPath: UInt64 = 0
    }

    /// Summary statistics of a set of durations, seconds.
    public struct Spread: Sendable, Equatable {
        /// Values summarised.
        public var count: Int
        /// Mean, nearest-rank 50th and 95th percentiles and maximum, seconds (0 when empty).
        public var mean: Double
        /// See `mean`.
        public var p50: Double
        /// See `mean`.
        public var p95: Double
        /// See `mean`.
        public var max: Double

        init(_ values: [SimTime]) {
            let s = values.map(\.inSeconds).sorted()
            count = s.count
            mean = s.isEmpty ? 0 : s.reduce(0, +) / Double(s.count)
            p50 = s.isEmpty ? 0 : FlowMetrics.percentile(s, 50)
            p95 = s.isEmpty ? 0 : FlowMetrics.percentile(s, 95)
            max = s.last ?? 0
        }
    }

    /// One message workload.
    public struct Workload: Sendable, Equatable {
        /// The workload as the scenario gave it.
        public var spec: MessageWorkloadSpec
        /// Messages created, delivered and confirmed.
        public var created: Int
        /// See `created`.
        public var delivered: Int
        /// See `created`.
        public var confirmed: Int
        /// delivered / created (0 when nothing was created).
        public var deliveryRatio: Double
        /// Latency of delivered messages.
        public var latency: Spread
        /// Mean hops of delivered messages.
        public var meanHops: Double
        /// Confirmation RTT of confirmed messages.
        public var confirmRtt: Spread
        /// Attempts in total, and attempts that found no route (or a failed sender).
        public var attempts: Int
        /// See `attempts`.
        public var attemptsWithoutRoute: Int
        /// When the sender first held a route to the receiver.
        public var routeEstablished: SimTime?
    }

    /// Per node, by index.
    public var nodes: [Node]
    /// Every live route at the end (from, to, path), in (from, to) order.
    public var routes: [(from: Int, to: Int, path: [Int])]
    /// Per workload, in file order.
    public var workloads: [Workload]
    /// Per workload, every message's record (creation, delivery, confirmation, attempts,
    /// fragments), in creation order.
    public var messages: [[MessageLedger.Record]]
    /// Ordered pairs, and how many held a route at some time.
    public var pairs: Int
    /// See `pairs`.
    public var pairsRouted: Int
    /// Route establishment times over the pairs that got a route.
    public var establishment: Spread
    /// Per ordered pair that ever held a route, in (from, to) order: when `from` first held one.
    public var firstRoutes: [(from: Int, to: Int, time: SimTime)]
    /// Node failures and their repair times.
    public var repairs: [RouteRepair]
    /// Path-derived keys (empty unless `mesh.keyPaths` is set).
    public var keys: [PathKeys.PairKey]
    /// Message frames dropped because the next hop had left the relay's session.
    public var noSessionDrops: UInt64
    /// Message frames a source sent again along a cached route after its first hop failed.
    public var failovers: UInt64
    /// With Multipeer set-up: join time, first session minus app start (time zero, or the
    /// node's `join` event), over the nodes that joined a session.
    public var joinTime: Spread?
    /// The most session peers any phone has at the end (MAdHoc's neighbour count, seed 002:
    /// "up to 8 other nodes").
    public var neighboursMax: Int { nodes.map(\.sessionPeers).max() ?? 0 }
    /// The members of the largest Multipeer session at the end, the phone included: with
    /// sessions as groups the largest group's members (`SessionGroups`); otherwise a phone's
    /// peers fill its sessions one after another, at most `mesh.maxPeers − 1` others each
    /// (`MeshConfig.largestSession`).
    public var largestSession: Int
    /// What each phone's app heard from Multipeer, in time order (`nil` without Multipeer
    /// set-up).
    public var multipeerEvents: [MultipeerEvent]?
    /// Mean heartbeat bytes per node per simulated second.
    public var controlBytesPerNodePerSecond: Double
    /// Flows carried across the mesh (`flows[i].via`), in flow order, with what their packets
    /// met on the way (from the mesh's `MeshCarriage`).
    public var flows: [CarriedFlow] = []
    /// Multipeer streams and resources, resources first, in scenario order.
    public var transfers: [SessionTransfer]

    /// One flow across the mesh.
    public struct CarriedFlow: Sendable, Equatable {
        /// The flow's id, client and server nodes, and transport.
        public var id: String
        /// See `id`.
        public var from: Int
        /// See `id`.
        public var to: Int
        /// See `id`.
        public var transport: TransportProtocol
        /// Route hops, waits and losses of its datagrams.
        public var counters: MeshCarriage.FlowCounters
    }

    /// The metrics of `mesh` at `end`; `appStart` per node (time zero unless it joined later)
    /// is what join times are measured from.
    public init(_ mesh: MeshNetwork, end: SimTime, appStart: [SimTime] = []) {
        let n = mesh.nodeCount
        let first = mesh.firstConnected
        let sent = mesh.framesSent
        nodes = (0..<n).map {
            Node(
                sessionPeers: mesh.peers[$0].count, controlFrames: sent.controlFramesSent[$0],
                controlBytes: sent.controlBytes[$0],
                messageFrames: sent.messageFramesSent[$0], messageBytes: sent.messageBytes[$0],
                sessionFrames: sent.sessionFramesSent[$0], sessionBytes: sent.sessionBytes[$0],
                firstSession: first.isEmpty ? nil : first[$0], relayed: mesh.recorder.relayedFrames[$0],
                notOnPath: mesh.recorder.notOnPathDrops[$0])
        }
        largestSession =
            mesh.largestGroup ?? mesh.config.largestSession(peers: nodes.map(\.sessionPeers).max() ?? 0)
        multipeerEvents = mesh.multipeerEvents
        if !first.isEmpty {
            joinTime = Spread(
                (0..<n).compactMap { i in first[i].map { $0 - (i < appStart.count ? appStart[i] : .zero) } })
        }
        var routes: [(from: Int, to: Int, path: [Int])] = []
        for r in mesh.core.routes.allLive(at: end) { routes.append(r) }
        self.routes = routes
        workloads = mesh.ledger.workloads.indices.map { w in
            let spec = mesh.ledger.workloads[w]
            let records = mesh.ledger.records[w]
            let delivered = records.filter { $0.delivered != nil }
            let confirmed = records.filter { $0.confirmRtt != nil }
            let first = mesh.recorder.firstRoute[spec.from * n + spec.to]
            return Workload(
                spec: spec, created: records.count, delivered: delivered.count, confirmed: confirmed.count,
                deliveryRatio: records.isEmpty ? 0 : Double(delivered.count) / Double(records.count),
                latency: Spread(delivered.compactMap { r in r.delivered.map { $0 - r.created } }),
                meanHops: delivered.isEmpty ? 0 : Double(delivered.map(\.hops).reduce(0, +)) / Double(delivered.count),
                confirmRtt: Spread(confirmed.compactMap(\.confirmRtt)),
                attempts: records.map(\.attempts).reduce(0, +),
                attemptsWithoutRoute: records.map(\.attemptsWithoutRoute).reduce(0, +),
                routeEstablished: first < 0 ? nil : SimTime(nanoseconds: first))
        }
        messages = mesh.ledger.records
        transfers = mesh.transfers
        var times: [SimTime] = []
        var firstRoutes: [(from: Int, to: Int, time: SimTime)] = []
        for k in mesh.recorder.firstRoute.indicesHoldingValues where k / n != k % n {
            let t = mesh.recorder.firstRoute[k]
            times.append(SimTime(nanoseconds: t))
            firstRoutes.append((k / n, k % n, SimTime(nanoseconds: t)))
        }
        self.firstRoutes = firstRoutes
        pairs = n * (n - 1)
        pairsRouted = times.count
        establishment = Spread(times)
        repairs = mesh.recorder.repairs
        keys = mesh.keyReport()
        noSessionDrops = mesh.recorder.noSessionDrops
        failovers = mesh.recorder.failovers
        let seconds = end.inSeconds
        controlBytesPerNodePerSecond =
            n == 0 || seconds <= 0 ? 0 : Double(mesh.framesSent.controlBytes.reduce(0, +)) / Double(n) / seconds
    }
}

extension MeshMetrics {
    /// The metrics of `mesh` at `end`: phones that joined later count from their join, and the
    /// flows `hosts` carried across the mesh are listed with their counters.
    static func of(_ mesh: MeshNetwork, scenario: Scenario, hosts: HostStack, nodes: Int, end: SimTime) -> MeshMetrics {
        var start = Array(repeating: SimTime.zero, count: nodes)
        for e in scenario.events where e.action == .join { start[e.node] = max(start[e.node], e.time) }
        var m = MeshMetrics(mesh, end: end, appStart: start)
        let flows = hosts.flows
        m.flows = flows.indices.filter { hosts.overMesh[$0] }.map { k in
            MeshMetrics.CarriedFlow(
                id: flows[k].app.spec.id, from: Int(flows[k].clientNode), to: Int(flows[k].serverNode),
                transport: flows[k].transport, counters: mesh.carriage.counters[k])
        }
        return m
    }
}
