extension EventKind {
    /// A QUIC endpoint's loss-detection timer (loss time or PTO; target: 2·flow + side).
    public static let quicLossDetection = EventKind(rawValue: 310)
    /// A QUIC endpoint's ACK-delay timer.
    public static let quicAckDelay = EventKind(rawValue: 311)
}

/// QUIC packet types (RFC 9000 §17): the long-header types a handshake uses and the 1-RTT
/// short-header packet. The raw value is what `Datagram.quicPacketType` keeps in the datagram's control byte.
public enum QuicPacketType: UInt8, Sendable {
    /// 1-RTT, short header (§17.3).
    case oneRtt = 0
    /// Initial, long header (§17.2.2): the ClientHello and the server's first CRYPTO data.
    case initial = 1
    /// Handshake, long header (§17.2.4): the rest of the TLS handshake.
    case handshake = 2
    /// 0-RTT, long header (§17.2.3): early stream data.
    case zeroRtt = 3

    /// Whether the packet has a long header.
    public var hasLongHeader: Bool { self != .oneRtt }
    /// The long header's two-bit type field (§17.2, Table 5): Initial 0, 0-RTT 1, Handshake 2.
    public var longHeaderTypeBits: UInt8 {
        switch self {
        case .initial: return 0
        case .zeroRtt: return 1
        case .handshake, .oneRtt: return 2
        }
    }
    /// Whether it carries CRYPTO frames (Initial and Handshake) rather than stream data.
    public var carriesCrypto: Bool { self == .initial || self == .handshake }
}

extension Datagram {
    /// The QUIC packet type of a QUIC datagram.
    public var quicPacketType: QuicPacketType {
        get {
            assert(kind == .quic, "a QUIC packet type of a \(kind) datagram")
            return QuicPacketType(rawValue: control) ?? .oneRtt
        }
        set {
            assert(kind == .quic, "a QUIC packet type of a \(kind) datagram")
            control = newValue.rawValue
        }
    }
}

/// QUIC settings (transport.md unless said otherwise).
public struct QuicConfig: Sendable, Equatable {
    /// Certificate chain size in the server's flight, bytes (assumption: one 1500-byte
    /// certificate, a self-signed peer-to-peer identity).
    public var certificateBytes = 1500
    /// One stream per application write (`true`) or one stream for all (`false`, default:
    /// an NWConnection over QUIC carries one bidirectional stream; assumption).
    public var streamPerWrite = false
    /// max_ack_delay: 25 ms (RFC 9000 §18.2 default).
    public var maxAckDelay = SimTime.milliseconds(25)
    /// 0-RTT on resumption (RFC 9001 §4.6): the client sends stream data in 0-RTT packets right
    /// behind its Initial, before the handshake completes (off by default: a first connection
    /// between two phones has no ticket to resume).
    public var zeroRtt = false
    /// Pack queued stream data into one packet (RFC 9000 §13: a sender packs frames into as few
    /// packets as it can; §12.4: a packet carries several frames): contiguous data queued on
    /// one stream leaves as one STREAM frame up to the packet size, so small writes queued
    /// behind the congestion window or one another share packets. `false`: one write per packet.
    /// Only data on one stream is packed (a packet here carries one STREAM frame), so with
    /// `streamPerWrite` nothing is packed.
    public var coalesce = true
    /// Send buffer, bytes (as TCP's).
    public var sendBuffer: Int64 = 2 << 20
    /// Short header: 1 byte + 8-byte connection ID + 4-byte packet number (RFC 9000 §17.3;
    /// sizes are assumptions within the allowed ranges); long header of Initial/Handshake
    /// packets: about 30 bytes with an 8-byte connection ID each way and a 2-byte length.
    public var shortHeaderBytes: Int32 = 13
    /// See `shortHeaderBytes`.
    public var longHeaderBytes: Int32 = 30
    /// AEAD tag (RFC 9001 §5.3: AEAD_AES_128_GCM, 16 bytes).
    public var aeadTagBytes: Int32 = 16
    /// STREAM or CRYPTO frame header: type, stream ID, offset, length varints (assumption).
    public var frameHeaderBytes: Int32 = 8
    /// ACK frame with one range (assumption).
    public var ackFrameBytes: Int32 = 6
}

