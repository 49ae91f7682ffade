/// One end of a flow as its application uses it, whatever the transport: the transport-neutral
/// socket the thesis test, bulk and CBR applications are written against once
/// (`FlowApplication`). As Network.framework's `NWConnection`: the application writes messages
/// and is told what arrived; it never sees segments, packets or streams.
///
/// Conforming: `TcpEndpoint` (one byte stream), `QuicEndpoint` (one stream, or a stream per
/// write) and `UdpSocket` (a datagram per write).
public protocol FlowSocket {
    /// Whether each write is one datagram (counted as such in loss and delivery metrics).
    static var isDatagram: Bool { get }
    /// Whether the application may write now (connected, or early data allowed).
    var acceptsWrites: Bool { get }
    /// Whether a write of `bytes` fits now (the send buffer has room for all of it).
    func hasRoom(for bytes: Int64) -> Bool
    /// Writes message `index` (probes are 0..<P, the transfer's writes follow) of `bytes`.
    mutating func write(message index: Int, bytes: Int64, sim: inout Simulation)
    /// The application has read or written all of message `index` (a stream of its own can be
    /// closed).
    mutating func finish(message index: Int)
    /// The application is done with the connection.
    mutating func close(sim: inout Simulation)
    /// Opens the connection from the client (nothing for a connectionless socket).
    mutating func connect(sim: inout Simulation)
    /// One of the transport's timers fired (`EventBlock.transport`).
    mutating func timer(_ kind: EventKind, sim: inout Simulation)
    /// Datagrams written and not yet taken by the host.
    var outbox: [Datagram] { get set }
    /// Whether the connection is established (always, for a connectionless socket).
    var isEstablished: Bool { get }
    /// A datagram of this connection reached this end: what arrived for the application, if
    /// anything.
    mutating func deliver(_ d: Datagram, sim: inout Simulation) -> Arrival?
    /// Whether the client closes the connection once every write is acknowledged (TCP, as the
    /// thesis app and a bulk sender do) rather than leaving it open until the run ends.
    static var closesWhenWritten: Bool { get }
}

/// What arrived for an application, in the transport-neutral terms of `FlowSocket`.
public enum Arrival: Sendable, Equatable {
    /// A byte stream (TCP, QUIC on one stream): every byte below `upTo` has arrived in order.
    case stream(upTo: Int64)
    /// Message `index` (a QUIC stream per write, a UDP datagram) grew from `before` to `upTo`
    /// bytes in order.
    case message(index: Int, before: Int64, upTo: Int64)
}

extension TcpEndpoint: FlowSocket {
    /// TCP is a byte stream.
    public static var isDatagram: Bool { false }
    /// Writes are accepted once the connection is established.
    public var acceptsWrites: Bool { state == .established }
    /// The send buffer has room for all of it.
    public func hasRoom(for bytes: Int64) -> Bool { sendBufferSpace >= bytes }
    /// Appends `bytes` to the stream (message boundaries are the application's business).
    public mutating func write(message index: Int, bytes: Int64, sim: inout Simulation) { write(bytes, sim: &sim) }
    /// Nothing to do: one stream carries every message.
    public mutating func finish(message index: Int) {}
    /// The segment is processed; every byte below `rcvNxt` has arrived in order.
    public mutating func deliver(_ d: Datagram, sim: inout Simulation) -> Arrival? {
        receive(d, sim: &sim)
        return .stream(upTo: rcvNxt)
    }
    /// The thesis app and a bulk sender close once every byte is acknowledged.
    public static var closesWhenWritten: Bool { true }
}

