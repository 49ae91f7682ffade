import Foundation

extension EventKind {
    /// A TCP endpoint's retransmission timer (target: 2·flow + side).
    public static let tcpRetransmit = EventKind(rawValue: 300)
    /// A TCP endpoint's delayed-ACK timer.
    public static let tcpDelayedAck = EventKind(rawValue: 301)
    /// A TCP endpoint's keepalive timer.
    public static let tcpKeepalive = EventKind(rawValue: 302)
}

/// One end of a TCP connection: handshake, reliable byte stream, congestion control and the
/// timers, as an explicit state machine over `State`.
public struct TcpEndpoint: Sendable {
    /// Connection states used here (RFC 9293 §3.3.2). Closing is modelled by the `finSent` and
    /// `finReceived` flags on an established connection: FIN, FIN, ACK, without TIME-WAIT.
    public enum State: Sendable, Equatable { case closed, listen, synSent, synReceived, established }

    /// Settings.
    public let config: TcpConfig
    /// Payload bytes per full segment: MSS − 12 bytes of timestamps option.
    public let segmentBytes: Int64
    let flow: Int32
    let isClient: Bool
    /// The state.
    public private(set) var state: State = .closed

    // Send side (RFC 9293 §3.3.1 names).
    /// Oldest unacknowledged stream offset.
    public private(set) var sndUna: Int64 = 0
    /// Next stream offset to send.
    public private(set) var sndNxt: Int64 = 0
    /// Highest offset ever sent.
    public private(set) var sndMax: Int64 = 0
    /// Stream offset the application has written up to.
    public private(set) var writeEnd: Int64 = 0
    /// Congestion window and slow-start threshold.
    var window: CongestionWindow
    /// The congestion-control algorithm (`transport.congestionControl`).
    var controller: TcpCongestionControl
    /// Congestion window, bytes.
    public private(set) var cwnd: Double {
        get { window.cwnd }
        set { window.cwnd = newValue }
    }
    /// Slow-start threshold, bytes.
    public var ssthresh: Double { window.ssthresh }
    var peerWindow: Int64
    var dupAcks = 0
    var recover: Int64 = 0
    var inRecovery = false
    /// Retransmission-timer estimator.
    public private(set) var rtt: RttEstimator
    var backoff = 0
    var timedSeq: Int64?
    var timedAt = SimTime.zero
    var synSentAt = SimTime.zero
    var synRetransmitted = false
    let rtoTimer: TimerID
    let delayedAckTimer: TimerID
    let keepaliveTimer: TimerID
    /// Keepalive probes sent.
    public private(set) var keepalivesSent: UInt64 = 0
    /// Why the connection was given up, if it was.
    public private(set) var abortReason: String?
    /// This end sent its FIN.
    public private(set) var finSent = false
    /// The peer's FIN arrived.
    public private(set) var finReceived = false

    /// Active close once everything written was acknowledged (RFC 9293 §3.6): send FIN.
    /// The FIN is not retransmitted (a simplification: a lost FIN leaves the connection open,
    /// which only changes the packet count after the test).
    public mutating func close(sim: inout Simulation) {
        guard state == .established, !finSent, sndUna == writeEnd else { return }
        finSent = true
        var fin = segment(flags: TcpFlags.fin | TcpFlags.ack, seq: sndNxt, payload: 0)
        fin.tcpFlags = TcpFlags.fin | TcpFlags.ack
        outbox.append(fin)
        sim.cancel(keepaliveTimer)
    }
    /// Consecutive retransmission timeouts before giving up: 6 for a SYN (Linux's
    /// tcp_syn_retries), 12 for data (BSD's TCP_MAXRXTSHIFT; RFC 1122 §4.2.3.5 asks for at least
    /// 100 s, which 12 doubling RTOs exceed).
    public static let synRetries = 6
    /// See `synRetries`.
    public static let dataRetries = 12
    // Receive side.
    /// Next stream offset expected from the peer (everything below was delivered in order).
    public private(set) var rcvNxt: Int64 = 0
    var outOfOrder: [(start: Int64, end: Int64)] = []
    /// The out-of-order range that most recently grew (reported first, RFC 2018 §4).
    var latestOutOfOrder: (start: Int64, end: Int64)?
    /// Sender's SACK scoreboard: received ranges above sndUna, merged (RFC 6675 §2).
    var scoreboard: [(start: Int64, end: Int64)] = []
    /// Highest offset retransmitted in the current recovery (RFC 6675 HighRxt).
    var highRxt: Int64 = 0
    var fullSegmentsUnacked = 0

