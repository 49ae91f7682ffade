import Foundation

/// The per-flow metrics of measurement.md, computed once a run ends.
///
/// - RTT: mean of the probe RTTs, (1/P)·Σ RTTᵢ, over the probes whose echo came back.
/// - Jitter as the thesis defines it: the population standard deviation of the probe RTTs,
///   √((1/P)·Σ(RTTᵢ − mean)²) (`rtt_sd_ms`); beside it the sample standard deviation
///   √(Σ(RTTᵢ − mean)²/(P − 1)) (`rtt_sd_sample_ms`), which the measuring app stores (its
///   `std()`; field-data/README.md).
/// - Interarrival jitter (RFC 3550 §6.4.1), beside it: J ← J + (|D| − J)/16 over consecutive
///   echoed probes in send order, D = (Rⱼ − Rᵢ) − (Sⱼ − Sᵢ).
/// - Percentiles by nearest rank on the sorted RTTs (p-th: the ⌈p/100·n⌉-th smallest).
/// - Data rate, as the thesis app's server computes it (`ConnectionMetricsServer`): (bytes
///   received + 4 per message) × 8 / (last arrival − first arrival), arrivals being the
///   server's receive completions of whole transfer messages; for S-byte messages that is
///   messages × S × 8 over the span. Empty only when fewer than two messages arrived.
/// - Send rate, as the client app logs it: bytes written × 8 / (last − first write completion).
/// - Goodput: bytes delivered to the server application × 8 / (last arrival − first write).
/// - Loss: UDP, as the app computes it: 1 − datagrams received / datagrams written;
///   TCP and QUIC: the flow's IP packets lost on the link / sent (they deliver everything or fail).
/// - IP packets: counted until the test completed (every transfer byte at the server), as
///   the app's DataTransferReport reports them; later keepalives and ACKs are not counted.
public struct FlowMetrics: Sendable, Equatable {
    public var rttsMs: [Double]
    public var rttMean: Double?
    public var rttSd: Double?
    /// The sample SD (n − 1) of the probe RTTs, as the app reports its jitter.
    public var rttSdSample: Double?
    public var rttMin: Double?
    public var rttP50: Double?
    public var rttP95: Double?
    public var rttMax: Double?
    public var jitterRfc3550: Double?
    public var dataRateMbps: Double?
    public var sendRateMbps: Double?
    public var goodputMbps: Double?
    public var lossPct: Double?
    public var ipPacketsSent: UInt64
    public var ipPacketsReceived: UInt64
    public var serverIpPacketsSent: UInt64
    /// Datagrams lost in a UDP send buffer (both ends' apps wrote more than fitted).
    public var sendBufferDrops: Int64 = 0
    /// Datagrams lost to a full UDP receive buffer (both ends).
    public var receiveBufferDrops: Int64 = 0
    public var serverIpPacketsReceived: UInt64
    public var bytesSent: Int64
    public var bytesDelivered: Int64
    public var retransmissions: UInt64
    /// Retransmissions by the client alone (TCP segments or QUIC packets).
    public var clientRetransmissions: UInt64
    /// TCP keepalive probes sent by both ends during the whole run.
    public var keepalives: UInt64
    public var handshakeMs: Double?
    public var durationS: Double?
    public var status: String
    /// When the client began to connect and when the thesis test's probe burst began
    /// (nil when it did not).
    public var connectingAt: SimTime?, testStartedAt: SimTime?
    /// The apps' discovery before the connection (`flows[i].discovery`), and when the first
    /// probe's echo was read (`nil`: none).
    public var discovery: AppDiscovery?
    /// See `discovery`.
    public var firstEcho: SimTime?

