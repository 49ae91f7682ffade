/// What the host does to a socket, each written once for every transport (`SocketOperation`,
/// dispatched by `SocketSet.with`).
enum SocketOp {
    /// Opens the client's connection (TCP's SYN, QUIC's Initial; nothing for UDP). Whether the
    /// socket takes writes at once (UDP; QUIC with 0-RTT).
    struct Connect: SocketOperation {
        func apply<S: FlowSocket>(
            _ socket: inout S, app: inout FlowApplication, queue: inout ConnectionQueue, sim: inout Simulation
        ) -> Bool {
            socket.connect(sim: &sim)
            return socket.acceptsWrites
        }
    }

    /// A transport timer of the socket fired.
    struct Timer: SocketOperation {
        let kind: EventKind
        func apply<S: FlowSocket>(
            _ socket: inout S, app: inout FlowApplication, queue: inout ConnectionQueue, sim: inout Simulation
        ) {
            socket.timer(kind, sim: &sim)
        }
    }

    /// Swaps the socket's outbox with `scratch` (an empty array keeping its capacity): the host
    /// then owns what the socket wrote, in order, and the socket writes into the empty one.
    struct TakeOutbox: SocketOperation {
        var scratch: [Datagram]
        mutating func apply<S: FlowSocket>(
            _ socket: inout S, app: inout FlowApplication, queue: inout ConnectionQueue, sim: inout Simulation
        ) {
            swap(&socket.outbox, &scratch)
        }
    }

    /// The served sends go to the socket while its send buffer takes them
    /// (`HostStack.releaseWrites`).
    struct ReleaseWrites: SocketOperation {
        let isClient: Bool
        func apply<S: FlowSocket>(
            _ socket: inout S, app: inout FlowApplication, queue: inout ConnectionQueue, sim: inout Simulation
        ) {
            HostStack.releaseWrites(&queue, &app, &socket, isClient: isClient, now: sim.now, sim: &sim)
        }
    }

    /// The application writes one message.
    struct Write: SocketOperation {
        let message: Int
        let bytes: Int64
        func apply<S: FlowSocket>(
            _ socket: inout S, app: inout FlowApplication, queue: inout ConnectionQueue, sim: inout Simulation
        ) {
            socket.write(message: message, bytes: bytes, sim: &sim)
        }
    }

    /// A datagram reached the socket: what arrived for the application, and whether the
    /// connection became established with it.
    struct Deliver: SocketOperation {
        let datagram: Datagram
        func apply<S: FlowSocket>(
            _ socket: inout S, app: inout FlowApplication, queue: inout ConnectionQueue, sim: inout Simulation
        ) -> (arrival: Arrival?, opened: Bool) {
            let was = socket.isEstablished
            let arrival = socket.deliver(datagram, sim: &sim)
            return (arrival, !was && socket.isEstablished)
        }
    }

    /// A datagram reached a stream socket (TCP, QUIC), and what the host does with the socket
    /// before it sends, in one call: the socket takes the datagram (`Deliver`), the application
    /// reads what arrived (`Receive`), a client submits its next write (`pump`), the served
    /// sends go to the socket (`ReleaseWrites`), and the host takes the outbox (`TakeOutbox`).
    /// A client whose connection the datagram established stops after the delivery (`opened`):
    /// it opens first, so the host goes on step by step.
    struct StreamReceives: SocketOperation {
        let datagram: Datagram
        let isClient: Bool
        /// The outbox taken (an empty array keeping its capacity before).
        var scratch: [Datagram]
        /// Whether the client's connection became established with the datagram, and then what
        /// arrived (not yet read).
        var opened = false
        var arrival: Arrival?

        mutating func apply<S: FlowSocket>(
            _ socket: inout S, app: inout FlowApplication, queue: inout ConnectionQueue, sim: inout Simulation
        ) {
            let was = socket.isEstablished
            let arrival = socket.deliver(datagram, sim: &sim)
            if isClient {
                if !was && socket.isEstablished {
                    (opened, self.arrival) = (true, arrival)
                    return
                }
                if let arrival { app.clientReceived(arrival, &queue, &socket, now: sim.now) }
                app.submitNext(&queue, now: sim.now)
            } else if let arrival {
                app.serverReceived(arrival, &queue, &socket, now: sim.now)
            }
            HostStack.releaseWrites(&queue, &app, &socket, isClient: isClient, now: sim.now, sim: &sim)
            swap(&socket.outbox, &scratch)
        }
    }

    /// The side's application reads what arrived (`FlowApplication.clientReceived`,
    /// `.serverReceived`).
    struct Receive: SocketOperation {
        let arrival: Arrival
        let isClient: Bool
        func apply<S: FlowSocket>(
            _ socket: inout S, app: inout FlowApplication, queue: inout ConnectionQueue, sim: inout Simulation
        ) {
            if isClient {
                app.clientReceived(arrival, &queue, &socket, now: sim.now)
            } else {
                app.serverReceived(arrival, &queue, &socket, now: sim.now)
            }
        }
    }

    /// The client is done with the connection once every write is acknowledged, where its
    /// transport closes then (TCP: thesis and bulk runs); whether it closed.
    struct CloseWhenWritten: SocketOperation {
        func apply<S: FlowSocket>(
            _ socket: inout S, app: inout FlowApplication, queue: inout ConnectionQueue, sim: inout Simulation
        ) -> Bool {
            guard S.closesWhenWritten, app.finishedWriting else { return false }
            socket.close(sim: &sim)
            return true
        }
    }
}
