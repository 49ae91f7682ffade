/// What the mesh keeps to carry the hosts' IP (`flows[i].via: "mesh"`): the send buffer of
/// datagrams waiting for a route, the route requests and broken links the hosts reported since
/// the routing last acted on them, and per-flow counters for the results. The hosts reach it
/// through `IpRouting` only.
///
/// The send buffer follows DSR's (RFC 4728 §4.1): a datagram that finds no route waits, at
/// most `timeout` (30 s, RFC 4728 §9 SendBufferTimeout) and at most `capacity` datagrams per
/// node (64, ns-3 DSR's MaxSendBuffLen), oldest dropped first; it is sent as soon as its
/// sender holds a route. MAdHoc's design has no send buffer (an app message goes to "a known
/// user"); an app tunnelling IP over it would need one, and the same one serves both
/// protocols, so they are compared on their routing alone.
public struct MeshCarriage: Sendable {
    /// A datagram waiting for a route.
    struct Waiting: Sendable {
        var datagram: Datagram
        var from: UInt32
        var to: UInt32
        var since: SimTime
    }

    /// Per flow: what happened to its datagrams and packets across the mesh.
    public struct FlowCounters: Sendable, Equatable {
        /// Datagrams that found no route and waited in the send buffer.
        public var waitedForRoute: UInt64 = 0
        /// Datagrams dropped from the send buffer (timeout or overflow) without a route.
        public var noRouteDrops: UInt64 = 0
        /// IP packets relays passed on.
        public var relayed: UInt64 = 0
        /// IP packets lost because the next hop had left the session or the link gave up on it
        /// (at the sender, the datagram, before IP cut it into packets).
        public var brokenHopDrops: UInt64 = 0
        /// Hops of the route the last datagram took (0: none yet).
        public var lastHops = 0
        /// The most hops any datagram's route had.
        public var maxHops = 0
        /// Times a datagram took a different route from the one before it in the same
        /// direction (route changes the transport may see as reordering or loss).
        public var routeChanges: UInt64 = 0
    }

    /// How long a datagram may wait for a route: 30 s (RFC 4728 §9, SendBufferTimeout).
    public static let timeout = SimTime.seconds(30)
    /// Datagrams a node's send buffer holds: 64 (ns-3 DSR's MaxSendBuffLen).
    public static let capacity = 64

    /// Waiting datagrams, oldest first.
    var waiting: [Waiting] = []
    /// Routes the hosts asked for since the routing last took them: (from, to).
    var wanted: [(from: Int, to: Int)] = []
    /// Links found broken since the routing last took them, with the route the packet carried.
    var broken: [(route: [Int], at: Int, next: Int)] = []
    /// The mesh's route count when the send buffer last looked.
    var routesSeen: UInt64 = 0
    /// Per flow.
    public private(set) var counters: [FlowCounters]
    /// Per flow side (`FlowSide.index`): the route its last datagram took.
    var lastRoute: [[Int]]

    /// Nothing waiting, for `flows` flows.
    init(flows: Int) {
        counters = Array(repeating: FlowCounters(), count: flows)
        lastRoute = Array(repeating: [], count: 2 * flows)
    }

    /// Whether route requests or broken links wait for the routing.
    var hasReports: Bool { !wanted.isEmpty || !broken.isEmpty }

    /// `d` found no route from `from` to `to`: it waits (the oldest of that node's datagrams
    /// is dropped when the node's buffer is full) and a route is asked for.
    mutating func awaitRoute(_ d: Datagram, from: UInt32, to: UInt32, now: SimTime) {
        counters[Int(d.flow)].waitedForRoute += 1
        var held = 0
        var oldest: Int?
        for (i, w) in waiting.enumerated() where w.from == from {
            held += 1
            if oldest == nil { oldest = i }
        }
        if held >= MeshCarriage.capacity, let i = oldest {
            counters[Int(waiting[i].datagram.flow)].noRouteDrops += 1
            waiting.remove(at: i)
        }
        waiting.append(Waiting(datagram: d, from: from, to: to, since: now))
        wanted.append((Int(from), Int(to)))
    }

    /// A datagram sent by `side` took `route`.
    mutating func routeTaken(by side: FlowSide, route: [Int]) {
        let k = side.flow
        if lastRoute[side.index] != route {
            if !lastRoute[side.index].isEmpty { counters[k].routeChanges += 1 }
            lastRoute[side.index] = route
        }
        counters[k].lastHops = route.count - 1
        counters[k].maxHops = Swift.max(counters[k].maxHops, route.count - 1)
    }

    /// A relay passed one of flow `k`'s packets on.
    mutating func relayedPacket(flow k: Int32) { counters[Int(k)].relayed += 1 }

    /// The link from `at` to `next` on `route` failed for a packet of flow `k`.
    mutating func linkBroke(route: [Int], at: Int, next: Int, flow k: Int32) {
        counters[Int(k)].brokenHopDrops += 1
        broken.append((route, at, next))
    }

    /// Whether datagrams wait for a route.
    var hasWaiting: Bool { !waiting.isEmpty }

    /// Takes the datagrams whose sender may now have a route (every waiting one, when the
    /// mesh learned routes since the last look), dropping those that waited too long. The
    /// caller sends each that has a route now and hands the others back (`keep`).
    mutating func takeRetries(routesLearned: UInt64, now: SimTime) -> [Waiting] {
        guard !waiting.isEmpty, routesLearned != routesSeen else { return [] }
        routesSeen = routesLearned
        var ready: [Waiting] = []
        for w in waiting {
            if now - w.since > MeshCarriage.timeout {
                counters[Int(w.datagram.flow)].noRouteDrops += 1
            } else {
                ready.append(w)
            }
        }
        waiting.removeAll()
        return ready
    }

    /// Puts back a datagram `takeRetries` gave out that still has no route (its wait goes on).
    mutating func keep(_ w: Waiting) { waiting.append(w) }

    /// Hands over the route requests and broken links, and forgets them.
    mutating func takeReports() -> (wanted: [(from: Int, to: Int)], broken: [(route: [Int], at: Int, next: Int)]) {
        defer {
            wanted.removeAll()
            broken.removeAll()
        }
        return (wanted, broken)
    }
}
