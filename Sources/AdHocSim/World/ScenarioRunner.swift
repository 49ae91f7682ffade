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
            throw Unsupported(description: "\(scenario.sourcePath): error: events: node events need a radio (awdl or wifi); the ideal link has no positions or radios to fail")
        }
        if scenario.mesh != nil && RadioConfiguration(scenario.radio).technology == .ideal {
            throw Unsupported(description: "\(scenario.sourcePath): error: mesh: the mesh needs a radio (awdl or wifi) for its neighbour sessions; the ideal link has none")
        }
    }

    /// Runs `scenario` to its duration (or its event budget) and reports what happened.
    /// Deterministic: the report depends only on the scenario, never on the wall clock except
    /// for `wallSeconds`.
    public static func run(_ scenario: Scenario, trace: Bool = false) throws -> RunReport {
        try checkSupported(scenario)
        let clock = ContinuousClock()
        let started = clock.now
        var sim = Simulation(seed: scenario.seed)
        var world = World(scenario, sim: &sim)
        if trace { world.trace = PacketTrace(nodes: world.nodes.count, version: world.ip.version) }
        let reason = sim.run(&world, until: scenario.duration, maxEvents: scenario.limits.maxEvents)
        let wall = clock.now - started
        let link = (0..<world.nodes.count).map { world.wireless?.counters(of: $0) ?? world.ideal!.counters(of: $0) }
        return RunReport(scenario: scenario, stopReason: reason, simulatedTime: sim.now,
                         eventsExecuted: sim.eventsExecuted, fingerprint: { var h = StableHash(); h.value = sim.fingerprint; return h.hex }(),
                         wallSeconds: wall.seconds, nodes: world.nodes,
                         link: link, traffic: world.traffic.counters,
                         mesh: world.mesh.map { MeshMetrics($0, end: sim.now) },
                         traces: world.trace.map { t in (0..<world.nodes.count).map { t.file(of: $0) } },
                         ipTotals: (0..<world.flows.count).map { k in
                             (world.ip.packetsSent[2 * k], world.ip.packetsReceived[2 * k], world.ip.bytesSent[2 * k], world.ip.bytesReceived[2 * k])
                         },
                         flows: world.flows.indices.map {
                             FlowMetrics(flow: world.flows[$0], index: $0, ip: world.ip,
                                         linkLostPackets: world.ip.packetsLost[2 * $0] + world.ip.packetsLost[2 * $0 + 1])
                         })
    }
}
