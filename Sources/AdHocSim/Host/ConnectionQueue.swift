import Foundation

/// One side of a connection as the phone's software processes it: Network.framework runs a
/// connection's send and receive completions on the app's serial dispatch queue and does
/// per-message work in its user-space stack (framing, copying, the completion hop), which is
/// why Apple's developer technical support recommends `NWConnection.batch` for many small
/// messages (Apple developer forums, thread 831985; measurement.md, "Mechanisms on a real
/// phone"). Modelled as one FIFO server per connection side: a send takes `sendCost`, a
/// receive completion `receiveCost`; a job starts when the server is free and when it is
/// submitted. A send is handed to the transport when its service ends (its `.contentProcessed`
/// completion fires then, if the send buffer takes it: DTS, thread 773326, says a send
/// completes at once while the buffer is below its high-water mark).
///
/// **The cost is a distribution** (`host.spread`): each job's service time is the mean cost
/// times an independent log-normal factor of mean 1 and coefficient of variation `spread`
/// (σ² = ln(1 + spread²), μ = −σ²/2), drawn from the side's own stream
/// (`"flow:K/host/client"`, `.../server`). A phone's per-message work varies with scheduling,
/// CPU frequency and the other work of the main queue; so does the app's jitter. Zero spread
/// gives the fixed cost.
///
/// **A cold phone is slower** (`host.coldFactor`, `host.warmUpMs`): a phone's cores run at
/// several performance states, raised by the OS's performance controller while work keeps them
/// busy and lowered when they idle (dynamic voltage and frequency scaling; Apple silicon's
/// states are driven by OpenBSD's `aplcpu.c`, Apple's own controller is not public). The queue
/// keeps a warmth w in [0, 1]: a job's mean service time is its warm cost × (1 + (coldFactor −
/// 1)·(1 − w)); busy time warms it, w ← 1 − (1 − w)·e^(−busy/τ), idle time cools it,
/// w ← w·e^(−idle/τ↓), with τ = `warmUpMs` and τ↓ = `coolDownMs`. A probe burst after seconds of
/// idleness meets a cold phone (the probes queue behind slow jobs: the app's jitter); a long
/// transfer runs warm (its data rate). **Cooling is slower than warming**: frequency governors
/// raise the clock as soon as work arrives and hold it for a while after (Linux's `ondemand`
/// governor keeps a busy CPU at its top speed longer with `sampling_down_factor`, commit
/// 3f78a9f7fcee, "helping the CPU stay at its top speed when truly busy"; Apple's controller
/// is not public), so a transfer one second after the probes starts still warm while a test
/// five seconds after the previous one starts cold. The three parameters are fitted (see the
/// defaults); `coldFactor` 1 turns it off, `coolDownMs` equal to `warmUpMs` makes it symmetric
/// (the model before).
///
/// **Packets cost too** (`host.packetUs`): Network.framework runs its protocol stack in user
/// space, in the connection's context (WWDC 2018 session 715, "Introducing Network.framework":
/// the user-space networking stack), so every transport packet the connection sends or
/// receives (a TCP segment, a QUIC packet, a UDP datagram; not its IP fragments) takes its own
/// service time on the queue. A received packet is processed before the app's reads of what it
/// carried; a sent packet leaves at once and its processing delays the queue's next job (a
/// simplification: the packet itself is not held back). Nagle's coalescing and QUIC's packing
/// therefore save the phone work that UDP's one datagram per message does not.
///
/// **The app reads a message in two completions** (measurement.md: a 4-byte length, then the
/// rest; PtPPrototype `ConnectionMetricsServer.swift`), so every received message costs two
/// receive completions, probes, echoes and transfer messages alike.
///
/// **A datagram connection's receive buffer** (`host.udpReceiveBufferBytes`,
/// `host.udpReceiveBufferDatagrams`): a received UDP datagram waits (payload plus its 28-byte
/// source address, `sockaddr_in6`) until the app's first read of it begins, and is dropped
/// when it does not fit, as Darwin's socket layer drops it (`udp_usrreq.c`: `sbappendaddr`
/// fails, `udps_fullsock`; transport.md, "Darwin buffers"). Two limits: bytes, at most
/// `sb_max` = 8 MiB as any Darwin socket buffer (`bsd/sys/socketvar.h`), and a number of
/// datagrams whatever their size (assumption: Network.framework's user-space stack receives
/// packets into a pool of fixed-size packet buffers, WWDC 2018 session 715, so small
/// datagrams fill it as fast as large ones; the count is fitted). A datagram leaves the buffer
/// when the app's first read of it begins (assumption: the whole datagram is taken at once).
/// A reader slower than the arrivals fills it, and later datagrams are lost: more of them the
/// longer the transfer (the development set: 23 % of 10 000 × 128 B, none at N ≤ 1000).
///
/// **A datagram connection's send buffer** (`host.udpSendBufferBytes`): Network.framework's
/// user-space stack takes a UDP send into its own buffer and fires `.contentProcessed` at once
/// while the buffer is below its high-water mark (DTS, thread 773326; WWDC 2018 session 715),
/// and hands datagrams to the interface as the interface takes them, holding them while the
/// interface's flow advisory pauses the flow (`InterfaceQueue`; assumption). A datagram that
/// does not fit is lost and its send completes at once: UDP gives the app no back-pressure,
/// as xnu's `udp_output` refuses a flow-controlled socket's sends with ENOBUFS "until the inp
/// is not flow controlled" (`bsd/netinet/udp_usrreq.c`; transport.md, "Darwin buffers"). A
/// sender faster than the air therefore loses what the buffer cannot hold: nothing in a short
/// transfer, most of a long one of large datagrams (the development set: none at N ≤ 1000 but
/// 9216 B, 69 % of 10 000 × 4096 B). 0 turns it off (the sender then waits for interface room,
/// the model before). The buffer counts UDP payload bytes.
///
/// Defaults (`host.sendUs` 23.3 µs, `host.receiveUs` 13.3 µs, `host.packetUs` 12.2 µs,
/// `host.spread` 0.61, `host.coldFactor` 15, `host.warmUpMs` 38 ms, `host.coolDownMs` 2 000 ms):
/// fitted to
/// MatthiasBart/evaluation_notebook (Field, Forest, Home) with `adhocsim calibrate` (the
/// docs/fidelity.md gives the command; Home has no place preset, so its tests are skipped);
/// no public figure of Network.framework's per-message cost on an iPhone exists. The UDP
/// send buffer (5 000 000 bytes) and the receive buffer's datagram count (3 200) are fitted
/// too, with a grid scored by `scripts/dev-compare.py` (docs/fidelity.md): xnu's socket
/// buffers (`udp_recvspace` = 187 × (1024 + 28) = 196 724 bytes) are the kernel's, and the
/// sizes Network.framework's user-space stack uses on a phone are not public.
/// Zero costs turn the model off (writes reach the transport at once).
public struct ConnectionQueue: Sendable {
    /// A send waiting for the server or for send-buffer room.
    public struct PendingWrite: Sendable, Equatable {
        /// When its service ends.
        public var readyAt: SimTime
        /// The application message (probes 0..<P, then the transfer's writes).
        public var message: Int
        /// Bytes.
        public var bytes: Int64
        /// Whether it is a transfer write whose completion the application awaits.
        public var awaited: Bool
    }

