/// Every flow side's socket, as the host sees them: one socket type for the host (as smoltcp's
/// socket set), addressed by flow side. The endpoints live in one table per transport so each
/// keeps its concrete type (static dispatch, no existential, no copy of an endpoint per call);
/// this type is the one place that looks at which transport a socket has. Everything the host
/// does with a socket is written once against `FlowSocket` (`HostStack`, `HostReceive.swift`).
struct SocketSet: Sendable {
    /// A flow side's socket: its transport and its place in that transport's table.
    struct Handle: Sendable {
        let transport: TransportProtocol
        let index: Int
    }

    /// TCP endpoints, UDP sockets and QUIC endpoints, two per flow of that transport (client,
    /// server), in flow order.
    private var tcp: [TcpEndpoint] = []
    private var quic: [QuicEndpoint] = []
    private var udp: [UdpSocket] = []
    /// Per flow side (`FlowSide.index`): its socket.
    private var handles: [Handle] = []

    /// Adds flow `k`'s two sockets (client, then server): a listening TCP server, a QUIC pair, or
    /// two UDP sockets.
    mutating func addFlow(
        _ k: Int, transport: TransportProtocol, tcpConfig: TcpConfig, quicConfig: QuicConfig, mtuPayload: Int,
        probes: Int, sim: inout Simulation
    ) {
        for side in [FlowSide.client(k), .server(k)] {
            switch transport {
            case .tcp:
                handles.append(Handle(transport: .tcp, index: tcp.count))
                tcp.append(
                    TcpEndpoint(
                        flow: Int32(k), isClient: side.isClient, config: tcpConfig, mtuPayload: mtuPayload,
                        sim: &sim, side: UInt32(side.index)))
                if !side.isClient { tcp[tcp.count - 1].listen() }
            case .quic:
                handles.append(Handle(transport: .quic, index: quic.count))
                quic.append(
                    QuicEndpoint(
                        flow: Int32(k), isClient: side.isClient, config: quicConfig, udpPayload: mtuPayload - 8,
                        sim: &sim, side: UInt32(side.index)))
            case .udp:
                handles.append(Handle(transport: .udp, index: udp.count))
                udp.append(UdpSocket(flow: Int32(k), isClient: side.isClient, probes: probes))
            }
        }
    }

    /// Whether `side`'s writes are datagrams (UDP): handed to IP at once, never held back.
    @inline(__always) func isDatagram(_ side: FlowSide) -> Bool { handles[side.index].transport == .udp }

    // MARK: The one dispatch

    /// Applies `op` to `side`'s socket, whatever its transport, with the side's application and
    /// connection queue: the only `switch` on a socket's transport while a run goes on (the two
    /// others build the sockets and read their report at the end).
    @inline(__always)
    mutating func with<O: SocketOperation>(
        _ side: FlowSide, _ op: inout O, app: inout FlowApplication, queue: inout ConnectionQueue,
        sim: inout Simulation
    ) -> O.Result {
        let h = handles[side.index]
        switch h.transport {
        case .tcp: return op.apply(&tcp[h.index], app: &app, queue: &queue, sim: &sim)
        case .quic: return op.apply(&quic[h.index], app: &app, queue: &queue, sim: &sim)
        case .udp: return op.apply(&udp[h.index], app: &app, queue: &queue, sim: &sim)
        }
    }

    /// What flow `k`'s two ends report for its metrics.
    func summary(of k: Int) -> TransportSummary {
        let (c, s) = (handles[FlowSide.client(k).index], handles[FlowSide.server(k).index])
        switch c.transport {
        case .tcp:
            var r = TransportSummary(client: tcp[c.index], server: tcp[s.index])
            r.keepalives = tcp[c.index].keepalivesSent + tcp[s.index].keepalivesSent
            return r
        case .quic: return TransportSummary(client: quic[c.index], server: quic[s.index])
        case .udp: return TransportSummary()
        }
    }
}

/// Something the host does to one socket (with its application and connection queue), written
/// once for every transport (`SocketSet.with`): a value type whose `apply` is specialised per
/// endpoint type. The operations are in `HostSocketOperations.swift`.
protocol SocketOperation {
    associatedtype Result
    mutating func apply<S: FlowSocket>(
        _ socket: inout S, app: inout FlowApplication, queue: inout ConnectionQueue, sim: inout Simulation
    ) -> Result
}
