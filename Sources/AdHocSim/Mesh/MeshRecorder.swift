/// What the mesh's metrics observe, as it happens: routes learned, relays and drops, node
/// failures (the frames each node sent are counted where they go to the link, `FramesSent`).
/// The mesh calls its observer; the observer never changes what the mesh does.
protocol MeshObserver: Sendable {
    /// A source-routed frame could not go on: its next hop was not in `node`'s session.
    mutating func noSession(at node: Int)
    /// A route error was originated.
    mutating func routeErrorSent()
    /// Node `node` passed a message, route return, reply or error on as a relay.
    mutating func relayed(at node: Int)
    /// Node `node` received a source-routed frame whose next hop is another node (a
    /// path-broadcast copy) and dropped it.
    mutating func notOnPath(at node: Int)
    /// A message's source failed over to a cached route.
    mutating func failedOver()
    /// The route at flat index `index` (from · n + to) was learned or replaced at `now`.
    mutating func routeLearned(_ route: MeshRoute, at index: Int, now: SimTime)
    /// Node `node` failed at `now`; `routes` are the routes just before, `down` which nodes are
    /// down now.
    mutating func nodeFailed(_ node: Int, now: SimTime, routes: RouteTable, down: [Bool])
}

/// The mesh's recorder: per-node relay counters, when each pair first held a route, and the
/// routes each failure broke with their repair times (`MeshMetrics` reads it at the end).
public struct MeshRecorder: MeshObserver, Sendable {
    /// Per node, source-routed frames it passed on as a relay (each once, however many copies
    /// the hop then sends).
    public private(set) var relayedFrames: [UInt64]
    /// Per node, source-routed frames it received for another node and dropped (with
    /// `mesh.forwarding: "path-broadcast"`; 0 otherwise).
    public private(set) var notOnPathDrops: [UInt64]
    /// Message frames a relay could not pass on because the next hop was not in its session.
    public private(set) var noSessionDrops: UInt64 = 0
    /// Classic DSR: route errors originated (a node found its next hop unreachable).
    public private(set) var routeErrors: UInt64 = 0
    /// Per (from, to), flat: when `from` first held a route to `to`, ns (−1: never).
    private(set) var firstRoute: PairTable<Int64>
    /// Node failures and the routes they broke.
    public private(set) var repairs: [RouteRepair] = []
    /// Per broken ordered pair (flat index), the failures (indices into `repairs`) whose
    /// routes it still waits to repair.
    var pendingRepairs: [UInt64: [Int]] = [:]
    let nodeCount: Int

    /// Nothing recorded for `nodes` nodes.
    init(nodes: Int) {
        nodeCount = nodes
        firstRoute = PairTable(nodes: nodes, empty: -1)
        relayedFrames = Array(repeating: 0, count: nodes)
        notOnPathDrops = Array(repeating: 0, count: nodes)
    }

    mutating func relayed(at node: Int) { relayedFrames[node] += 1 }

    mutating func notOnPath(at node: Int) { notOnPathDrops[node] += 1 }

    mutating func noSession(at node: Int) { noSessionDrops += 1 }

    mutating func routeErrorSent() { routeErrors += 1 }
    /// Messages whose source failed over to a cached route (route cache, heartbeat routing).
    public private(set) var failovers: UInt64 = 0
    mutating func failedOver() { failovers += 1 }

    /// Records the first route of a pair and the repairs a new route completes (a route that no
    /// longer relays through a failed node).
    mutating func routeLearned(_ route: MeshRoute, at index: Int, now: SimTime) {
        if firstRoute[index] < 0 { firstRoute[index] = now.nanoseconds }
        if !pendingRepairs.isEmpty, let waiting = pendingRepairs[UInt64(index)] {
            var still: [Int] = []
            for k in waiting {
                if route.path.contains(repairs[k].node) {
                    still.append(k)
                } else {
                    repairs[k].repairTimes.append(now - repairs[k].failed)
                }
            }
            pendingRepairs[UInt64(index)] = still.isEmpty ? nil : still
        }
    }

    /// Node `k` failed: every live route that relays through it is broken until its source
    /// learns one without it (the repair time). Routes of earlier failures that start or end at
    /// `k` can no longer be repaired: they leave the count of broken pairs. Routes from or to
    /// nodes that are down are not counted.
    mutating func nodeFailed(_ k: Int, now: SimTime, routes: RouteTable, down: [Bool]) {
        for (pair, failures) in pendingRepairs where Int(pair) / nodeCount == k || Int(pair) % nodeCount == k {
            for f in failures { repairs[f].brokenPairs -= 1 }
            pendingRepairs[pair] = nil
        }
        let index = repairs.count
        var broken = 0
        for a in 0..<nodeCount where !down[a] {
            for b in 0..<nodeCount where b != a && !down[b] {
                if let r = routes.route(from: a, to: b, at: now), r.path.dropFirst().dropLast().contains(k) {
                    broken += 1
                    pendingRepairs[UInt64(a * nodeCount + b), default: []].append(index)
                }
            }
        }
        repairs.append(RouteRepair(node: k, failed: now, brokenPairs: broken, repairTimes: []))
    }
}