    /// Bytes a queued datagram takes in the receive buffer beyond its payload: its source
    /// address, a `sockaddr_in6` (28 bytes; the 28 of `udp_recvspace`'s formula).
    public static let datagramAddressBytes: Int64 = 28
    /// Receive completions per received message: a 4-byte length, then the rest (measurement.md).
    public static let readsPerMessage = 2

    /// Mean service time of one send.
    public let sendCost: SimTime
    /// Mean service time of one receive completion.
    public let receiveCost: SimTime
    /// Coefficient of variation of a job's service time (0: fixed).
    public let spread: Double
    /// Slow-down of a cold phone (1: none).
    public let coldFactor: Double
    /// Mean service time of one transport packet sent or received.
    public let packetCost: SimTime
    /// What a UDP datagram costs beyond `packetCost` (`host.datagramUs`).
    public let datagramCost: SimTime
    /// Whether the connection sends datagrams (UDP): its packets cost `datagramCost` more.
    public var carriesDatagrams = false
    /// Warm-up time constant, seconds.
    let warmUpSeconds: Double
    /// Cool-down time constant, seconds.
    let coolDownSeconds: Double
    /// The serial queue that runs this side's jobs: when it is free, how warm the phone is,
    /// and its service-time draws. A connection has its own unless it is one of a round's, whose
    /// connections share each phone's main queue (`HostStack.mainQueues`).
    public struct Processor: Sendable {
        /// When the queue finishes the last job submitted.
        public internal(set) var freeAt = SimTime.zero
        /// How warm the phone is, 0 (cold) … 1 (warm), as of `freeAt`.
        public internal(set) var warmth = 0.0
        /// The service-time stream.
        var stream: RandomStream

