/// The `host` section's keys, each declared once and bound to the `HostSpec` field it sets,
/// whose initial value is its one default: the decoder's checks and messages, the schema's
/// `host` objects and the table in `docs/models/host.md` come from here.
public enum HostParameters {
    /// The defaults, read from the settings' own fields.
    private static let defaults = HostSpec()

    /// Where a round's connections do their work on each phone (`host.roundQueue`).
    public enum RoundQueue: String, Sendable, CaseIterable {
        /// One main queue per phone for all the round's connections (the thesis app's `.main`).
        case shared
        /// A queue of its own per connection (the ablation: a round as three apps).
        case perConnection = "per-connection"
    }

    /// The declarations, in the order the docs and the schema list them.
    static let section = ParameterSection<HostSpec>(
        "host",
        [
            Parameter(
                "sendUs", .number(0...1_000_000, unit: "µs", set: { $0.sendUs = $1 }),
                default: JSONNumber(defaults.sendUs).literal,
                help: "mean service time of one send, from the `send` call to its `.contentProcessed` completion",
                expected: "a per-message processing time in microseconds, {range}", source: .fitted, perNode: true),
            Parameter(
                "receiveUs", .number(0...1_000_000, unit: "µs", set: { $0.receiveUs = $1 }),
                default: JSONNumber(defaults.receiveUs).literal,
                help: "mean service time of one receive completion (the app reads each message in two)",
                expected: "a per-message processing time in microseconds, {range}", source: .fitted, perNode: true),
            Parameter(
                "packetUs", .number(0...1_000_000, unit: "µs", set: { $0.packetUs = $1 }),
                default: JSONNumber(defaults.packetUs).literal,
                help: "mean service time of one transport packet sent or received",
                expected: "a per-message processing time in microseconds, {range}", source: .fitted, perNode: true),
            Parameter(
                "datagramUs", .number(0...1_000_000, unit: "µs", set: { $0.datagramUs = $1 }),
                default: JSONNumber(defaults.datagramUs).literal,
                help:
                    "what a UDP datagram sent or received costs beyond `packetUs` (Network.framework's datagram path, one packet per message)",
                expected: "a per-datagram processing time in microseconds, {range}",
                source: .assumption(
                    "off: no public source separates a datagram's cost from a segment's; fitted on the round layout it came out 17.9 µs and scored lower (docs/fidelity.md, \"The study as it ran\")"
                ),
                perNode: true),
            Parameter(
                "spread", .number(0...10, unit: "", set: { $0.spread = $1 }),
                default: JSONNumber(defaults.spread).literal,
                help: "coefficient of variation of a job's service time (log-normal; 0: fixed)",
                expected: "a coefficient of variation of the per-message cost, {range}", source: .fitted, perNode: true),
            Parameter(
                "coldFactor", .number(1...100, unit: "×", set: { $0.coldFactor = $1 }),
                default: JSONNumber(defaults.coldFactor).literal,
                help: "a fully cold phone's job costs this many times the warm cost (1: never cold)",
                expected: "a cold phone's slow-down factor, {range}", source: .fitted, perNode: true),
            Parameter(
                "warmUpMs", .number(0.001...60_000, unit: "ms", set: { $0.warmUpMs = $1 }),
                default: JSONNumber(defaults.warmUpMs).literal,
                help: "time constant τ: busy time warms the phone as e^(−t/τ)",
                expected: "a warm-up time constant in milliseconds, {range}", source: .fitted, perNode: true),
            Parameter(
                "coolDownMs", .number(0.001...600_000, unit: "ms", set: { $0.coolDownMs = $1 }),
                default: JSONNumber(defaults.coolDownMs).literal,
                help:
                    "time constant τ↓: idle time cools the phone as e^(−t/τ↓); frequency governors lower the clock more slowly than they raise it",
                expected: "a cool-down time constant in milliseconds, {range}", source: .fitted, perNode: true),
            Parameter(
                "udpReceiveBufferBytes", .number(0...8_388_608, unit: "bytes", set: { $0.udpReceiveBufferBytes = $1 }),
                default: JSONNumber(defaults.udpReceiveBufferBytes).literal,
                help:
                    "a datagram connection's receive buffer ahead of the app's reads, bytes; a datagram that does not fit is dropped (xnu's kernel socket: `udp_recvspace` 196 724)",
                expected: "a receive buffer in bytes, {range}",
                source: .cited(
                    "xnu `bsd/sys/socketvar.h` (`sb_max`), `bsd/netinet/udp_usrreq.c` (`udps_fullsock`); transport.md, \"Darwin buffers\""
                ),
                perNode: true),
            Parameter(
                "udpReceiveBufferDatagrams",
                .integer(1...1_000_000, unit: "datagrams", set: { $0.udpReceiveBufferDatagrams = $1 }),
                default: "\(defaults.udpReceiveBufferDatagrams)",
                help:
                    "the same buffer's limit in datagrams, whatever their size (the user-space stack's packet buffers)",
                expected: "a number of datagrams, {range}", source: .fitted, perNode: true),
            Parameter(
                "udpSendBufferBytes", .number(0...67_108_864, unit: "bytes", set: { $0.udpSendBufferBytes = $1 }),
                default: JSONNumber(defaults.udpSendBufferBytes).literal,
                help:
                    "a datagram connection's send buffer: a send completes at once, a datagram that does not fit is lost (0: the sender waits for the interface)",
                expected: "a send buffer in bytes, {range}", source: .fitted, perNode: true),
            Parameter(
                "interfaceQueue",
                .choice(
                    InterfaceQueue.Discipline.allCases.map(\.rawValue),
                    set: { spec, word in
                        if let q = InterfaceQueue.Discipline(rawValue: word) { spec.interfaceQueue = q }
                    }),
                default: "\"\(defaults.interfaceQueue.rawValue)\"",
                help:
                    "Darwin's interface queue: FQ-CoDel's flow control and UDP drops, or only a full queue holding senders",
                expected: "an interface queue discipline",
                source: .cited("xnu `bsd/net/classq/classq_fq_codel.c`")),
            Parameter(
                "roundQueue",
                .choice(
                    RoundQueue.allCases.map(\.rawValue),
                    set: { spec, word in if let q = RoundQueue(rawValue: word) { spec.roundQueue = q } }),
                default: "\"\(defaults.roundQueue.rawValue)\"",
                help:
                    "where a round's connections (`flows[i].protocol` as a list) do their work on each phone: one main queue for all, or a queue each",
                expected: "a round queue",
                source: .cited(
                    "MatthiasBart/PtPPrototype, `ConnectionImpl.swift`: `connection.start(queue: .main)`; transport.md, \"Darwin buffers\""
                ))
        ], description: "the phone's per-message costs and interface queue")
}
