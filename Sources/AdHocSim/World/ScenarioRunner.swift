/// Runs one scenario from start to end, producing a `RunReport`.
public enum ScenarioRunner {
    /// Why a scenario cannot be run by this build (its file is valid, but it asks for a layer
    /// that is not implemented yet). The CLI reports it like bad input (exit status 2).
    public struct Unsupported: Error, CustomStringConvertible {
        /// What is missing, with the JSON path that asked for it.
        public var description: String
    }

    /// Checks that this build can simulate everything `scenario` asks for.
    public static func checkSupported(_ scenario: Scenario) throws {
        if !scenario.events.isEmpty && RadioConfiguration(scenario.radio).technology == .ideal {
            throw Unsupported(
                description:
                    "\(scenario.sourcePath): error: events: node events need a radio (awdl or wifi); the ideal link has no positions or radios to fail"
            )
        }
        if scenario.mesh != nil && RadioConfiguration(scenario.radio).technology == .ideal {
            throw Unsupported(
                description:
                    "\(scenario.sourcePath): error: mesh: the mesh needs a radio (awdl or wifi) for its neighbour sessions; the ideal link has none"
            )
        }
    }

    /// Something to do with the world of a scenario, whatever its link technology.
    public protocol WorldBody {
        /// What the body returns.
        associatedtype Output
        /// Works with `world`, whose link is `L`.
        func callAsFunction<L: LinkTechnology>(_ world: inout World<L>, sim: inout Simulation) throws -> Output
    }

    /// Builds the world of `scenario` over the link technology its radio section names and
    /// hands it to `body`: the one place a link technology is registered.
    public static func withWorld<B: WorldBody>(
        _ scenario: Scenario, sim: inout Simulation, _ body: B
    ) throws -> B.Output {
        switch RadioConfiguration(scenario.radio).technology {
        case .awdl, .wifi:
            var world = World<WirelessLink>(scenario, sim: &sim)
            return try body(&world, sim: &sim)
        case .ideal:
            var world = World<IdealLink>(scenario, sim: &sim)
            return try body(&world, sim: &sim)
        }
    }

    /// Runs `scenario` to its duration (or its event budget) and reports what happened.
    /// Deterministic: the report depends only on the scenario, never on the wall clock except
    /// for `wallSeconds`.
    /// `timeline` records what `adhocsim view` plays back (`TimelineRecorder`), without
    /// changing the run.
    public static func run(
        _ scenario: Scenario, trace: Bool = false, timeline: Bool = false,
        progress: (@Sendable (RunProgress) -> Void)? = nil
    ) throws -> RunReport {
        try checkSupported(scenario)
        let started = ContinuousClock().now
        var sim = Simulation(seed: scenario.seed)
        return try withWorld(
            scenario, sim: &sim,
            FullRun(
                scenario: scenario, trace: trace, timeline: timeline, started: started, progress: progress))
    }

    /// Where a running simulation stands, for a progress display.
    public struct RunProgress: Sendable {
        /// Simulated time reached.
        public var simulated: SimTime
        /// The scenario's duration.
        public var duration: SimTime
        /// Handler calls so far.
        public var events: UInt64
        /// Wall-clock seconds since the run started.
        public var wallSeconds: Double
    }

    /// How many slices of simulated time a run with a progress display is cut into. The loop
    /// runs each slice with `Simulation.run(until:)`, which leaves the event order, and so the
    /// results, exactly as one call would.
    static let progressSlices: Int64 = 1000

    /// Runs a world to the scenario's end and reports it.
    struct FullRun: WorldBody {
        let scenario: Scenario
        let trace: Bool
        let timeline: Bool
        let started: ContinuousClock.Instant
        var progress: (@Sendable (RunProgress) -> Void)?

        func callAsFunction<L: LinkTechnology>(_ world: inout World<L>, sim: inout Simulation) -> RunReport {
            let clock = ContinuousClock()
            if trace { world.hosts.trace = PacketTrace(nodes: world.nodes.count, version: world.hosts.ip.version) }
            let end = scenario.duration
            var reason: StopReason
            let recorder = timeline ? TimelineRecorder(slice: TimelineRecorder.slice(for: scenario)) : nil
            if let recorder {
                world.timeline = recorder
                recorder.begin(world, scenario: scenario)
            }
            if progress != nil || recorder != nil {
                // Slices leave the event order exactly as one call would; the recorder samples
                // between them.
                let step =
                    recorder?.slice.nanoseconds ?? Swift.max(end.nanoseconds / ScenarioRunner.progressSlices, 1)
                var limit = SimTime.zero
                repeat {
                    limit = SimTime(nanoseconds: Swift.min(end.nanoseconds, limit.nanoseconds + step))
                    reason = sim.run(&world, until: limit, maxEvents: scenario.limits.maxEvents)
                    recorder?.sample(world, now: limit)
                    progress?(
                        RunProgress(
                            simulated: sim.now, duration: end, events: sim.eventsExecuted,
                            wallSeconds: (clock.now - started).seconds))
                } while (reason == .timeLimit || reason == .queueEmpty) && limit < end
            } else {
                reason = sim.run(&world, until: end, maxEvents: scenario.limits.maxEvents)
            }
            let wall = clock.now - started
            recorder?.finish(world)
            var r = report(world, sim: sim, reason: reason, wall: wall)
            r.timeline = recorder?.text
            return r
        }

        func report<L: LinkTechnology>(
            _ world: World<L>, sim: borrowing Simulation, reason: StopReason, wall: Duration
        ) -> RunReport {
            let link = (0..<world.nodes.count).map { world.link.counters(of: $0) }
            let ip = world.hosts.ip
            let flows = world.hosts.flows
            return RunReport(
                scenario: scenario, stopReason: reason, simulatedTime: sim.now,
                eventsExecuted: sim.eventsExecuted,
                fingerprint: {
                    var h = StableHash(); h.value = sim.fingerprint; return h.hex
                }(),
                wallSeconds: wall.seconds, nodes: world.nodes,
                link: link, traffic: world.traffic.counters,
                layers: world.layers.report(
                    scenario: scenario, hosts: world.hosts, nodes: world.nodes.count, end: sim.now),
                traces: world.hosts.trace.map { t in (0..<world.nodes.count).map { t.file(of: $0) } },
                ipTotals: flows.indices.map { k in
                    let c = FlowSide.client(k).index
                    return (
                        ip.counters[c].packetsSent, ip.counters[c].packetsReceived, ip.counters[c].bytesSent,
                        ip.counters[c].bytesReceived
                    )
                },
                flows: flows.indices.map {
                    FlowMetrics(
                        flow: flows[$0], index: $0, transport: world.hosts.transportSummary(of: $0), ip: ip,
                        linkLostPackets: ip.counters[FlowSide.client($0).index].packetsLost
                            + ip.counters[FlowSide.server($0).index].packetsLost)
                })
        }
    }
}
