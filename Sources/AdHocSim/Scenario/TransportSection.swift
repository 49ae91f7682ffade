/// IP version of the flows (`transport.ipVersion`).
public enum IpVersion: String, Sendable, CaseIterable {
    /// IPv6 link-local, as AWDL uses (radio.md: "data frames are IPv6 link-local").
    case ipv6
    /// IPv4.
    case ipv4
}

/// TCP congestion controllers (`transport.tcp.congestionControl`).
public enum CongestionControl: String, Sendable, CaseIterable {
    /// RFC 5681 with RFC 6582's fast recovery.
    case newreno
    /// RFC 9438.
    case cubic
}

/// The `transport` section as the file gave it; the transport layer supplies cited defaults.
public struct TransportSpec: Sendable, Equatable {
    public var ipVersion: IpVersion?
    public var maxDatagramBytes: Int?
    public var congestionControl: CongestionControl?
    public var noDelay: Bool?
    public var delayedAckMs: Double?
    /// ACK PUSH segments at once (`transport.tcp.ackOnPush`).
    public var ackOnPush: Bool?
    public var minRtoMs: Double?
    public var sendBufferBytes: Int?
    public var receiveBufferBytes: Int?
    /// TCP selective acknowledgements (`transport.tcp.sack`).
    public var sack: Bool?
    /// TCP keepalive idle time, s (`transport.tcp.keepaliveIdleS`; null = off).
    public var keepaliveIdleS: PresetOverride<Double> = .preset
    /// QUIC: one stream per write (`transport.quic.streamPerWrite`).
    public var quicStreamPerWrite: Bool?
    /// QUIC: certificate chain bytes in the server flight (`transport.quic.certificateBytes`).
    public var quicCertificateBytes: Int?
    /// QUIC: 0-RTT data on resumption (`transport.quic.zeroRtt`).
    public var quicZeroRtt: Bool?
    /// QUIC: pack queued contiguous stream data into one packet (`transport.quic.coalesce`).
    public var quicCoalesce: Bool?
    /// Nothing set.
    public init() {}
}

extension ScenarioDecoder {
    func decodeTransport(_ node: JSONNode, _ path: JSONPath) -> TransportSpec? {
        guard
            let r = ObjectReader(
                node, path: path, sink: sink,
                expected: "an object {\"ipVersion\", \"maxDatagramBytes\", \"tcp\", \"quic\"}")
        else { return nil }
        defer { r.finish() }
        var spec = TransportSpec()
        var ok = true
        func track<T>(_ v: T?) -> T? { if v == nil { ok = false }; return v }
        if let v = r.value("ipVersion") {
            spec.ipVersion = track(
                values.choice(v, path.appending("ipVersion"), "an IP version", of: IpVersion.self))
        }
        if let v = r.value("maxDatagramBytes") {
            spec.maxDatagramBytes = track(
                values.integer(
                    v, path.appending("maxDatagramBytes"), "a datagram limit in bytes in 1...65507", in: 1...65_507
                ).map(Int.init))
        }
        if let t = r.value("tcp") {
            let tp = path.appending("tcp")
            if let tr = ObjectReader(t, path: tp, sink: sink, expected: "an object of TCP settings") {
                if let v = tr.value("congestionControl") {
                    spec.congestionControl = track(
                        values.choice(
                            v, tp.appending("congestionControl"), "a congestion controller", of: CongestionControl.self)
                    )
                }
                if let v = tr.value("noDelay") {
                    spec.noDelay = track(values.bool(v, tp.appending("noDelay"), "true or false"))
                }
                if let v = tr.value("delayedAckMs") {
                    spec.delayedAckMs = track(
                        values.duration(
                            v, tp.appending("delayedAckMs"), "a delayed-ACK timer in ms in 0...500 (RFC 1122 limit)",
                            unit: 0.001, upTo: 500, allowZero: true))
                }
                if let v = tr.value("ackOnPush") {
                    spec.ackOnPush = track(values.bool(v, tp.appending("ackOnPush"), "true or false"))
                }
                if let v = tr.value("minRtoMs") {
                    spec.minRtoMs = track(
                        values.number(v, tp.appending("minRtoMs"), "a minimum RTO in ms in 1...60000", in: 1...60_000))
                }
                if let v = tr.value("sendBufferBytes") {
                    spec.sendBufferBytes = track(
                        values.integer(
                            v, tp.appending("sendBufferBytes"), "a send buffer in bytes in 1024...1073741824",
                            in: 1024...(1 << 30)
                        ).map(Int.init))
                }
                if let v = tr.value("receiveBufferBytes") {
                    spec.receiveBufferBytes = track(
                        values.integer(
                            v, tp.appending("receiveBufferBytes"), "a receive buffer in bytes in 1024...1073741824",
                            in: 1024...(1 << 30)
                        ).map(Int.init))
                }
                if let v = tr.value("sack") { spec.sack = track(values.bool(v, tp.appending("sack"), "true or false")) }
                if let v = tr.value("keepaliveIdleS") {
                    if v.value == .null {
                        spec.keepaliveIdleS = .off
                    } else if let x = values.duration(
                        v, tp.appending("keepaliveIdleS"), "a keepalive idle time in seconds, > 0 and ≤ 7200, or null",
                        upTo: 7200)
                    {
                        spec.keepaliveIdleS = .value(x)
                    } else {
                        ok = false
                    }
                }
                tr.finish()
            } else {
                ok = false
            }
        }
        if let q = r.value("quic") {
            let qp = path.appending("quic")
            if let qr = ObjectReader(q, path: qp, sink: sink, expected: "an object of QUIC settings") {
                if let v = qr.value("coalesce") {
                    spec.quicCoalesce = track(values.bool(v, qp.appending("coalesce"), "true or false"))
                }
                if let v = qr.value("zeroRtt") {
                    spec.quicZeroRtt = track(values.bool(v, qp.appending("zeroRtt"), "true or false"))
                }
                if let v = qr.value("streamPerWrite") {
                    spec.quicStreamPerWrite = track(values.bool(v, qp.appending("streamPerWrite"), "true or false"))
                }
                if let v = qr.value("certificateBytes") {
                    spec.quicCertificateBytes = track(
                        values.integer(
                            v, qp.appending("certificateBytes"), "a certificate size in bytes in 0...65536",
                            in: 0...65_536
                        ).map(Int.init))
                }
                qr.finish()
            } else {
                ok = false
            }
        }
        return ok ? spec : nil
    }
}