    /// Segments retransmitted (data and SYN).
    public private(set) var retransmissions: UInt64 = 0
    /// When the connection became established here.
    public private(set) var establishedAt: SimTime?
    /// Datagrams to send; the world drains it after every call.
    public var outbox: [Datagram] = []

    /// An endpoint of `flow`. `mtuPayload` is the link MTU minus the IP header.
    public init(flow: Int32, isClient: Bool, config: TcpConfig, mtuPayload: Int, sim: inout Simulation, side: UInt32) {
        self.flow = flow
        self.isClient = isClient
        self.config = config
        // MSS = MTU − IP − 20 (RFC 9293 §3.7.1); each segment also carries 12 bytes of timestamps.
        segmentBytes = Int64(mtuPayload - 20 - 12)
        window = CongestionWindow(cwnd: Double(TcpEndpoint.initialWindow(mss: segmentBytes)), mss: Double(segmentBytes))
        controller = TcpCongestionControl(config.congestionControl)
        peerWindow = config.receiveBuffer
        rtt = RttEstimator(initial: config.initialRto, minRto: config.minRto, maxRto: config.maxRto)
        rtoTimer = sim.makeTimer(kind: .tcpRetransmit, target: side)
        delayedAckTimer = sim.makeTimer(kind: .tcpDelayedAck, target: side)
        keepaliveTimer = sim.makeTimer(kind: .tcpKeepalive, target: side)
    }

    /// Any segment in or out restarts the idle clock of the keepalive (RFC 1122 §4.2.3.6).
    mutating func noteActivity(sim: inout Simulation) {
        if let idle = config.keepaliveIdle, state == .established, !finSent, !finReceived {
            sim.arm(keepaliveTimer, after: idle)
        }
    }

    /// Initial window, RFC 6928 §2: min(10·MSS, max(2·MSS, 14600)).
    public static func initialWindow(mss: Int64) -> Int64 { Swift.min(10 * mss, Swift.max(2 * mss, 14_600)) }

    /// Bytes written but not yet acknowledged.
    public var unacknowledged: Int64 { writeEnd - sndUna }
    /// Room left in the send buffer.
    public var sendBufferSpace: Int64 { config.sendBuffer - unacknowledged }

    func segment(flags: UInt8, seq: Int64, payload: Int64) -> Datagram {
        var d = Datagram(flow: flow, fromClient: isClient, kind: .tcp)
        d.tcpFlags = flags
        d.seq = seq
        d.payload = Int32(payload)
        d.ack = rcvNxt
        d.window = config.receiveBuffer
        d.header = flags & TcpFlags.syn != 0 ? config.synHeaderBytes : config.headerBytes
        if config.sack && !outOfOrder.isEmpty && flags & TcpFlags.syn == 0 {
            // Up to three blocks, the most recently changed first (RFC 2018 §4); each block
            // costs 8 bytes of option space, plus the option's kind and length behind two NOPs.
            var blocks: [(start: Int64, end: Int64)] = []
            if let l = latestOutOfOrder, let r = outOfOrder.first(where: { $0.start <= l.start && l.end <= $0.end }) {
                blocks.append(r)
            }
            for r in outOfOrder.reversed() where blocks.count < 3 && !blocks.contains(where: { $0.start == r.start }) {
                blocks.append(r)
            }
            while blocks.count < 3 { blocks.append((0, 0)) }
            d.sackStart = SackEdges(blocks[0].start, blocks[1].start, blocks[2].start)
            d.sackEnd = SackEdges(blocks[0].end, blocks[1].end, blocks[2].end)
            d.header += 4 + 8 * Int32(blocks.filter { $0.end > $0.start }.count)
        }
        return d
    }