/// One end of a QUIC-like connection (RFC 9000, 9001, 9002): a 1-RTT handshake with TLS 1.3
/// flight sizes and the server's anti-amplification limit, STREAM data in short-header
/// packets (queued contiguous data of a stream packed into one frame, `QuicConfig.coalesce`),
/// ACKs every second
/// ack-eliciting packet or after max_ack_delay, RFC 9002 loss detection and NewReno congestion
/// control.
///
/// Simplifications (documented): one packet-number space for all packets; ACK frames carry the
/// largest acknowledged and the first range only (earlier ranges were reported by earlier
/// ACKs); no flow-control limits; no ack-delay field (RTT samples include the peer's delay).
public struct QuicEndpoint: Sendable {
    /// A connection's states (RFC 9000 §10 and §17.2's handshake, the subset modelled here):
    /// `idle` before the client's Initial (a server waits here), `handshaking` until the
    /// handshake completes (RFC 9001 §4.1.1: the client on the server's Finished, the server
    /// on the client's), `established`, and `closed` once the idle timeout has discarded the
    /// connection (RFC 9000 §10.1: "the connection is silently closed and its state is
    /// discarded"; a closed endpoint drops every packet and runs no timer).
    public enum State: Sendable, Equatable { case idle, handshaking, established, closed }

    struct Sent: Sendable {
        var pn: Int64
        var time: SimTime
        var bytes: Int64
        var ackEliciting: Bool
        var stream: Int64
        var offset: Int64
        var length: Int64
        var acked = false
        var lost = false
    }

    struct Chunk: Sendable {
        var stream: Int64
        var offset: Int64
        var length: Int64
    }

    /// Settings.
    public let config: QuicConfig
    let flow: Int32
    let isClient: Bool
    /// The largest UDP payload: the path MTU less IP and UDP headers (at least 1200).
    public let maxDatagram: Int64
    /// The state.
    public private(set) var state: State = .idle

    // Handshake (CRYPTO stream = −1).
    var cryptoToSend: Int64 = 0
    var cryptoExpected: Int64 = 0
    var cryptoReceived: Int64 = 0
    var bytesReceived: Int64 = 0
    var bytesSentUnvalidated: Int64 = 0
    var addressValidated: Bool
    /// When the handshake completed here.
    public private(set) var establishedAt: SimTime?

    // Sending.
    var nextPn: Int64 = 0
    /// Sent packets in packet-number order (`sent[k].pn == sent[0].pn + k`); entries before
    /// `sentHead` are all acknowledged or lost, so per-ACK work touches only the newly
    /// acknowledged packets and the unresolved ones below the largest acknowledged.
    var sent: [Sent] = []
    var sentHead = 0
    var lostCount = 0
    /// New stream data waiting to be sent; retransmissions go first.
    var pending = FifoBuffer<Chunk>()
    var retransmitQueue: [Chunk] = []
    /// Stream bytes written, per stream end (single-stream mode: stream 0).
    public private(set) var written: Int64 = 0
    /// Single-stream mode: the offset of the application's next write on stream 0.
    var streamZeroOffset: Int64 = 0
    var unackedStreamBytes: Int64 = 0
    /// Congestion window and slow-start threshold (RFC 9002 §7), integral bytes.
    var window: CongestionWindow
    /// The congestion controller: NewReno as RFC 9002 §7.3 gives it.
    var controller = QuicNewReno()
    /// Congestion window, bytes.
    public private(set) var cwnd: Int64 {
        get { Int64(window.cwnd) }
        set { window.cwnd = Double(newValue) }
    }
    /// Bytes in flight (RFC 9002 §7).
    public private(set) var bytesInFlight: Int64 = 0
    /// The start of the current recovery period (§7.3.2).
    var recoveryStart: SimTime?
    // RTT (RFC 9002 §5).
    var latestRtt = 0.0
    var smoothedRtt = 0.333  // kInitialRtt
    var rttVar = 0.1665
    var minRtt = Double.infinity
    var hasRttSample = false
    var ptoCount = 0
    var largestAcked: Int64 = -1
    var lastAckElicitingSent = SimTime.zero
    let lossTimer: TimerID
    let ackTimer: TimerID
    /// Packets retransmitted as lost (their data re-sent).
    public private(set) var retransmissions: UInt64 = 0

