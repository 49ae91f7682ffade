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
    /// Slow-down of a cold phone (`host.coldFactor`).
    public var coldFactor: Double?
    /// Warm-up time constant, ms (`host.warmUpMs`).
    public var warmUpMs: Double?
    /// A datagram socket's receive buffer, bytes (`host.udpReceiveBufferBytes`).
    public var udpReceiveBufferBytes: Double?
    /// The interface queue discipline (scenario-wide `host` only).
    public var interfaceQueue: InterfaceQueue.Discipline?

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
        spec.warmUpMs = other?.warmUpMs ?? warmUpMs
        spec.udpReceiveBufferBytes = other?.udpReceiveBufferBytes ?? udpReceiveBufferBytes
        spec.interfaceQueue = interfaceQueue
        return spec
    }
}

extension ScenarioDecoder {
    /// Decodes a `host` object: `{"sendUs", "receiveUs", "packetUs"}`, each 0…1 000 000 µs, `"spread"`
    /// 0…10, `"coldFactor"` 1…100, `"warmUpMs"` 0.001…60 000, `"udpReceiveBufferBytes"` 0…8 388 608 (Darwin's socket buffer cap, `sb_max`), and for
    /// the scenario-wide one `"interfaceQueue"`: `"fqCodel"` or `"blocking"`.
    func decodeHost(_ node: JSONNode, _ path: JSONPath, perNode: Bool = false) -> HostSpec? {
        let expected =
            perNode
            ? "an object {\"sendUs\", \"receiveUs\", \"packetUs\", \"spread\", \"coldFactor\", \"warmUpMs\", \"udpReceiveBufferBytes\"}"
            : "an object {\"sendUs\", \"receiveUs\", \"packetUs\", \"spread\", \"coldFactor\", \"warmUpMs\", \"udpReceiveBufferBytes\", \"interfaceQueue\"}"
        guard let r = ObjectReader(node, path: path, sink: sink, expected: expected) else { return nil }
        defer { r.finish() }
        var spec = HostSpec()
        var ok = true
        if !perNode, let v = r.value("interfaceQueue") {
            spec.interfaceQueue = values.choice(
                v, path.appending("interfaceQueue"), "an interface queue discipline", of: InterfaceQueue.Discipline.self
            )
            if spec.interfaceQueue == nil { ok = false }
        }
        for key in ["sendUs", "receiveUs", "packetUs"] {
            guard let v = r.value(key) else { continue }
            let us = values.number(
                v, path.appending(key), "a per-message processing time in microseconds, 0...1000000",
                in: 0...1_000_000)
            if us == nil { ok = false }
            switch key {
            case "sendUs": spec.sendUs = us
            case "receiveUs": spec.receiveUs = us
            default: spec.packetUs = us
            }
        }
        if let v = r.value("spread") {
            spec.spread = values.number(
                v, path.appending("spread"), "a coefficient of variation of the per-message cost, 0...10", in: 0...10)
            if spec.spread == nil { ok = false }
        }
        if let v = r.value("coldFactor") {
            spec.coldFactor = values.number(
                v, path.appending("coldFactor"), "a cold phone's slow-down factor, 1...100", in: 1...100)
            if spec.coldFactor == nil { ok = false }
        }
        if let v = r.value("warmUpMs") {
            spec.warmUpMs = values.number(
                v, path.appending("warmUpMs"), "a warm-up time constant in milliseconds, 0.001...60000",
                in: 0.001...60_000)
            if spec.warmUpMs == nil { ok = false }
        }
        if let v = r.value("udpReceiveBufferBytes") {
            spec.udpReceiveBufferBytes = values.number(
                v, path.appending("udpReceiveBufferBytes"), "a receive buffer in bytes, 0...8388608",
                in: 0...8_388_608)
            if spec.udpReceiveBufferBytes == nil { ok = false }
        }
        return ok ? spec : nil
    }
}