    // MARK: Opening

    /// Active open: send SYN (RFC 9293 §3.5).
    public mutating func connect(sim: inout Simulation) {
        transition(to: .synSent, sim: &sim)
        outbox.append(segment(flags: TcpFlags.syn, seq: 0, payload: 0))
        sim.arm(rtoTimer, after: rtt.rto)
    }

    /// Passive open.
    public mutating func listen() {
        precondition(state == .closed, "TCP: listen on a used endpoint")
        state = .listen  // CLOSED → LISTEN has no entry action (and needs no clock)
    }

    /// Whether RFC 9293's state diagram (§3.3.2, Figure 5; the subset modelled here) has an
    /// arrow from `from` to `to`. Every modelled state can also abort to CLOSED.
    static func allowed(from: State, to: State) -> Bool {
        switch (from, to) {
        case (.closed, .synSent), (.closed, .listen), (.listen, .synReceived), (.synSent, .established),
            (.synReceived, .established), (.synSent, .closed), (.synReceived, .closed), (.established, .closed):
            return true
        default:
            return false
        }
    }

    /// Every state change after the open goes through here, with the actions of entering the
    /// new state: SYN-SENT and SYN-RECEIVED start timing the handshake; ESTABLISHED stops the
    /// handshake's retransmission timer and takes its RTT sample unless a SYN was retransmitted
    /// (Karn's rule, RFC 6298 §3); CLOSED (an abort) stops the remaining timers.
    mutating func transition(to next: State, sim: inout Simulation) {
        precondition(TcpEndpoint.allowed(from: state, to: next), "TCP: no transition \(state) → \(next)")
        state = next
        switch next {
        case .synSent, .synReceived:
            synSentAt = sim.now
        case .established:
            establishedAt = sim.now
            sim.cancel(rtoTimer)
            backoff = 0
            if !synRetransmitted { rtt.sample((sim.now - synSentAt).inSeconds) }
        case .closed:
            sim.cancel(delayedAckTimer)
            sim.cancel(keepaliveTimer)
        case .listen:
            break
        }
    }

    // MARK: Application

    /// Appends `bytes` to the stream. - Precondition: they fit the send buffer.
    public mutating func write(_ bytes: Int64, sim: inout Simulation) {
        precondition(bytes <= sendBufferSpace, "write beyond the send buffer")
        writeEnd += bytes
        if state == .established { trySend(sim: &sim) }
    }

    // MARK: Segments in

    /// Processes a segment from the peer.
    public mutating func receive(_ d: Datagram, sim: inout Simulation) {
        switch state {
        case .closed:
            return
        case .listen:
            guard d.tcpFlags & TcpFlags.syn != 0 else { return }
            transition(to: .synReceived, sim: &sim)
            outbox.append(segment(flags: TcpFlags.syn | TcpFlags.ack, seq: 0, payload: 0))
            sim.arm(rtoTimer, after: rtt.rto)
        case .synSent:
            guard d.tcpFlags & (TcpFlags.syn | TcpFlags.ack) == TcpFlags.syn | TcpFlags.ack else { return }
            transition(to: .established, sim: &sim)
            sendAck(sim: &sim)  // the handshake's third segment
            trySend(sim: &sim)
        case .synReceived:
            if d.tcpFlags & TcpFlags.syn != 0 {
                outbox.append(segment(flags: TcpFlags.syn | TcpFlags.ack, seq: 0, payload: 0))  // our SYN-ACK was lost
                return
            }
            guard d.tcpFlags & TcpFlags.ack != 0 else { return }
            transition(to: .established, sim: &sim)
            established(d, sim: &sim)
        case .established:
            if d.tcpFlags & TcpFlags.syn != 0 {
                // The peer did not get our handshake ACK: repeat it.
                sendAck(sim: &sim)
                return
            }
            established(d, sim: &sim)
        }
    }

