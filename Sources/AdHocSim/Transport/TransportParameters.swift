/// The `transport` section's keys, each declared once: the decoder's checks and
/// messages, the schema's `transport` object and the table in `docs/models/transport.md` come
/// from here. Each key sets the field of `TransportSpec` (its `tcp` and `quic` settings) the
/// endpoints run with, whose initial value is its one default.
public enum TransportParameters {
    /// The defaults, read from the settings' own fields.
    private static let defaults = TransportSpec()

    static func milliseconds(_ t: SimTime) -> String { JSONNumber(Double(t.nanoseconds) / 1e6).literal }
    static func seconds(_ t: SimTime?) -> String {
        t.map { JSONNumber(Double($0.nanoseconds) / 1e9).literal } ?? "null"
    }
    static func word(_ s: String) -> String { "\"\(s)\"" }

    /// TCP's keys (`transport.tcp`).
    static let tcp: ParameterSection<TransportSpec> = {
        let d = defaults.tcp
        return ParameterSection(
            "tcp",
            [
                Parameter(
                    "congestionControl",
                    .choice(
                        CongestionControl.allCases.map(\.rawValue),
                        set: { spec, w in if let c = CongestionControl(rawValue: w) { spec.tcp.congestionControl = c } }
                    ),
                    default: word(d.congestionControl.rawValue), help: "the congestion controller",
                    expected: "a congestion controller",
                    source: .cited("CUBIC (RFC 9438) as on Apple platforms and Linux; transport.md")),
                Parameter(
                    "noDelay", .bool(set: { $0.tcp.noDelay = $1 }), default: "\(d.noDelay)",
                    help: "Nagle off (`true`) or on",
                    expected: "true or false", source: .cited("Network.framework's default `noDelay = false`")),
                Parameter(
                    "delayedAckMs",
                    .duration(
                        upTo: 500, unit: "ms", scale: 0.001, allowZero: true, nullable: false,
                        set: { $0.tcp.delayedAck = .milliseconds($1 ?? 0) }),
                    default: milliseconds(d.delayedAck), help: "the delayed-ACK timer (0: every segment ACKed at once)",
                    expected: "a delayed-ACK timer in ms in {range} (RFC 1122 limit)",
                    source: .cited("XNU's 100 ms; RFC 1122 §4.2.3.2 allows at most 500 ms")),
                Parameter(
                    "ackOnPush", .bool(set: { $0.tcp.ackOnPush = $1 }), default: "\(d.ackOnPush)",
                    help: "a segment that carries PSH is ACKed at once, not delayed", expected: "true or false",
                    source: .cited("XNU `tcp_cc_delay_ack`, `bsd/netinet/tcp_cc.c`")),
                Parameter(
                    "minRtoMs", .number(1...60_000, unit: "ms", set: { $0.tcp.minRto = .milliseconds($1) }),
                    default: milliseconds(d.minRto),
                    help: "the retransmission timeout's floor", expected: "a minimum RTO in ms in {range}",
                    source: .assumption("Linux's 200 ms for Darwin (RFC 6298 §2.4's 1 s is a SHOULD)")),
                Parameter(
                    "sendBufferBytes",
                    .integer(
                        1024...(1 << 30), unit: "bytes",
                        set: { spec, bytes in
                            spec.tcp.sendBuffer = Int64(bytes); spec.quic.sendBuffer = Int64(bytes)
                        }), default: "\(d.sendBuffer)",
                    help: "the socket's send buffer", expected: "a send buffer in bytes in {range}",
                    source: .assumption("Darwin's automatic buffer limit, 2 MiB")),
                Parameter(
                    "receiveBufferBytes",
                    .integer(1024...(1 << 30), unit: "bytes", set: { $0.tcp.receiveBuffer = Int64($1) }),
                    default: "\(d.receiveBuffer)",
                    help: "the socket's receive buffer, advertised as the (scaled) window",
                    expected: "a receive buffer in bytes in {range}",
                    source: .assumption("Darwin's automatic buffer limit, 2 MiB")),
                Parameter(
                    "sack", .bool(set: { $0.tcp.sack = $1 }), default: "\(d.sack)",
                    help: "selective acknowledgements (RFC 2018, RFC 6675 recovery)",
                    expected: "true or false",
                    source: .assumption("off, so the default stack is NewReno/CUBIC with fast recovery")),
                Parameter(
                    "keepaliveIdleS",
                    .duration(
                        upTo: 7200, unit: "s", scale: 1, allowZero: false, nullable: true,
                        set: { spec, s in spec.tcp.keepaliveIdle = s.map { SimTime.seconds($0) } }),
                    default: seconds(d.keepaliveIdle), help: "idle time before a keepalive probe",
                    expected: "a keepalive idle time in seconds, {range}, or null",
                    source: .cited("the thesis app's 2 s (seed 001)"))
            ], objectExpected: "an object of TCP settings")
    }()

    /// QUIC's keys (`transport.quic`).
    static let quic: ParameterSection<TransportSpec> = {
        let d = defaults.quic
        return ParameterSection(
            "quic",
            [
                Parameter(
                    "coalesce", .bool(set: { $0.quic.coalesce = $1 }), default: "\(d.coalesce)",
                    help: "queued contiguous stream data packed into one packet", expected: "true or false",
                    source: .cited("RFC 9000 §12.4, §13")),
                Parameter(
                    "zeroRtt", .bool(set: { $0.quic.zeroRtt = $1 }), default: "\(d.zeroRtt)",
                    help: "0-RTT data on resumption", expected: "true or false",
                    source: .cited("RFC 9001 §4.6; a first connection has no ticket")),
                Parameter(
                    "streamPerWrite", .bool(set: { $0.quic.streamPerWrite = $1 }), default: "\(d.streamPerWrite)",
                    help: "one stream per application write instead of one for all", expected: "true or false",
                    source: .assumption("an NWConnection over QUIC carries one bidirectional stream")),
                Parameter(
                    "certificateBytes", .integer(0...65_536, unit: "bytes", set: { $0.quic.certificateBytes = $1 }),
                    default: "\(d.certificateBytes)",
                    help: "the certificate chain in the server's flight",
                    expected: "a certificate size in bytes in {range}",
                    source: .assumption("one 1500-byte self-signed certificate"))
            ], objectExpected: "an object of QUIC settings")
    }()

    /// The declarations, in the order the docs and the schema list them.
    static let section = ParameterSection<TransportSpec>(
        "transport",
        [
            Parameter(
                "ipVersion",
                .choice(
                    IpVersion.allCases.map(\.rawValue),
                    set: { spec, w in if let v = IpVersion(rawValue: w) { spec.ipVersion = v } }),
                default: word(defaults.ipVersion.rawValue),
                help: "the flows' IP version", expected: "an IP version",
                source: .cited("radio.md: AWDL's data frames are IPv6 link-local")),
            Parameter(
                "maxDatagramBytes", .integer(1...65_507, unit: "bytes", set: { $0.maxDatagramBytes = $1 }),
                default: "\(defaults.maxDatagramBytes)",
                help: "the largest UDP write; a larger one fails", expected: "a datagram limit in bytes in {range}",
                source: .cited("xnu `udp_sendspace` = 9216, `bsd/netinet/udp_usrreq.c`; transport.md"))
        ], subsections: [tcp, quic])
}