    // Receiving.
    var receivedRanges: [(start: Int64, end: Int64)] = []
    var ackElicitingUnacked = 0
    /// Received stream data: contiguous end and out-of-order ranges per stream.
    var streams = ReceivedStreams()
    /// Datagrams to send.
    public var outbox: [Datagram] = []

    /// Why the connection was given up, if it was.
    public private(set) var abortReason: String?
    /// Consecutive PTOs after which the connection is abandoned: 10 (assumption; with doubling
    /// this outlasts the 30 s idle timeouts common in practice).
    public static let maxProbeTimeouts = 10

    /// RFC 9002 constants.
    public static let packetThreshold: Int64 = 3
    public static let timeThreshold = 9.0 / 8.0
    public static let granularity = 0.001

    /// An endpoint. `udpPayload` = MTU − IP header − 8.
    public init(flow: Int32, isClient: Bool, config: QuicConfig, udpPayload: Int, sim: inout Simulation, side: UInt32) {
        self.flow = flow
        self.isClient = isClient
        self.config = config
        maxDatagram = Int64(Swift.max(1200, udpPayload))
        window = CongestionWindow(
            cwnd: Double(QuicEndpoint.initialWindow(maxDatagram: maxDatagram)), mss: Double(maxDatagram))
        addressValidated = isClient
        lossTimer = sim.makeTimer(kind: .quicLossDetection, target: side)
        ackTimer = sim.makeTimer(kind: .quicAckDelay, target: side)
    }

    /// Initial window (RFC 9002 §7.2): min(10·max_datagram_size, max(14720, 2·max_datagram_size)).
    public static func initialWindow(maxDatagram: Int64) -> Int64 {
        Swift.min(10 * maxDatagram, Swift.max(14_720, 2 * maxDatagram))
    }
    /// Minimum window (RFC 9002 §7.2): 2·max_datagram_size.
    public var minimumWindow: Int64 { 2 * maxDatagram }

    /// TLS 1.3 flight sizes (assumptions, typical values): ClientHello 300 bytes (padded into a
    /// 1200-byte datagram, RFC 9000 §14.1); server: ServerHello 90, EncryptedExtensions 80,
    /// Certificate `certificateBytes`, CertificateVerify 264, Finished 36; client Finished 36.
    public var serverFlightBytes: Int64 { 90 + 80 + Int64(config.certificateBytes) + 264 + Self.finishedBytes }

    /// A TLS 1.3 Finished message: 36 bytes (a 4-byte handshake header and a 32-byte
    /// SHA-256 verify_data, RFC 8446 §4.4.4).
    static let finishedBytes: Int64 = 36

    /// Whether the connection may go from `from` to `to`: idle → handshaking (the client's
    /// open, the server's first Initial), handshaking → established, and any open state →
    /// closed (the idle timeout, RFC 9000 §10.1). No state is left once closed.
    static func allowed(from: State, to: State) -> Bool {
        switch (from, to) {
        case (.idle, .handshaking), (.handshaking, .established), (.idle, .closed), (.handshaking, .closed),
            (.established, .closed):
            return true
        default:
            return false
        }
    }

    /// Every state change goes through here, with the actions of entering the new state:
    /// ESTABLISHED records when; CLOSED stops the acknowledgement and loss timers.
    mutating func transition(to next: State, sim: inout Simulation) {
        precondition(QuicEndpoint.allowed(from: state, to: next), "QUIC: no transition \(state) → \(next)")
        state = next
        switch next {
        case .established:
            establishedAt = sim.now
        case .closed:
            sim.cancel(ackTimer)
            sim.cancel(lossTimer)
        case .idle, .handshaking:
            break
        }
    }