    mutating func established(_ d: Datagram, sim: inout Simulation) {
        noteActivity(sim: &sim)
        if d.tcpFlags & TcpFlags.keepalive != 0 {
            sendAck(sim: &sim)  // a keepalive probe is answered with an ACK
            return
        }
        if d.tcpFlags & TcpFlags.fin != 0 && !finReceived {
            finReceived = true
            if finSent {
                sendAck(sim: &sim)  // our FIN was first: acknowledge theirs
            } else {
                // Passive close: acknowledge and close our side at once (FIN+ACK).
                finSent = true
                var fin = segment(flags: TcpFlags.fin | TcpFlags.ack, seq: sndNxt, payload: 0)
                fin.tcpFlags = TcpFlags.fin | TcpFlags.ack
                outbox.append(fin)
            }
            sim.cancel(keepaliveTimer)
            sim.cancel(delayedAckTimer)
            return
        }
        if d.tcpFlags & TcpFlags.ack != 0 { processAck(d, sim: &sim) }
        if d.payload > 0 { processData(d, sim: &sim) }
    }

    // MARK: Sender

    /// Sends what the windows and Nagle allow (RFC 5681 §3.1, RFC 896).
    mutating func trySend(sim: inout Simulation) {
        while true {
            let window = Swift.min(Int64(cwnd), peerWindow)
            let inFlight = sndNxt - sndUna
            let available = writeEnd - sndNxt
            guard available > 0 else { return }
            let len = Swift.min(segmentBytes, available, window - inFlight)
            guard len > 0 else { return }
            // Nagle (RFC 896; RFC 1122 §4.2.3.4): while data is unacknowledged, hold a segment
            // smaller than a full one.
            if len < segmentBytes && inFlight > 0 && !config.noDelay { return }
            sendData(seq: sndNxt, len: len, sim: &sim)
            sndNxt += len
            sndMax = Swift.max(sndMax, sndNxt)
        }
    }

    /// Sends (or resends) `len` bytes from `seq`. PSH is set when the segment reaches the end of
    /// what the application has written, new or resent alike (the BSD `tcp_output` rule).
    mutating func sendData(seq: Int64, len: Int64, sim: inout Simulation) {
        let push = seq + len >= writeEnd
        let retransmission = seq < sndMax
        if retransmission {
            retransmissions += 1
            if let t = timedSeq, t >= seq { timedSeq = nil }  // Karn: discard the timing
        } else if timedSeq == nil {
            timedSeq = seq + len
            timedAt = sim.now
        }
        outbox.append(segment(flags: push ? TcpFlags.ack | TcpFlags.push : TcpFlags.ack, seq: seq, payload: len))
        noteActivity(sim: &sim)
        // Data carries the ACK: the delayed ACK is no longer needed.
        fullSegmentsUnacked = 0
        sim.cancel(delayedAckTimer)
        if !sim.isArmed(rtoTimer) { sim.arm(rtoTimer, after: currentRto) }
    }

    var currentRto: SimTime {
        var r = rtt.rto
        for _ in 0..<backoff { r = Swift.min(r * 2, config.maxRto) }
        return r
    }

    var flightSize: Double { Double(sndNxt - sndUna) }