        /// Serves one job (`ConnectionQueue.serve`), in place.
        @inline(__always) mutating func serve(
            _ mean: SimTime, at t: SimTime, _ coldFactor: Double, _ warmUpSeconds: Double, _ coolDownSeconds: Double,
            _ sigma: Double, _ mu: Double
        ) -> SimTime {
            let start = Swift.max(t, freeAt)
            var cost = Double(mean.nanoseconds)
            if coldFactor != 1 {
                if start > freeAt { warmth *= exp(-(start - freeAt).inSeconds / coolDownSeconds) }
                cost *= 1 + (coldFactor - 1) * (1 - warmth)
            }
            if sigma > 0 && mean > .zero { cost *= exp(mu + sigma * stream.normal()) }
            let d = SimTime.nanoseconds(ConnectionQueue.nearest(cost))
            if coldFactor != 1 { warmth = 1 - (1 - warmth) * exp(-d.inSeconds / warmUpSeconds) }
            freeAt = start + d
            return freeAt
        }
    }
    /// `Int64(x.rounded())` (to nearest, ties away from zero) without a call into the math
    /// library: the truncation i = Int64(x) is exact, and so is x − i (the fraction of a double
    /// below 2⁵²; 0 above, where every double is an integer), so comparing it with ±½ decides
    /// the tie the same way. - Precondition: |x| < 2⁶³ (as for `Int64(x.rounded())`).
    @inline(__always) static func nearest(_ x: Double) -> Int64 {
        let i = Int64(x)
        let fraction = x - Double(i)
        return fraction >= 0.5 ? i + 1 : (fraction <= -0.5 ? i - 1 : i)
    }

    /// The queue that runs this side's jobs: with no `mainQueue`, all of them; with one, the
    /// stack's (sends and packets) on the connection's own context.
    public internal(set) var processor: Processor
    /// Whether the connection shares the app's main queue with a round's others
    /// (`HostStack.mainQueues`): its receive completions then run on `mainQueue`.
    public internal(set) var sharesMainQueue = false
    /// The shared main queue, held here only while an operation runs (unused unless
    /// `sharesMainQueue`; a plain value, so the hot path reads no optional).
    public internal(set) var mainQueue: Processor
    /// How warm the phone is, 0 (cold) … 1 (warm), as of `freeAt`.
    public var warmth: Double { processor.warmth }
    /// When the queue finishes the last job submitted.
    public var freeAt: SimTime { processor.freeAt }
    /// The log-normal factor's σ and μ (μ = −σ²/2, so its mean is 1).
    let sigma: Double, mu: Double
    /// The datagram connection's receive buffer, bytes.
    public let udpReceiveBuffer: Int64
    /// The datagram connection's receive buffer, datagrams.
    public let udpReceiveDatagrams: Int
    /// Bytes in the receive buffer (datagrams whose first read has not begun).
    public private(set) var bufferedBytes: Int64 = 0
    /// When each buffered datagram leaves, and what it takes.
    var buffered = FifoBuffer<BufferedDatagram>()
    /// Datagrams dropped because the receive buffer was full (`udps_fullsock`).
    public private(set) var receiveBufferDrops: Int64 = 0
    /// The datagram connection's send buffer, bytes (0: none, the sender waits for the interface).
    public let udpSendBuffer: Int64
    /// UDP payload bytes in the send buffer.
    public private(set) var sendBufferedBytes: Int64 = 0
    /// Datagrams the app sent that did not fit in the send buffer (lost).
    public private(set) var sendBufferDrops: Int64 = 0

