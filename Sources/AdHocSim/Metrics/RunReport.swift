/// The outcome of one run.
public struct RunReport: Sendable {
    /// The effective scenario.
    public var scenario: Scenario
    /// Why the loop stopped.
    public var stopReason: StopReason
    /// The clock at the end.
    public var simulatedTime: SimTime
    /// Handler calls made.
    public var eventsExecuted: UInt64
    /// The event-trajectory fingerprint (`Simulation.fingerprint`), 16 hex digits.
    public var fingerprint: String
    /// Wall-clock seconds the simulation took (the only non-deterministic number).
    public var wallSeconds: Double
    /// The nodes, for per-node tables.
    public var nodes: NodeTable
    /// Per-node link counters, by node index.
    public var link: [LinkCounters]
    /// Per-generator traffic counters, in file order.
    public var traffic: [TrafficCounters]
    /// What the optional layers measured (`LayerReports`, registered in `Layers/`).
    public var layers: LayerReports
    /// `timeline.jsonl` (`TimelineRecorder`), when recorded.
    public var timeline: String?
    /// Per node: its pcap file, when traced.
    public var traces: [[UInt8]]?
    /// Per flow, the client side's IP packets and bytes over the whole run (sent, received,
    /// bytes sent, bytes received), unlike the report's counts that stop with the test.
    public var ipTotals: [(packetsSent: UInt64, packetsReceived: UInt64, bytesSent: UInt64, bytesReceived: UInt64)]
    /// Per-flow metrics, in file order.
    public var flows: [FlowMetrics]

    /// Whether the run reached its end rather than being cut off by the event budget.
    public var completed: Bool { stopReason != .eventBudget }
}