    /// Sends this side's handshake Finished (the client's, or its retransmission).
    mutating func sendFinished(sim: inout Simulation) {
        let fin = packet(kind: .handshake, stream: -1, offset: 0, length: Self.finishedBytes, sim: &sim)
        send(fin, ackEliciting: true, stream: -1, offset: 0, length: Self.finishedBytes, sim: &sim)
    }

    // MARK: Open

    /// Client: send the Initial (RFC 9000 §7).
    public mutating func connect(sim: inout Simulation) {
        transition(to: .handshaking, sim: &sim)
        cryptoExpected = serverFlightBytes
        sendClientInitial(sim: &sim)
    }

    /// The client's Initial: a 300-byte ClientHello padded so the UDP payload is 1200 bytes.
    mutating func sendClientInitial(sim: inout Simulation) {
        var d = packet(kind: .initial, stream: -1, offset: 0, length: 300, sim: &sim)
        d.header = 8 + 1200 - 300
        send(d, ackEliciting: true, stream: -1, offset: 0, length: 300, sim: &sim)
    }

    mutating func packet(
        kind: QuicPacketType, stream: Int64, offset: Int64, length: Int64, sim: inout Simulation
    ) -> Datagram {
        var d = Datagram(flow: flow, fromClient: isClient, kind: .quic)
        d.quicPacketType = kind
        d.message = Int32(truncatingIfNeeded: stream)
        d.seq = offset
        d.payload = Int32(length)
        d.packetNumber = nextPn
        let headerBytes = kind.hasLongHeader ? config.longHeaderBytes : config.shortHeaderBytes
        d.header = 8 + headerBytes + config.aeadTagBytes + (length > 0 ? config.frameHeaderBytes : 0)
        if let last = receivedRanges.last {
            d.largestAcked = last.end
            d.ackFirstRange = last.end - last.start
            d.header += config.ackFrameBytes
            ackElicitingUnacked = 0
            sim.cancel(ackTimer)
        }
        return d
    }

    mutating func send(
        _ d: Datagram, ackEliciting: Bool, stream: Int64, offset: Int64, length: Int64, sim: inout Simulation
    ) {
        let bytes = Int64(d.transportBytes) - 8
        sent.append(
            Sent(
                pn: nextPn, time: sim.now, bytes: bytes, ackEliciting: ackEliciting, stream: stream, offset: offset,
                length: length))
        nextPn += 1
        if ackEliciting {
            bytesInFlight += bytes
            lastAckElicitingSent = sim.now
        }
        if !addressValidated { bytesSentUnvalidated += bytes }
        outbox.append(d)
        setLossDetectionTimer(sim: &sim)
    }

    // MARK: Application

    /// Room in the send buffer.
    public var sendBufferSpace: Int64 { config.sendBuffer - unackedStreamBytes }

    /// Whether the application may write now: once established, or right away with 0-RTT.
    public var acceptsWrites: Bool { state == .established || (isClient && config.zeroRtt && state == .handshaking) }

    /// Writes `bytes` on `stream` at `offset` (the caller tracks stream offsets).
    public mutating func write(stream: Int64, offset: Int64, bytes: Int64, sim: inout Simulation) {
        // Each write is queued as its own chunk; `trySend` packs contiguous chunks (coalesce).
        pending.append(Chunk(stream: stream, offset: offset, length: bytes))
        unackedStreamBytes += bytes
        written += bytes
        trySend(sim: &sim)
    }

    /// The next chunk to send: retransmissions first, then new data.
    var nextChunk: Chunk? {
        if let r = retransmitQueue.first { return r }
        return pending.first
    }