    /// A datagram in the receive buffer.
    struct BufferedDatagram: Sendable, Equatable {
        var leavesAt: SimTime
        var bytes: Int64
    }
    /// Sends not yet handed to the transport, in order.
    var pending = FifoBuffer<PendingWrite>()
    /// When a wake-up event for this side is scheduled, if one is.
    var wakeAt: SimTime?

    /// A queue with exactly these costs and buffers.
    init(
        sendCost: SimTime, receiveCost: SimTime, packetCost: SimTime, datagramCost: SimTime, spread: Double,
        coldFactor: Double, warmUp: SimTime, coolDown: SimTime, udpReceiveBuffer: Int64, udpReceiveDatagrams: Int,
        udpSendBuffer: Int64, stream: RandomStream
    ) {
        self.sendCost = sendCost
        self.receiveCost = receiveCost
        self.spread = spread
        self.coldFactor = coldFactor
        self.packetCost = packetCost
        self.datagramCost = datagramCost
        warmUpSeconds = Swift.max(warmUp.inSeconds, 1e-9)
        coolDownSeconds = Swift.max(coolDown.inSeconds, 1e-9)
        let s2 = spread > 0 ? log(1 + spread * spread) : 0
        sigma = s2.squareRoot()
        mu = -s2 / 2
        self.udpReceiveBuffer = udpReceiveBuffer
        self.udpReceiveDatagrams = udpReceiveDatagrams
        self.udpSendBuffer = udpSendBuffer
        processor = Processor(stream: stream)
        mainQueue = Processor(stream: stream)
    }

    /// The queue `spec` describes (its units converted: µs and ms to `SimTime`, bytes to
    /// whole bytes), drawing from `stream`.
    public init(_ spec: HostSpec, stream: RandomStream) {
        self.init(
            sendCost: .seconds(spec.sendUs / 1e6), receiveCost: .seconds(spec.receiveUs / 1e6),
            packetCost: .seconds(spec.packetUs / 1e6), datagramCost: .seconds(spec.datagramUs / 1e6),
            spread: spec.spread, coldFactor: spec.coldFactor, warmUp: .milliseconds(spec.warmUpMs),
            coolDown: .milliseconds(spec.coolDownMs), udpReceiveBuffer: Int64(spec.udpReceiveBufferBytes),
            udpReceiveDatagrams: spec.udpReceiveBufferDatagrams, udpSendBuffer: Int64(spec.udpSendBufferBytes),
            stream: stream)
    }

    /// An idealised queue for hand-worked tests and comparisons, not the phone: the given
    /// costs, no spread and never cold unless asked, no per-packet cost, a receive buffer of
    /// `sb_max` with no datagram limit beyond 10⁶, and no send buffer.
    public static func ideal(
        sendCost: SimTime, receiveCost: SimTime, spread: Double = 0, coldFactor: Double = 1,
        warmUp: SimTime = .milliseconds(1), coolDown: SimTime? = nil, udpReceiveBuffer: Int64 = 8_388_608,
        udpReceiveDatagrams: Int = 1_000_000, stream: RandomStream = RandomStream(seed: 0, name: "host")
    ) -> ConnectionQueue {
        ConnectionQueue(
            sendCost: sendCost, receiveCost: receiveCost, packetCost: .zero, datagramCost: .zero, spread: spread,
            coldFactor: coldFactor, warmUp: warmUp, coolDown: coolDown ?? warmUp, udpReceiveBuffer: udpReceiveBuffer,
            udpReceiveDatagrams: udpReceiveDatagrams, udpSendBuffer: 0, stream: stream)
    }