    mutating func processAck(_ d: Datagram, sim: inout Simulation) {
        peerWindow = d.window
        let ack = d.ack
        guard ack <= sndMax else { return }
        if config.sack {
            updateScoreboard(d, ack: ack)
            processAckWithSack(d, ack: ack, sim: &sim)
            return
        }
        if ack > sndUna {
            let acked = acknowledge(upTo: ack, now: sim.now)
            if inRecovery {
                if ack >= recover {
                    // Full acknowledgement (RFC 6582 §3.2 step 3): deflate to ssthresh.
                    cwnd = Swift.min(ssthresh, Swift.max(flightSize, Double(segmentBytes)) + Double(segmentBytes))
                    inRecovery = false
                } else {
                    // Partial acknowledgement (§3.2 step 4): retransmit the next hole,
                    // deflate by the amount acknowledged, add back one segment.
                    sendData(seq: sndUna, len: Swift.min(segmentBytes, sndMax - sndUna), sim: &sim)
                    cwnd = Swift.max(cwnd - Double(acked) + Double(segmentBytes), Double(segmentBytes))
                    sim.arm(rtoTimer, after: currentRto)
                }
            } else {
                increaseWindow(acked: acked, now: sim.now)
            }
            dupAcks = 0
            if sndUna >= sndMax { sim.cancel(rtoTimer) } else if !inRecovery { sim.arm(rtoTimer, after: currentRto) }
        } else if ack == sndUna && d.payload == 0 && sndMax > sndUna {
            dupAcks += 1
            if dupAcks == 3 && !inRecovery && ack > recover - 1 {
                // Fast retransmit (RFC 5681 §3.2, RFC 6582 §3.2 step 2).
                enterLossRecovery(now: sim.now, timeout: false)
                recover = sndMax
                inRecovery = true
                sendData(seq: sndUna, len: Swift.min(segmentBytes, sndMax - sndUna), sim: &sim)
                cwnd = ssthresh + 3 * Double(segmentBytes)
            } else if inRecovery {
                cwnd += Double(segmentBytes)  // window inflation per further duplicate
            } else if dupAcks < 3 {
                // Limited Transmit (RFC 3042 §2): on the first two duplicate ACKs send one new
                // segment if the receiver's window allows and the flight stays within cwnd + 2·SMSS.
                let available = writeEnd - sndNxt
                let len = Swift.min(segmentBytes, available)
                if len > 0 && Double(sndNxt - sndUna + len) <= cwnd + 2 * Double(segmentBytes)
                    && sndNxt - sndUna + len <= peerWindow && (len == segmentBytes || config.noDelay)
                {
                    sendData(seq: sndNxt, len: len, sim: &sim)
                    sndNxt += len
                    sndMax = Swift.max(sndMax, sndNxt)
                }
            }
        }
        trySend(sim: &sim)
    }

    // MARK: SACK loss recovery (RFC 6675, simplified)

    mutating func updateScoreboard(_ d: Datagram, ack: Int64) {
        var ranges = scoreboard
        for j in 0..<3 where d.sackEnd[j] > d.sackStart[j] && d.sackEnd[j] > ack {
            ranges.append((Swift.max(d.sackStart[j], ack), d.sackEnd[j]))
        }
        ranges = ranges.filter { $0.end > ack }.map { (Swift.max($0.start, ack), $0.end) }
        scoreboard = Ranges.merged(ranges)
    }

    var sackedBytes: Int64 { scoreboard.reduce(0) { $0 + ($1.end - $1.start) } }

    /// RFC 6675 §4 SetPipe: octets outstanding that are neither SACKed nor presumed lost,
    /// plus retransmitted octets. A hole is presumed lost when 3·SMSS are SACKed above it.
    var pipe: Int64 {
        var total: Int64 = 0
        var cursor = sndUna
        var sackedAbove = sackedBytes
        for r in scoreboard {
            if cursor < r.start {
                let lost = sackedAbove >= 3 * segmentBytes
                let retransmitted = Swift.max(0, Swift.min(highRxt, r.start) - cursor)
                total += lost ? retransmitted : (r.start - cursor)
            }
            sackedAbove -= r.end - r.start
            cursor = Swift.max(cursor, r.end)
        }
        total += Swift.max(0, sndNxt - cursor)
        return total
    }

    /// RFC 6675 §4 IsLost(sndUna): three segments' worth of data SACKed above the first hole.
    var firstHoleLost: Bool { sackedBytes >= 3 * segmentBytes }

    /// The next unSACKed, not yet retransmitted range below the highest SACKed byte.
    func nextHole() -> (start: Int64, len: Int64)? {
        var cursor = Swift.max(sndUna, highRxt)
        for r in scoreboard {
            if cursor < r.start {
                return (cursor, Swift.min(segmentBytes, r.start - cursor))
            }
            cursor = Swift.max(cursor, r.end)
        }
        return nil
    }

