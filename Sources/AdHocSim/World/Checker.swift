/// Runs a scenario and evaluates its `expectations` (`adhocsim check`).
public enum Checker {
    /// One evaluated expectation.
    public struct Outcome: Sendable {
        /// What was checked.
        public var check: String
        /// The expected value.
        public var expected: String
        /// What the run showed.
        public var observed: String
        /// Whether it held.
        public var passed: Bool

        /// An outcome.
        public init(check: String, expected: String, observed: String, passed: Bool) {
            self.check = check
            self.expected = expected
            self.observed = observed
            self.passed = passed
        }
    }

    /// What a check run produced: the outcomes and, for a mesh, the route changes looked at
    /// every 100 ms (`RouteChangeLog` text, for golden comparison).
    public struct Result: Sendable {
        /// One per expectation, in file order.
        public var outcomes: [Outcome]
        /// The route change log, or `nil` without a mesh.
        public var routeChanges: String?
    }

    /// Runs `scenario` (route checks and the route change log both looked at every 100 ms) and
    /// evaluates every expectation.
    public static func run(_ scenario: Scenario) throws -> Result {
        try ScenarioRunner.checkSupported(scenario)
        var sim = Simulation(seed: scenario.seed)
        return try ScenarioRunner.withWorld(scenario, sim: &sim, CheckRun(scenario: scenario))
    }

    /// Runs a world in steps, sampling routes, and evaluates the expectations.
    struct CheckRun: ScenarioRunner.WorldBody {
        let scenario: Scenario

        func callAsFunction<L: LinkTechnology>(_ world: inout World<L>, sim: inout Simulation) -> Result {
            let ids = scenario.nodes.map(\.id)
            let step = SimTime.milliseconds(100)
            var times: Set<Int64> = []
            for e in scenario.expectations {
                switch e {
                case .routeBy(let t, _, _):
                    var s = SimTime.zero
                    while s <= t { times.insert(s.nanoseconds); s += step }
                    times.insert(t.nanoseconds)
                case .routeAt(let t, _, _, _, _): times.insert(t.nanoseconds)
                default: break
                }
            }
            var sampleTimes: Set<Int64> = []
            if world.layers.mesh != nil {
                var s = RouteChangeLog.step
                while s <= scenario.duration { sampleTimes.insert(s.nanoseconds); s += RouteChangeLog.step }
            }
            var firstSeen: [Int: SimTime] = [:]
            var at: [Int: MeshRoute?] = [:]
            var changes = RouteChangeLog(ids: ids)
            var sampled: (now: SimTime, events: UInt64)?
            for t in times.union(sampleTimes).sorted() {
                _ = sim.run(&world, until: SimTime(nanoseconds: t), maxEvents: scenario.limits.maxEvents)
                // A run its event budget stopped stands still (same time, no event since): a
                // second sample of the same state would add nothing and cost O(N²) each.
                if sampleTimes.contains(t), let mesh = world.layers.mesh,
                    sampled.map({ $0.now != sim.now || $0.events != sim.eventsExecuted }) ?? true
                {
                    changes.sample(mesh, at: sim.now)
                    sampled = (sim.now, sim.eventsExecuted)
                }
                for (k, e) in scenario.expectations.enumerated() {
                    switch e {
                    case .routeBy(let limit, let from, let to):
                        if firstSeen[k] == nil, t <= limit.nanoseconds,
                            world.layers.mesh?.route(from: from, to: to, at: sim.now) != nil
                        {
                            firstSeen[k] = sim.now
                        }
                    case .routeAt(let time, let from, let to, _, _):
                        if time.nanoseconds == t {
                            at[k] = .some(world.layers.mesh?.route(from: from, to: to, at: sim.now))
                        }
                    default: break
                    }
                }
            }
            _ = sim.run(&world, until: scenario.duration, maxEvents: scenario.limits.maxEvents)
            var fp = StableHash()
            fp.value = sim.fingerprint
            let metrics = world.layers.mesh.map { MeshMetrics($0, end: sim.now) }
            var outcomes: [Outcome] = []
            for (k, e) in scenario.expectations.enumerated() {
                switch e {
                case .routeBy(let t, let from, let to):
                    let seen = firstSeen[k]
                    outcomes.append(
                        Outcome(
                            check: "route \(ids[from]) → \(ids[to])", expected: "by \(t)",
                            observed: seen.map { "from \($0)" } ?? "none by \(t)", passed: seen != nil))
                case .routeAt(let t, let from, let to, let avoids, let maxHops):
                    let r = at[k] ?? nil
                    var ok = r != nil
                    if let r {
                        if avoids.contains(where: r.path.contains) { ok = false }
                        if let m = maxHops, r.hops > m { ok = false }
                    }
                    var expected = "exists at \(t)"
                    if !avoids.isEmpty { expected += ", avoids " + avoids.map { ids[$0] }.joined(separator: " ") }
                    if let m = maxHops { expected += ", ≤ \(m) hops" }
                    outcomes.append(
                        Outcome(
                            check: "route \(ids[from]) → \(ids[to])", expected: expected,
                            observed: r.map { $0.path.map { ids[$0] }.joined(separator: " ") + " (\($0.hops) hops)" }
                                ?? "no route",
                            passed: ok))
                case .maxSessionSize(let max):
                    outcomes.append(Self.atMost("largest session", metrics?.largestSession ?? 1, max, unit: "nodes"))
                case .maxNeighbours(let max):
                    outcomes.append(Self.atMost("most session peers", metrics?.neighboursMax ?? 0, max, unit: "others"))
                case .routesWithin(let limit):
                    outcomes.append(Self.routesWithin(limit, world: world, end: sim.now, ids: ids))
                case .fingerprint(let hex):
                    outcomes.append(
                        Outcome(check: "event fingerprint", expected: hex, observed: fp.hex, passed: fp.hex == hex))
                case .deliveryRatio(let w, let lo, let hi):
                    // A delivery-ratio check names a mesh workload, so the run has a mesh.
                    guard let m = metrics?.workloads[w] else { preconditionFailure("a delivery ratio without a mesh") }
                    var expected: [String] = []
                    if let lo { expected.append("≥ \(NumberText.fixed(lo, decimals: 4))") }
                    if let hi { expected.append("≤ \(NumberText.fixed(hi, decimals: 4))") }
                    let ok = (lo.map { m.deliveryRatio >= $0 } ?? true) && (hi.map { m.deliveryRatio <= $0 } ?? true)
                    outcomes.append(
                        Outcome(
                            check: "delivery ratio \(m.spec.id)", expected: expected.joined(separator: ", "),
                            observed: "\(NumberText.fixed(m.deliveryRatio, decimals: 4)) (\(m.delivered)/\(m.created))",
                            passed: ok))
                case .flowDelivered(let k, let lo, let hi):
                    let app = world.hosts.flows[k].app
                    let ratio = app.bytesSent == 0 ? 0 : Double(app.bytesDelivered) / Double(app.bytesSent)
                    var expected: [String] = []
                    if let lo { expected.append("≥ \(NumberText.fixed(lo, decimals: 4))") }
                    if let hi { expected.append("≤ \(NumberText.fixed(hi, decimals: 4))") }
                    let ok = (lo.map { ratio >= $0 } ?? true) && (hi.map { ratio <= $0 } ?? true)
                    outcomes.append(
                        Outcome(
                            check: "flow \(app.spec.id) delivered", expected: expected.joined(separator: ", "),
                            observed:
                                "\(NumberText.fixed(ratio, decimals: 4)) (\(app.bytesDelivered)/\(app.bytesSent) bytes)",
                            passed: ok))
                }
            }
            return Result(outcomes: outcomes, routeChanges: world.layers.mesh == nil ? nil : changes.text)
        }
    }
}

