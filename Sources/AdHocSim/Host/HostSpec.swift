/// The phone's own per-message processing cost (`host`, and per phone `nodes[i].host`): what
/// Network.framework's user-space stack and the app's dispatch queue spend on each send and
/// each receive completion of a connection (`ConnectionQueue`). `nil` keeps the default.
public struct HostSpec: Sendable, Equatable {
    /// Service time of one send (a `send` call until its `.contentProcessed` completion), µs.
    public var sendUs: Double?
    /// Service time of one receive completion, µs.
    public var receiveUs: Double?
    /// Coefficient of variation of a job's service time (`host.spread`).
    public var spread: Double?
    /// Service time of one transport packet, µs (`host.packetUs`).
    public var packetUs: Double?
    /// What a UDP datagram costs beyond `packetUs`, µs (`host.datagramUs`).
    public var datagramUs: Double?
    /// Slow-down of a cold phone (`host.coldFactor`).
    public var coldFactor: Double?
    /// Warm-up time constant, ms (`host.warmUpMs`).
    public var warmUpMs: Double?
    /// Cool-down time constant, ms (`host.coolDownMs`).
    public var coolDownMs: Double?
    /// A datagram connection's receive buffer, bytes (`host.udpReceiveBufferBytes`).
    public var udpReceiveBufferBytes: Double?
    /// A datagram connection's receive buffer, datagrams (`host.udpReceiveBufferDatagrams`).
    public var udpReceiveBufferDatagrams: Int?
    /// A datagram connection's send buffer, bytes (`host.udpSendBufferBytes`).
    public var udpSendBufferBytes: Double?
    /// The interface queue discipline (scenario-wide `host` only).
    public var interfaceQueue: InterfaceQueue.Discipline?

    /// Where a round's connections do their work (scenario-wide `host` only).
    public var roundQueue: HostParameters.RoundQueue?

    /// No settings: the defaults.
    public init(sendUs: Double? = nil, receiveUs: Double? = nil) {
        self.sendUs = sendUs
        self.receiveUs = receiveUs
    }

    /// `other`'s settings where it has them, this one's elsewhere.
    public func overridden(by other: HostSpec?) -> HostSpec {
        var spec = HostSpec(sendUs: other?.sendUs ?? sendUs, receiveUs: other?.receiveUs ?? receiveUs)
        spec.spread = other?.spread ?? spread
        spec.coldFactor = other?.coldFactor ?? coldFactor
        spec.packetUs = other?.packetUs ?? packetUs
        spec.datagramUs = other?.datagramUs ?? datagramUs
        spec.warmUpMs = other?.warmUpMs ?? warmUpMs
        spec.coolDownMs = other?.coolDownMs ?? coolDownMs
        spec.udpReceiveBufferBytes = other?.udpReceiveBufferBytes ?? udpReceiveBufferBytes
        spec.udpSendBufferBytes = other?.udpSendBufferBytes ?? udpSendBufferBytes
        spec.udpReceiveBufferDatagrams = other?.udpReceiveBufferDatagrams ?? udpReceiveBufferDatagrams
        spec.interfaceQueue = interfaceQueue
        spec.roundQueue = roundQueue
        return spec
    }
}

extension ScenarioDecoder {
    /// Decodes a `host` object by its declarations (`HostParameters.section`); per node, the
    /// scenario-wide keys (`interfaceQueue`) are not allowed.
    func decodeHost(_ node: JSONNode, _ path: JSONPath, perNode: Bool = false) -> HostSpec? {
        decode(HostParameters.section, node, path, into: HostSpec(), perNode: perNode)
    }
}