    mutating func consume(_ len: Int64) {
        if !retransmitQueue.isEmpty {
            if retransmitQueue[0].length == len {
                retransmitQueue.removeFirst()
            } else {
                retransmitQueue[0].offset += len
                retransmitQueue[0].length -= len
            }
            return
        }
        var left = len
        while left > 0 {
            if pending[0].length <= left {
                left -= pending[0].length
                pending.removeFirst()
            } else {
                pending[0].offset += left
                pending[0].length -= left
                left = 0
            }
        }
    }

    /// Sends stream data as the congestion window allows, one frame per packet.
    mutating func trySend(sim: inout Simulation) {
        let early = isClient && config.zeroRtt && state == .handshaking
        // A server may send 1-RTT data once its handshake flight is out ("0.5-RTT" data,
        // RFC 9001 §4.1.1), e.g. the echo of a 0-RTT probe.
        let halfRtt = !isClient && state == .handshaking && cryptoToSend > 0 && cryptoSent >= cryptoToSend
        guard state == .established || early || halfRtt else { return }
        let kind: QuicPacketType = early ? .zeroRtt : .oneRtt
        let header = early ? config.longHeaderBytes : config.shortHeaderBytes
        let overhead = Int64(header + config.aeadTagBytes + config.frameHeaderBytes + config.ackFrameBytes)
        while let chunk = nextChunk {
            let room = maxDatagram - overhead
            var len = Swift.min(chunk.length, room)
            if config.coalesce && retransmitQueue.isEmpty && len == chunk.length {
                // Contiguous queued writes on the same stream join this frame, up to the packet.
                var k = 1
                var end = chunk.offset + chunk.length
                while len < room, k < pending.count, pending[k].stream == chunk.stream, pending[k].offset == end {
                    let take = Swift.min(pending[k].length, room - len)
                    len += take
                    end += take
                    k += 1
                }
            }
            let size = len + overhead
            guard bytesInFlight + size <= cwnd else { return }
            let d = packet(kind: kind, stream: chunk.stream, offset: chunk.offset, length: len, sim: &sim)
            send(d, ackEliciting: true, stream: chunk.stream, offset: chunk.offset, length: len, sim: &sim)
            consume(len)
        }
    }

    // MARK: Receiving

    /// Processes a packet from the peer. Returns the stream bytes it carried (stream, offset,
    /// length) for the application, if any.
    public mutating func receive(_ d: Datagram, sim: inout Simulation) -> (stream: Int64, offset: Int64, length: Int64)?
    {
        if state == .closed { return nil }  // discarded (RFC 9000 §10.1)
        bytesReceived += Int64(d.transportBytes) - 8
        recordReceived(d.packetNumber)
        if d.largestAcked >= 0 { processAck(largest: d.largestAcked, firstRange: d.ackFirstRange, sim: &sim) }
        var delivered: (Int64, Int64, Int64)?
        let ackEliciting = d.payload > 0
        if ackEliciting { ackElicitingUnacked += 1 }
        if d.quicPacketType.carriesCrypto {
            handleCrypto(d, sim: &sim)
        } else if d.payload > 0 {
            delivered = (Int64(d.message), d.seq, Int64(d.payload))  // 1-RTT and 0-RTT: stream data
        }
        // ACK policy (RFC 9000 §13.2.2): every second ack-eliciting packet at once, else
        // within max_ack_delay; handshake packets at once. A packet sent meanwhile carried the ACK.
        if ackEliciting && ackElicitingUnacked > 0 {
            if ackElicitingUnacked >= 2 || d.quicPacketType.hasLongHeader {
                sendAckOnly(sim: &sim)
            } else if !sim.isArmed(ackTimer) {
                sim.arm(ackTimer, after: config.maxAckDelay)
            }
        }
        trySend(sim: &sim)
        return delivered
    }

    mutating func recordReceived(_ pn: Int64) {
        if let last = receivedRanges.last {
            if pn == last.end + 1 {
                receivedRanges[receivedRanges.count - 1].end = pn  // in order: extend, no allocation
                return
            }
            if pn >= last.start && pn <= last.end { return }
        }
        receivedRanges = Ranges.merged(receivedRanges + [(pn, pn)], closed: true)
    }