extension Checker.CheckRun {
    /// A count that must not exceed `max`.
    static func atMost(_ check: String, _ observed: Int, _ max: Int, unit: String) -> Checker.Outcome {
        Checker.Outcome(
            check: check, expected: "≤ \(max) \(unit)", observed: "\(observed) \(unit)", passed: observed <= max)
    }

    /// `routes_within_s`: every ordered pair whose later member joined at least `limit` before
    /// the end held a route within `limit` of that join.
    static func routesWithin<L: LinkTechnology>(
        _ limit: SimTime, world: World<L>, end: SimTime, ids: [String]
    )
        -> Checker.Outcome
    {
        let n = ids.count
        var joined = Array(repeating: SimTime.zero, count: n)
        for e in world.events where e.action == .join { joined[e.node] = max(joined[e.node], e.time) }
        let first = world.layers.mesh?.recorder.firstRoute
        var due = 0, missing = 0, named: [String] = [], longest = SimTime.zero
        for a in 0..<n {
            for b in 0..<n where a != b {
                let start = max(joined[a], joined[b])
                guard start + limit <= end else { continue }
                due += 1
                let t = first?[a * n + b] ?? -1
                let wait = t < 0 ? nil : SimTime(nanoseconds: t) - start
                if let wait, wait <= limit {
                    longest = max(longest, wait)
                } else {
                    missing += 1
                    if named.count < 3 { named.append("\(ids[a])→\(ids[b])") }
                }
            }
        }
        let observed =
            missing == 0
            ? "\(due) of \(due) pairs, the last \(longest) after joining"
            : "\(missing) of \(due) pairs late (" + named.joined(separator: ", ") + (missing > 3 ? ", …" : "") + ")"
        return Checker.Outcome(
            check: "routes after joining", expected: "every pair within \(limit)", observed: observed,
            passed: missing == 0)
    }
}