    /// Nearest-rank percentile of sorted values.
    public static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }

    /// RFC 3550 interarrival jitter over (send, receive) pairs in send order, in the pairs' unit.
    public static func rfc3550Jitter(_ pairs: [(sent: Double, received: Double)]) -> Double {
        var j = 0.0
        for i in 1..<Swift.max(pairs.count, 1) {
            let d = (pairs[i].received - pairs[i - 1].received) - (pairs[i].sent - pairs[i - 1].sent)
            j += (abs(d) - j) / 16
        }
        return j
    }

    /// The metrics of flow `k` of a finished world.
    public init(flow f: FlowRuntime, index k: Int, transport t: TransportSummary, ip: IpLayer, linkLostPackets: UInt64)
    {
        let app = f.app
        connectingAt = app.startedAt
        testStartedAt = app.testStartedAt
        discovery = f.discovery
        firstEcho = app.probeEcho.compactMap { $0 }.min()
        var pairs: [(sent: Double, received: Double)] = []
        for (i, echo) in app.probeEcho.enumerated() {
            if let echo { pairs.append((app.probeSent[i].inMilliseconds, echo.inMilliseconds)) }
        }
        rttsMs = pairs.map { $0.received - $0.sent }
        if !rttsMs.isEmpty {
            let n = Double(rttsMs.count)
            let mean = rttsMs.reduce(0, +) / n
            rttMean = mean
            let squares = rttsMs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
            rttSd = (squares / n).squareRoot()
            if rttsMs.count > 1 { rttSdSample = (squares / (n - 1)).squareRoot() }
            let sorted = rttsMs.sorted()
            rttMin = sorted.first
            rttMax = sorted.last
            rttP50 = FlowMetrics.percentile(sorted, 50)
            rttP95 = FlowMetrics.percentile(sorted, 95)
            jitterRfc3550 = FlowMetrics.rfc3550Jitter(pairs)
        }
        if let s = app.transferStart, let e = app.transferEnd, e > s {
            durationS = (e - s).inSeconds
            sendRateMbps = Double(app.bytesSent) * 8 / (e - s).inSeconds / 1e6
        } else if app.transferStart != nil {
            durationS = 0
        }
        if let first = app.firstArrival, let last = app.lastArrival, last > first {
            let bytes = app.messagesDelivered == app.writes ? app.bytesSent : app.messagesDelivered * app.chunk
            dataRateMbps = Double(bytes) * 8 / (last - first).inSeconds / 1e6
        }
        if let s = app.transferStart, let last = app.lastArrival, last > s {
            goodputMbps = Double(app.bytesDelivered) * 8 / (last - s).inSeconds / 1e6
        }
        if let (cs, cr, ss, sr) = f.reportSnapshot {
            (ipPacketsSent, ipPacketsReceived, serverIpPacketsSent, serverIpPacketsReceived) = (cs, cr, ss, sr)
        } else {
            let (c, s) = (FlowSide.client(k).index, FlowSide.server(k).index)
            ipPacketsSent = ip.counters[c].packetsSent
            ipPacketsReceived = ip.counters[c].packetsReceived
            serverIpPacketsSent = ip.counters[s].packetsSent
            serverIpPacketsReceived = ip.counters[s].packetsReceived
        }
        keepalives = t.keepalives
        sendBufferDrops = t.sendBufferDrops
        receiveBufferDrops = t.receiveBufferDrops
        clientRetransmissions = t.clientRetransmissions
        if f.transport == .udp {
            lossPct =
                app.datagramsSent > 0
                ? Double(app.datagramsSent - app.datagramsDelivered) / Double(app.datagramsSent) * 100 : nil
        } else {
            let sent = ipPacketsSent + serverIpPacketsSent
            lossPct = sent > 0 ? Double(linkLostPackets) / Double(sent) * 100 : nil
        }
        bytesSent = app.bytesSent
        bytesDelivered = app.bytesDelivered
        retransmissions = t.retransmissions
        if let est = t.establishedAt, let start = app.startedAt { handshakeMs = (est - start).inMilliseconds }
        if f.transport == .udp { handshakeMs = 0 }
        if let failure = app.failure {
            status = "failed:\(failure)"
        } else if let reason = t.abortReason {
            status = "failed:\(reason)"
        } else if !t.connected {
            status = "failed:no-connection"
        } else if app.writesDone < app.writes && app.writes != .max {
            status = "incomplete"
        } else if f.transport != .udp && app.bytesDelivered < app.bytesSent {
            status = "incomplete"
        } else if app.bytesSent > 0 && app.bytesDelivered == 0 {
            // Every write was made but nothing reached the server (UDP: every datagram lost).
            status = "failed:nothing-delivered"
        } else {
            status = "ok"
        }
    }
}