    mutating func sendAckOnly(sim: inout Simulation) {
        guard !receivedRanges.isEmpty else { return }
        let kind: QuicPacketType = state == .established ? .oneRtt : .handshake
        let d = packet(kind: kind, stream: 0, offset: 0, length: 0, sim: &sim)
        send(d, ackEliciting: false, stream: 0, offset: 0, length: 0, sim: &sim)
    }

    mutating func handleCrypto(_ d: Datagram, sim: inout Simulation) {
        if isClient {
            cryptoReceived += Int64(d.payload)
            if state == .handshaking && cryptoReceived >= cryptoExpected {
                // Server flight complete: send Finished; the handshake is complete here (1 RTT).
                transition(to: .established, sim: &sim)
                sendFinished(sim: &sim)
            }
        } else {
            if state == .idle {
                // Client Initial: answer with the whole server flight, within 3× what arrived
                // (anti-amplification, RFC 9000 §8.1).
                transition(to: .handshaking, sim: &sim)
                cryptoToSend = serverFlightBytes
                sendServerFlight(sim: &sim)
            } else if d.quicPacketType == .handshake {
                // Client Finished: address validated, handshake complete.
                addressValidated = true
                if state == .handshaking { transition(to: .established, sim: &sim) }
            }
        }
    }

    var cryptoSent: Int64 = 0

    mutating func sendServerFlight(sim: inout Simulation) {
        let overhead = Int64(
            config.longHeaderBytes + config.aeadTagBytes + config.frameHeaderBytes + config.ackFrameBytes)
        while cryptoSent < cryptoToSend {
            let len = Swift.min(cryptoToSend - cryptoSent, maxDatagram - overhead)
            if !addressValidated && bytesSentUnvalidated + len + overhead > 3 * bytesReceived { return }
            let d = packet(
                kind: cryptoSent == 0 ? .initial : .handshake, stream: -1, offset: cryptoSent, length: len, sim: &sim)
            send(d, ackEliciting: true, stream: -1, offset: cryptoSent, length: len, sim: &sim)
            cryptoSent += len
        }
    }

    // MARK: ACKs and loss detection (RFC 9002 §6, §7)

    mutating func processAck(largest: Int64, firstRange: Int64, sim: inout Simulation) {
        guard let base = sent.first?.pn else { return }
        var newlyAcked = false
        var largestNewlyAckedEliciting: Sent?
        let from = Swift.max(Int(largest - firstRange - base), sentHead)
        let to = Swift.min(Int(largest - base), sent.count - 1)
        if from <= to {
            for i in from...to where !sent[i].acked && !sent[i].lost {
                sent[i].acked = true
                newlyAcked = true
                if sent[i].ackEliciting {
                    bytesInFlight -= sent[i].bytes
                    onPacketAcked(sent[i], now: sim.now)
                    if sent[i].pn == largest { largestNewlyAckedEliciting = sent[i] }
                }
                if sent[i].stream >= 0 { unackedStreamBytes -= sent[i].length }
            }
        }
        guard newlyAcked else { return }
        largestAcked = Swift.max(largestAcked, largest)
        if let p = largestNewlyAckedEliciting { updateRtt((sim.now - p.time).inSeconds) }
        detectLoss(sim: &sim)
        ptoCount = 0
        if !isClient && !addressValidated {
            // An acknowledgement of a Handshake packet validates the client's address.
            addressValidated = true
        }
        if !isClient && cryptoSent < cryptoToSend { sendServerFlight(sim: &sim) }
        pruneSent()
        setLossDetectionTimer(sim: &sim)
    }

    /// Advances past resolved packets; compacts once the resolved prefix outgrows what is left
    /// (each record moved at most once).
    mutating func pruneSent() {
        while sentHead < sent.count && (sent[sentHead].acked || sent[sentHead].lost) { sentHead += 1 }
        if sentHead == sent.count {
            sent.removeAll(keepingCapacity: true)
            sentHead = 0
        } else if sentHead > 4096 && sentHead >= sent.count - sentHead {
            sent.removeFirst(sentHead)
            sentHead = 0
        }
    }

