/// The phone's own per-message processing cost (`host`, and per phone `nodes[i].host`): what
/// Network.framework's user-space stack and the app's dispatch queue spend on each send and
/// each receive completion of a connection (`ConnectionQueue`). A phone's own `nodes[i].host`
/// is the scenario's `host` with the keys it gives replaced.
public struct HostSpec: Sendable, Equatable {
    /// Mean service time of one send (a `send` call until its `.contentProcessed` completion),
    /// µs (`host.sendUs`).
    public var sendUs = 23.3
    /// Mean service time of one receive completion, µs (`host.receiveUs`).
    public var receiveUs = 13.3
    /// Coefficient of variation of a job's service time (`host.spread`).
    public var spread = 0.61
    /// Mean service time of one transport packet, µs (`host.packetUs`).
    public var packetUs = 12.2
    /// What a UDP datagram costs beyond `packetUs`, µs (`host.datagramUs`; off).
    public var datagramUs = 0.0
    /// Slow-down of a cold phone (`host.coldFactor`).
    public var coldFactor = 15.0
    /// Warm-up time constant, ms (`host.warmUpMs`).
    public var warmUpMs = 38.0
    /// Cool-down time constant, ms (`host.coolDownMs`).
    public var coolDownMs = 2_000.0
    /// A datagram connection's receive buffer, bytes (`host.udpReceiveBufferBytes`): Darwin's
    /// `sb_max`, 8 MiB.
    public var udpReceiveBufferBytes = 8_388_608.0
    /// A datagram connection's receive buffer, datagrams (`host.udpReceiveBufferDatagrams`).
    public var udpReceiveBufferDatagrams = 3_200
    /// A datagram connection's send buffer, bytes (`host.udpSendBufferBytes`).
    public var udpSendBufferBytes = 5_000_000.0
    /// The interface queue discipline (`host.interfaceQueue`, scenario-wide only): XNU's
    /// FQ-CoDel.
    public var interfaceQueue = InterfaceQueue.Discipline.fqCodel
    /// Where a round's connections do their work (`host.roundQueue`, scenario-wide only): one
    /// main queue per phone.
    public var roundQueue = HostParameters.RoundQueue.shared

    /// The defaults: every value above is the one default of its key (`HostParameters`
    /// documents it from here).
    public init() {}
}

extension ScenarioDecoder {
    /// Decodes a `host` object by its declarations (`HostParameters.section`) into `base` (the
    /// defaults, or for a phone the scenario's `host`); per node, the scenario-wide keys
    /// (`interfaceQueue`, `roundQueue`) are not allowed.
    func decodeHost(
        _ node: JSONNode, _ path: JSONPath, into base: HostSpec = HostSpec(), perNode: Bool = false
    )
        -> HostSpec?
    {
        decode(HostParameters.section, node, path, into: base, perNode: perNode)
    }

    /// Each phone's `nodes[i].host` laid over the scenario's `host`: the phone's keys replace the
    /// scenario's, the rest stay (the node's object was checked when the node was read).
    func overlayNodeHosts(_ nodes: inout [NodeSpec], _ nodesNode: JSONNode, _ path: JSONPath, host: HostSpec) {
        guard case .array(let elements) = nodesNode.value, elements.count == nodes.count else { return }
        for (i, element) in elements.enumerated() {
            guard let h = element["host"] else { continue }
            nodes[i].host = decodeHost(h, path.appending(i).appending("host"), into: host, perNode: true)
        }
    }
}