    /// New data acknowledged up to `ack`: advance SND.UNA, reset the back-off, and take an RTT
    /// sample if the timed segment is covered (RFC 6298 §5.7, Karn's rule via `timedSeq`).
    /// Returns the bytes newly acknowledged.
    mutating func acknowledge(upTo ack: Int64, now: SimTime) -> Int64 {
        let acked = ack - sndUna
        sndUna = ack
        if sndNxt < sndUna { sndNxt = sndUna }
        backoff = 0
        if let t = timedSeq, ack >= t {
            rtt.sample((now - timedAt).inSeconds)
            timedSeq = nil
        }
        return acked
    }

    mutating func processAckWithSack(_ d: Datagram, ack: Int64, sim: inout Simulation) {
        if ack > sndUna {
            let acked = acknowledge(upTo: ack, now: sim.now)
            dupAcks = 0
            if inRecovery && ack >= recover {
                inRecovery = false
                cwnd = ssthresh
            } else if !inRecovery {
                increaseWindow(acked: acked, now: sim.now)
            }
            if sndUna >= sndMax { sim.cancel(rtoTimer) } else { sim.arm(rtoTimer, after: currentRto) }
        } else if ack == sndUna && d.payload == 0 && sndMax > sndUna {
            dupAcks += 1
        }
        if !inRecovery && sndMax > sndUna && (dupAcks >= 3 || firstHoleLost) && ack > recover - 1 {
            enterLossRecovery(now: sim.now, timeout: false)
            cwnd = ssthresh
            recover = sndMax
            highRxt = sndUna
            inRecovery = true
            // RFC 6675 §5 (C): the first presumed-lost segment goes out at once.
            let len = Swift.min(segmentBytes, (scoreboard.first?.start ?? sndMax) - sndUna)
            if len > 0 {
                sendData(seq: sndUna, len: len, sim: &sim)
                highRxt = sndUna + len
            }
        } else if !inRecovery && dupAcks > 0 && dupAcks < 3 && writeEnd > sndNxt {
            // Limited Transmit (RFC 3042), as without SACK.
            let len = Swift.min(segmentBytes, writeEnd - sndNxt)
            if len == segmentBytes && Double(sndNxt - sndUna + len) <= cwnd + 2 * Double(segmentBytes) {
                sendData(seq: sndNxt, len: len, sim: &sim)
                sndNxt += len
                sndMax = Swift.max(sndMax, sndNxt)
            }
            return
        }
        if inRecovery {
            // Retransmit holes first, then new data, while pipe + SMSS ≤ cwnd (RFC 6675 §5).
            var pipe = self.pipe
            while Double(pipe + segmentBytes) <= cwnd {
                if let hole = nextHole() {
                    sendData(seq: hole.start, len: hole.len, sim: &sim)
                    highRxt = hole.start + hole.len
                    pipe += hole.len
                } else if writeEnd > sndNxt {
                    let len = Swift.min(segmentBytes, writeEnd - sndNxt)
                    sendData(seq: sndNxt, len: len, sim: &sim)
                    sndNxt += len
                    sndMax = Swift.max(sndMax, sndNxt)
                    pipe += len
                } else {
                    break
                }
            }
            return
        }
        trySend(sim: &sim)
    }

    /// Slow start or congestion avoidance on `acked` new bytes (the controller's rule).
    mutating func increaseWindow(acked: Int64, now: SimTime) {
        controller.onAck(&window, acked: acked, now: now, srtt: rtt.srtt)
    }

    /// Multiplicative decrease on a congestion event (the controller's rule); the RTT sample in
    /// flight is abandoned.
    mutating func enterLossRecovery(now: SimTime, timeout: Bool) {
        controller.onCongestionEvent(&window, flightSize: flightSize)
        timedSeq = nil
    }

    // MARK: Receiver

