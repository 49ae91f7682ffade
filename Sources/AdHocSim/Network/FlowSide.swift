/// One end of a flow: the client (which connects and writes) or the server (which echoes and
/// sinks). Per-side state (IP counters, sockets, send backlogs, timer targets) is indexed by
/// `index`, `2·flow + (client ? 0 : 1)`: the one place that arithmetic lives.
@frozen
public struct FlowSide: Sendable, Equatable {
    /// The flow's index.
    public var flow: Int
    /// The client end (else the server end).
    public var isClient: Bool

    /// The side `isClient` of `flow`.
    @inlinable public init(flow: Int, isClient: Bool) {
        self.flow = flow
        self.isClient = isClient
    }

    /// The side whose dense index is `index`.
    @inlinable public init(index: Int) {
        flow = index >> 1
        isClient = index & 1 == 0
    }

    /// The client side of `flow`.
    @inlinable public static func client(_ flow: Int) -> FlowSide { FlowSide(flow: flow, isClient: true) }
    /// The server side of `flow`.
    @inlinable public static func server(_ flow: Int) -> FlowSide { FlowSide(flow: flow, isClient: false) }

    /// The dense index of this side: `2·flow + (client ? 0 : 1)`.
    @inlinable public var index: Int { flow << 1 | (isClient ? 0 : 1) }
    /// The other end of the same flow.
    @inlinable public var peer: FlowSide { FlowSide(flow: flow, isClient: !isClient) }
    /// The side that sent `d`.
    @inlinable public static func sender(of d: Datagram) -> FlowSide {
        FlowSide(flow: Int(d.flow), isClient: d.fromClient)
    }
}