    /// Indices of unresolved packets below the largest acknowledged.
    var belowLargest: Range<Int> {
        guard let base = sent.first?.pn, largestAcked >= base else { return sentHead..<sentHead }
        return sentHead..<Swift.max(sentHead, Swift.min(Int(largestAcked - base), sent.count))
    }

    mutating func updateRtt(_ sample: Double) {
        latestRtt = sample
        minRtt = Swift.min(minRtt, sample)
        if !hasRttSample {
            smoothedRtt = sample
            rttVar = sample / 2
            hasRttSample = true
        } else {
            rttVar = 0.75 * rttVar + 0.25 * abs(smoothedRtt - sample)
            smoothedRtt = 0.875 * smoothedRtt + 0.125 * sample
        }
    }

    /// NewReno increase (RFC 9002 §7.3): none for packets sent during recovery.
    mutating func onPacketAcked(_ p: Sent, now: SimTime) {
        if let start = recoveryStart, p.time <= start { return }
        controller.onAck(&window, acked: p.bytes, now: now, srtt: smoothedRtt)
    }

    /// loss delay = max(kTimeThreshold · max(smoothed_rtt, latest_rtt), kGranularity).
    var lossDelay: Double {
        Swift.max(QuicEndpoint.timeThreshold * Swift.max(smoothedRtt, latestRtt), QuicEndpoint.granularity)
    }

    /// Declares packets lost by packet threshold or time threshold (RFC 9002 §6.1).
    mutating func detectLoss(sim: inout Simulation) {
        guard largestAcked >= 0 else { return }
        let lostSendTime = sim.now - .seconds(lossDelay)
        var lostPackets: [Sent] = []
        for i in belowLargest where !sent[i].acked && !sent[i].lost {
            if sent[i].time <= lostSendTime || largestAcked - sent[i].pn >= QuicEndpoint.packetThreshold {
                sent[i].lost = true
                lostCount += 1
                lostPackets.append(sent[i])
            }
        }
        guard !lostPackets.isEmpty else { return }
        onPacketsLost(lostPackets, sim: &sim)
    }

    mutating func onPacketsLost(_ lost: [Sent], sim: inout Simulation) {
        var retransmit: [Chunk] = []
        for p in lost {
            if p.ackEliciting { bytesInFlight -= p.bytes }
            if p.length > 0 {
                retransmissions += 1
                if p.stream >= 0 {
                    retransmit.append(Chunk(stream: p.stream, offset: p.offset, length: p.length))
                } else if !isClient {
                    cryptoSent = Swift.min(cryptoSent, p.offset)  // resend the server flight from there
                } else if state == .established {
                    sendFinished(sim: &sim)
                } else {
                    sendClientInitial(sim: &sim)
                }
            }
        }
        retransmitQueue.insert(contentsOf: retransmit, at: 0)
        // Congestion event (RFC 9002 §7.3.2): once per recovery period.
        if let newest = lost.filter(\.ackEliciting).map(\.time).max(), recoveryStart.map({ newest > $0 }) ?? true {
            recoveryStart = sim.now
            controller.onCongestionEvent(&window, flightSize: Double(bytesInFlight))
        }
        // Persistent congestion (§7.6): ack-eliciting losses spanning 3 PTOs.
        let eliciting = lost.filter(\.ackEliciting)
        if hasRttSample, let first = eliciting.first, let last = eliciting.last {
            let pto = smoothedRtt + Swift.max(4 * rttVar, QuicEndpoint.granularity) + config.maxAckDelay.inSeconds
            if (last.time - first.time).inSeconds > 3 * pto { cwnd = minimumWindow }
        }
        if !isClient && cryptoSent < cryptoToSend { sendServerFlight(sim: &sim) }
    }