    mutating func processData(_ d: Datagram, sim: inout Simulation) {
        let start = d.seq, end = d.seq + Int64(d.payload)
        if end <= rcvNxt {
            sendAck(sim: &sim)  // a duplicate: ACK at once (RFC 5681 §4.2)
            return
        }
        if start > rcvNxt {
            insertOutOfOrder(start, end)
            latestOutOfOrder = (start, end)
            sendAck(sim: &sim)  // out of order: immediate duplicate ACK
            return
        }
        let hadHole = !outOfOrder.isEmpty
        rcvNxt = end
        while let first = outOfOrder.first, first.start <= rcvNxt {
            rcvNxt = Swift.max(rcvNxt, first.end)
            outOfOrder.removeFirst()
        }
        if hadHole {
            sendAck(sim: &sim)  // filling a hole: ACK at once
            return
        }
        // Delayed ACK (RFC 1122 §4.2.3.2, RFC 5681 §4.2): at least every second full-sized
        // segment, otherwise when the timer (XNU: 100 ms) fires; XNU ACKs a PUSH segment at once
        // (`TcpConfig.ackOnPush`).
        if Int64(d.payload) >= segmentBytes { fullSegmentsUnacked += 1 }
        let pushed = config.ackOnPush && d.tcpFlags & TcpFlags.push != 0
        if fullSegmentsUnacked >= 2 || config.delayedAck == .zero || pushed {
            sendAck(sim: &sim)
        } else if !sim.isArmed(delayedAckTimer) {
            sim.arm(delayedAckTimer, after: config.delayedAck)
        }
    }

    mutating func insertOutOfOrder(_ start: Int64, _ end: Int64) {
        outOfOrder = Ranges.merged(outOfOrder + [(start, end)])
    }

    mutating func sendAck(sim: inout Simulation) {
        outbox.append(segment(flags: TcpFlags.ack, seq: sndNxt, payload: 0))
        fullSegmentsUnacked = 0
        sim.cancel(delayedAckTimer)
    }

    // MARK: Timers

    /// Handles this endpoint's timer.
    public mutating func timer(_ kind: EventKind, sim: inout Simulation) {
        if kind == .tcpKeepalive {
            guard state == .established else { return }
            var probe = segment(flags: TcpFlags.ack | TcpFlags.keepalive, seq: sndUna - 1, payload: 0)
            probe.tcpFlags = TcpFlags.ack | TcpFlags.keepalive
            outbox.append(probe)
            keepalivesSent += 1
            sim.arm(keepaliveTimer, after: config.keepaliveInterval)
            return
        }
        if kind == .tcpDelayedAck {
            if state == .established { sendAck(sim: &sim) }
            return
        }
        // Retransmission timeout (RFC 6298 §5.4–5.6; RFC 5681 §3.1 eq. 4 and loss window).
        backoff += 1
        let limit = state == .established ? TcpEndpoint.dataRetries : TcpEndpoint.synRetries
        if backoff > limit && state != .closed && state != .listen {
            abortReason = state == .established ? "connection-lost" : "connect-timeout"
            transition(to: .closed, sim: &sim)
            return
        }
        switch state {
        case .synSent, .synReceived:
            synRetransmitted = true
            retransmissions += 1
            outbox.append(
                segment(flags: state == .synSent ? TcpFlags.syn : TcpFlags.syn | TcpFlags.ack, seq: 0, payload: 0))
            sim.arm(rtoTimer, after: currentRto)
        case .established:
            guard sndMax > sndUna else { return }
            enterLossRecovery(now: sim.now, timeout: true)
            cwnd = Double(segmentBytes)
            inRecovery = false
            scoreboard.removeAll()  // RFC 6675 §5.1: after an RTO, SACK information is not trusted
            highRxt = 0
            dupAcks = 0
            recover = sndMax
            sndNxt = sndUna
            sendData(seq: sndUna, len: Swift.min(segmentBytes, sndMax - sndUna), sim: &sim)
            sndNxt = sndUna + Swift.min(segmentBytes, sndMax - sndUna)
            sim.arm(rtoTimer, after: currentRto)
        case .closed, .listen:
            return
        }
    }
}