extension QuicEndpoint: FlowSocket {
    /// QUIC carries streams.
    public static var isDatagram: Bool { false }
    /// The send buffer has room for all of it.
    public func hasRoom(for bytes: Int64) -> Bool { sendBufferSpace >= bytes }
    /// Message `index` goes on stream 4·index (client-initiated bidirectional streams, RFC 9000
    /// §2.1) when every write has a stream of its own, else at the next offset of stream 0.
    public mutating func write(message index: Int, bytes: Int64, sim: inout Simulation) {
        if config.streamPerWrite {
            write(stream: 4 * Int64(index), offset: 0, bytes: bytes, sim: &sim)
        } else {
            write(stream: 0, offset: streamZeroOffset, bytes: bytes, sim: &sim)
            streamZeroOffset += bytes
        }
    }
    /// Forgets the receive state of message `index`'s stream (stream-per-write mode).
    public mutating func finish(message index: Int) {
        if config.streamPerWrite { closeStream(4 * Int64(index)) }
    }
    /// The thesis app leaves its QUIC connection open after the test (it ends with the run).
    public mutating func close(sim: inout Simulation) {}
    /// The packet is processed; stream data it carried is reassembled: message `stream / 4` when
    /// every write has a stream of its own (the server reports how much of it had arrived
    /// before), else stream 0's contiguous bytes.
    public mutating func deliver(_ d: Datagram, sim: inout Simulation) -> Arrival? {
        guard let (stream, offset, length) = receive(d, sim: &sim) else { return nil }
        let before = isClient ? 0 : (streams[stream]?.contiguous ?? 0)
        let upTo = deliverStream(stream, offset: offset, length: length)
        return config.streamPerWrite
            ? .message(index: Int(stream / 4), before: before, upTo: upTo) : .stream(upTo: upTo)
    }
    /// The connection stays open until the run ends.
    public static var closesWhenWritten: Bool { false }
}

/// A UDP socket of a flow side: each write becomes one datagram in `outbox`, which the host
/// takes at once into the connection's send buffer (`ConnectionQueue`, "send buffer": what does
/// not fit is lost) or, with none, hands to IP once the interface queue has room. Probe and echo datagrams carry their probe number and a mark
/// in their 8-byte application header (`UdpMarks`).
public struct UdpSocket: FlowSocket, Sendable {
    /// The flow.
    public let flow: Int32
    /// The client end (writes probes and data) or the server end (writes echoes).
    public let isClient: Bool
    /// Probes of the thesis test: the client's messages below this number are probes.
    public let probes: Int
    /// Datagrams written and not yet handed to IP.
    public var outbox: [Datagram] = []

    /// A socket of side `isClient` of `flow` whose first `probes` messages are probes.
    public init(flow: Int32, isClient: Bool, probes: Int) {
        self.flow = flow
        self.isClient = isClient
        self.probes = probes
    }

    /// Every write is a datagram.
    public static var isDatagram: Bool { true }
    /// UDP has no connection.
    public var acceptsWrites: Bool { true }
    /// Always: the host checks the datagram limit, the send buffer and interface room.
    public func hasRoom(for bytes: Int64) -> Bool { true }
    /// One datagram: 8-byte UDP header plus `bytes`.
    public mutating func write(message index: Int, bytes: Int64, sim: inout Simulation) {
        var d = Datagram(flow: flow, fromClient: isClient, kind: .udp)
        d.header = 8
        d.payload = Int32(bytes)
        if !isClient {
            d.message = Int32(index)
            d.udpMark = UdpMarks.echo
        } else if index < probes {
            d.message = Int32(index)
            d.udpMark = UdpMarks.probe
        }
        outbox.append(d)
    }
    /// Nothing to do: datagrams keep no state.
    public mutating func finish(message index: Int) {}
    /// Nothing to do: UDP has no connection.
    public mutating func close(sim: inout Simulation) {}
    /// Nothing to do: UDP has no connection.
    public mutating func connect(sim: inout Simulation) {}
    /// UDP has no timers.
    public mutating func timer(_ kind: EventKind, sim: inout Simulation) { preconditionFailure("UDP has no timers") }
    /// Always: UDP has no connection.
    public var isEstablished: Bool { true }
    /// What the datagram means to the application (`arrival(of:)`).
    public mutating func deliver(_ d: Datagram, sim: inout Simulation) -> Arrival? { arrival(of: d) }
    /// Nothing to close.
    public static var closesWhenWritten: Bool { false }

    /// What a datagram that reached this side means to the application: a probe or an echo
    /// (by its mark and number), or transfer data (a message past the probes).
    public func arrival(of d: Datagram) -> Arrival? {
        switch d.udpMark {
        case UdpMarks.probe where !isClient, UdpMarks.echo where isClient:
            return .message(index: Int(d.message), before: 0, upTo: Int64(d.payload))
        case 0 where !isClient:
            return .message(index: probes, before: 0, upTo: Int64(d.payload))
        default:
            return nil
        }
    }
}

/// Marks a UDP datagram of the thesis test carries in its application header (`Datagram.udpMark`),
/// so the server knows to echo it and the client knows it is an echo.
enum UdpMarks {
    /// A probe from the client: echo it.
    static let probe: UInt8 = 1
    /// The server's echo of a probe.
    static let echo: UInt8 = 2
}