    /// Arms the loss-detection timer (RFC 9002 §6.2.1): the earliest loss time, else the PTO.
    mutating func setLossDetectionTimer(sim: inout Simulation) {
        var earliestLoss: SimTime?
        for i in belowLargest where !sent[i].acked && !sent[i].lost {
            let t = sent[i].time + .seconds(lossDelay)
            if earliestLoss.map({ t < $0 }) ?? true { earliestLoss = t }
            break  // packets are in send order: the first unresolved one is the earliest
        }
        if let t = earliestLoss {
            sim.arm(lossTimer, at: Swift.max(t, sim.now))
            return
        }
        guard bytesInFlight > 0 || (isClient && state != .established) else {
            sim.cancel(lossTimer)
            return
        }
        sim.arm(lossTimer, at: Swift.max(lastAckElicitingSent + ptoDuration, sim.now))
    }

    /// PTO = smoothed_rtt + max(4·rttvar, kGranularity) + max_ack_delay, doubled per
    /// consecutive PTO (RFC 9002 §6.2.1); max_ack_delay counts only once established.
    public var ptoDuration: SimTime {
        var pto = smoothedRtt + Swift.max(4 * rttVar, QuicEndpoint.granularity)
        if state == .established { pto += config.maxAckDelay.inSeconds }
        return .seconds(pto * Double(1 << Swift.min(ptoCount, 16)))
    }

    /// Handles this endpoint's timers.
    public mutating func timer(_ kind: EventKind, sim: inout Simulation) {
        if state == .closed { return }
        if kind == .quicAckDelay {
            sendAckOnly(sim: &sim)
            return
        }
        // Loss time passed: declare losses. Otherwise a PTO: probe with the oldest data.
        let before = lostCount
        detectLoss(sim: &sim)
        if lostCount > before {
            trySend(sim: &sim)
            setLossDetectionTimer(sim: &sim)
            return
        }
        ptoCount += 1
        if ptoCount > QuicEndpoint.maxProbeTimeouts {
            // Treated as the idle timeout expiring (RFC 9000 §10.1): the connection is gone.
            abortReason = state == .established ? "connection-lost" : "connect-timeout"
            transition(to: .closed, sim: &sim)
            return
        }
        sendProbe(sim: &sim)
        setLossDetectionTimer(sim: &sim)
    }

    /// A PTO probe (RFC 9002 §6.2.4): one ack-eliciting packet that may exceed the congestion
    /// window (§7.5), carrying new data if there is any, else a copy of the oldest unacknowledged
    /// data. A PTO declares nothing lost.
    mutating func sendProbe(sim: inout Simulation) {
        if state == .established, nextChunk != nil {
            let saved = cwnd
            cwnd = bytesInFlight + maxDatagram
            trySend(sim: &sim)
            cwnd = saved
            return
        }
        guard let oldest = sent[sentHead...].first(where: { !$0.acked && !$0.lost && $0.ackEliciting }) else { return }
        retransmissions += 1
        if oldest.stream >= 0 {
            let d = packet(
                kind: .oneRtt, stream: oldest.stream, offset: oldest.offset, length: oldest.length, sim: &sim)
            send(d, ackEliciting: true, stream: oldest.stream, offset: oldest.offset, length: oldest.length, sim: &sim)
            // The copy is tracked like any packet; the stream bytes are still owed once.
            unackedStreamBytes += oldest.length
        } else if !isClient {
            let len = oldest.length
            let d = packet(kind: .handshake, stream: -1, offset: oldest.offset, length: len, sim: &sim)
            send(d, ackEliciting: true, stream: -1, offset: oldest.offset, length: len, sim: &sim)
        } else if state == .established {
            sendFinished(sim: &sim)
        } else {
            sendClientInitial(sim: &sim)
        }
    }

    // MARK: Stream reassembly for the application

    /// Records stream bytes; returns the stream's new contiguous end.
    public mutating func deliverStream(_ stream: Int64, offset: Int64, length: Int64) -> Int64 {
        streams.receive(stream, offset: offset, length: length)
    }

    /// Forgets a finished stream.
    public mutating func closeStream(_ stream: Int64) { streams.remove(stream) }
}
