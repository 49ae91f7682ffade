/// The phone's own per-message processing cost (`host`, and per phone `nodes[i].host`): what
/// Network.framework's user-space stack and the app's dispatch queue spend on each send and
/// each receive completion of a connection (`ConnectionQueue`). `nil` keeps the default.
public struct HostSpec: Sendable, Equatable {
    /// Service time of one send (a `send` call until its `.contentProcessed` completion), µs.
    public var sendUs: Double?
    /// Service time of one receive completion, µs.
    public var receiveUs: Double?
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
        spec.interfaceQueue = interfaceQueue
        return spec
    }
}

extension ScenarioDecoder {
    /// Decodes a `host` object: `{"sendUs", "receiveUs"}`, each 0…1 000 000 µs, and for the
    /// scenario-wide one `"interfaceQueue"`: `"fqCodel"` or `"blocking"`.
    func decodeHost(_ node: JSONNode, _ path: JSONPath, perNode: Bool = false) -> HostSpec? {
        let expected =
            perNode
            ? "an object {\"sendUs\", \"receiveUs\"}" : "an object {\"sendUs\", \"receiveUs\", \"interfaceQueue\"}"
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
        for key in ["sendUs", "receiveUs"] {
            guard let v = r.value(key) else { continue }
            let us = values.number(
                v, path.appending(key), "a per-message processing time in microseconds, 0...1000000",
                in: 0...1_000_000)
            if us == nil { ok = false }
            if key == "sendUs" { spec.sendUs = us } else { spec.receiveUs = us }
        }
        return ok ? spec : nil
    }
}
