/// The `transport` section's keys, each declared once: the decoder's checks and
/// messages, the schema's `transport` object and the table in `docs/models/transport.md` come
/// from here. The defaults shown are read from the types that hold them (`TcpConfig`,
/// `QuicConfig`, `HostStack`'s IP settings), where each one's source is given.
public enum TransportParameters {
    /// `transport.ipVersion` when the file gives none: IPv6 link-local, as AWDL uses
    /// (`../shared/reference/radio.md`: "data frames are IPv6 link-local").
    public static let defaultIpVersion = IpVersion.ipv6
    /// `transport.maxDatagramBytes` when the file gives none: Darwin's largest UDP datagram,
    /// xnu's `udp_sendspace` = 9216 (`bsd/netinet/udp_usrreq.c`; transport.md, "Darwin buffers").
    public static let defaultMaxDatagramBytes = 9216

    static func milliseconds(_ t: SimTime) -> String { JSONNumber(Double(t.nanoseconds) / 1e6).literal }
    static func seconds(_ t: SimTime?) -> String { t.map { JSONNumber(Double($0.nanoseconds) / 1e9).literal } ?? "null" }
    static func word(_ s: String) -> String { "\"\(s)\"" }

    /// TCP's keys (`transport.tcp`).
    static let tcp: ParameterSection<TransportSpec> = {
        let d = TcpConfig()
        return ParameterSection(
            "tcp",
            [
                Parameter(
                    "congestionControl", .choice(CongestionControl.allCases.map(\.rawValue), set: { spec, w in spec.congestionControl = CongestionControl(rawValue: w) }),
                    default: word(d.congestionControl.rawValue), help: "the congestion controller",
                    expected: "a congestion controller",
                    source: .cited("CUBIC (RFC 9438) as on Apple platforms and Linux; transport.md")),
                Parameter(
                    "noDelay", .bool(set: { $0.noDelay = $1 }), default: "\(d.noDelay)", help: "Nagle off (`true`) or on",
                    expected: "true or false", source: .cited("Network.framework's default `noDelay = false`")),
                Parameter(
                    "delayedAckMs", .duration(upTo: 500, unit: "ms", scale: 0.001, allowZero: true, nullable: false, set: { $0.delayedAckMs = $1 }),
                    default: milliseconds(d.delayedAck), help: "the delayed-ACK timer (0: every segment ACKed at once)",
                    expected: "a delayed-ACK timer in ms in {range} (RFC 1122 limit)",
                    source: .cited("XNU's 100 ms; RFC 1122 §4.2.3.2 allows at most 500 ms")),
                Parameter(
                    "ackOnPush", .bool(set: { $0.ackOnPush = $1 }), default: "\(d.ackOnPush)",
                    help: "a segment that carries PSH is ACKed at once, not delayed", expected: "true or false",
                    source: .cited("XNU `tcp_cc_delay_ack`, `bsd/netinet/tcp_cc.c`")),
                Parameter(
                    "minRtoMs", .number(1...60_000, unit: "ms", set: { $0.minRtoMs = $1 }), default: milliseconds(d.minRto),
                    help: "the retransmission timeout's floor", expected: "a minimum RTO in ms in {range}",
                    source: .assumption("Linux's 200 ms for Darwin (RFC 6298 §2.4's 1 s is a SHOULD)")),
                Parameter(
                    "sendBufferBytes", .integer(1024...(1 << 30), unit: "bytes", set: { $0.sendBufferBytes = $1 }), default: "\(d.sendBuffer)",
                    help: "the socket's send buffer", expected: "a send buffer in bytes in {range}",
                    source: .assumption("Darwin's automatic buffer limit, 2 MiB")),
                Parameter(
                    "receiveBufferBytes", .integer(1024...(1 << 30), unit: "bytes", set: { $0.receiveBufferBytes = $1 }), default: "\(d.receiveBuffer)",
                    help: "the socket's receive buffer, advertised as the (scaled) window",
                    expected: "a receive buffer in bytes in {range}",
                    source: .assumption("Darwin's automatic buffer limit, 2 MiB")),
                Parameter(
                    "sack", .bool(set: { $0.sack = $1 }), default: "\(d.sack)", help: "selective acknowledgements (RFC 2018, RFC 6675 recovery)",
                    expected: "true or false",
                    source: .assumption("off, so the default stack is NewReno/CUBIC with fast recovery")),
                Parameter(
                    "keepaliveIdleS", .duration(upTo: 7200, unit: "s", scale: 1, allowZero: false, nullable: true, set: { spec, s in spec.keepaliveIdleS = s.map { .value($0) } ?? .off }),
                    default: seconds(d.keepaliveIdle), help: "idle time before a keepalive probe",
                    expected: "a keepalive idle time in seconds, {range}, or null",
                    source: .cited("the thesis app's 2 s (seed 001)"))
            ], objectExpected: "an object of TCP settings")
    }()

    /// QUIC's keys (`transport.quic`).
    static let quic: ParameterSection<TransportSpec> = {
        let d = QuicConfig()
        return ParameterSection(
            "quic",
            [
                Parameter(
                    "coalesce", .bool(set: { $0.quicCoalesce = $1 }), default: "\(d.coalesce)",
                    help: "queued contiguous stream data packed into one packet", expected: "true or false",
                    source: .cited("RFC 9000 §12.4, §13")),
                Parameter(
                    "zeroRtt", .bool(set: { $0.quicZeroRtt = $1 }), default: "\(d.zeroRtt)", help: "0-RTT data on resumption", expected: "true or false",
                    source: .cited("RFC 9001 §4.6; a first connection has no ticket")),
                Parameter(
                    "streamPerWrite", .bool(set: { $0.quicStreamPerWrite = $1 }), default: "\(d.streamPerWrite)",
                    help: "one stream per application write instead of one for all", expected: "true or false",
                    source: .assumption("an NWConnection over QUIC carries one bidirectional stream")),
                Parameter(
                    "certificateBytes", .integer(0...65_536, unit: "bytes", set: { $0.quicCertificateBytes = $1 }), default: "\(d.certificateBytes)",
                    help: "the certificate chain in the server's flight", expected: "a certificate size in bytes in {range}",
                    source: .assumption("one 1500-byte self-signed certificate"))
            ], objectExpected: "an object of QUIC settings")
    }()

    /// The declarations, in the order the docs and the schema list them.
    static let section = ParameterSection<TransportSpec>(
        "transport",
        [
            Parameter(
                "ipVersion", .choice(IpVersion.allCases.map(\.rawValue), set: { spec, w in spec.ipVersion = IpVersion(rawValue: w) }), default: word(defaultIpVersion.rawValue),
                help: "the flows' IP version", expected: "an IP version",
                source: .cited("radio.md: AWDL's data frames are IPv6 link-local")),
            Parameter(
                "maxDatagramBytes", .integer(1...65_507, unit: "bytes", set: { $0.maxDatagramBytes = $1 }), default: "\(defaultMaxDatagramBytes)",
                help: "the largest UDP write; a larger one fails", expected: "a datagram limit in bytes in {range}",
                source: .cited("xnu `udp_sendspace` = 9216, `bsd/netinet/udp_usrreq.c`; transport.md"))
        ], subsections: [tcp, quic])
}