    /// Serves one job of warm mean cost `mean` submitted at `t`: it starts when the server is
    /// free (cooling the phone over any idle time before), takes the warm cost times the cold
    /// slow-down times the log-normal factor (no draw when the spread is 0), and warms the phone
    /// over its busy time. Returns when it ends.
    @inline(__always) mutating func serve(_ mean: SimTime, at t: SimTime) -> SimTime {
        processor.serve(mean, at: t, coldFactor, warmUpSeconds, coolDownSeconds, sigma, mu)
    }

    /// A transport packet of the connection was sent or arrived at `t`: its processing takes
    /// the queue's time (nothing when the packet cost is 0).
    @inline(__always) public mutating func processPacket(at t: SimTime) {
        let cost = carriesDatagrams ? packetCost + datagramCost : packetCost
        if cost > .zero { _ = serve(cost, at: t) }
    }

    /// Submits a send at `t`: it is served after every earlier job.
    public mutating func submit(message: Int, bytes: Int64, awaited: Bool, at t: SimTime) {
        let ready = serve(sendCost, at: t)
        pending.append(PendingWrite(readyAt: ready, message: message, bytes: bytes, awaited: awaited))
    }

    /// A message arrived at `t`: when the last of its `reads` receive completions ends.
    public mutating func receiveCompletion(
        arrivedAt t: SimTime, reads: Int = ConnectionQueue.readsPerMessage
    ) -> SimTime {
        guard sharesMainQueue else {
            for _ in 0..<reads { _ = serve(receiveCost, at: t) }
            return Swift.max(freeAt, t)
        }
        // On the shared main queue, after the stack processed the packet that carried it.
        let after = Swift.max(t, processor.freeAt)
        for _ in 0..<reads {
            _ = mainQueue.serve(receiveCost, at: after, coldFactor, warmUpSeconds, coolDownSeconds, sigma, mu)
        }
        return Swift.max(mainQueue.freeAt, after)
    }

    /// When the app's next receive completion can begin: its main queue's, if it shares one.
    var readsFreeAt: SimTime { sharesMainQueue ? mainQueue.freeAt : freeAt }

    /// A datagram of `bytes` payload arrived at `t`: `nil` when the receive buffer has no room
    /// for it (dropped), else when its last receive completion ends. Datagrams whose first read
    /// began by `t` have left the buffer.
    public mutating func receiveDatagram(
        bytes: Int64, arrivedAt t: SimTime, reads: Int = ConnectionQueue.readsPerMessage
    ) -> SimTime? {
        while let b = buffered.first, b.leavesAt <= t {
            bufferedBytes -= b.bytes
            buffered.removeFirst()
        }
        let size = bytes + ConnectionQueue.datagramAddressBytes
        guard bufferedBytes + size <= udpReceiveBuffer, buffered.count < udpReceiveDatagrams else {
            receiveBufferDrops += 1
            return nil
        }
        let readStart = Swift.max(t, readsFreeAt)
        if readStart > t {
            bufferedBytes += size
            buffered.append(BufferedDatagram(leavesAt: readStart, bytes: size))
        }
        return receiveCompletion(arrivedAt: t, reads: reads)
    }

    /// A datagram of `bytes` UDP payload enters the send buffer if it fits: whether it did
    /// (else it is counted lost).
    public mutating func bufferDatagram(bytes: Int64) -> Bool {
        guard sendBufferedBytes + bytes <= udpSendBuffer else {
            sendBufferDrops += 1
            return false
        }
        sendBufferedBytes += bytes
        return true
    }

    /// A datagram of `bytes` UDP payload left the send buffer for the interface.
    public mutating func datagramLeftSendBuffer(bytes: Int64) { sendBufferedBytes -= bytes }

    /// The first send not yet handed over.
    public var first: PendingWrite? { pending.first }

    /// Removes the first send.
    public mutating func removeFirst() { pending.removeFirst() }
}
