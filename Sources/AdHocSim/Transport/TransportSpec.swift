// The `transport` section: IP version, datagram limit, TCP's and QUIC's settings.

/// TCP congestion controllers (`transport.tcp.congestionControl`).
public enum CongestionControl: String, Sendable, CaseIterable {
    /// RFC 5681 with RFC 6582's fast recovery.
    case newreno
    /// RFC 9438.
    case cubic
}

/// The `transport` section: the IP settings and TCP's and QUIC's settings the endpoints run
/// with. Each field's initial value is its key's one default (`TransportParameters` documents
/// it from here; `TcpConfig` and `QuicConfig` give the sources).
public struct TransportSpec: Sendable, Equatable {
    /// The flows' IP version (`transport.ipVersion`): IPv6 link-local, as AWDL uses
    /// (`../shared/reference/radio.md`: "data frames are IPv6 link-local").
    public var ipVersion = IpVersion.ipv6
    /// The largest UDP write (`transport.maxDatagramBytes`): Darwin's largest UDP datagram,
    /// xnu's `udp_sendspace` = 9216 (`bsd/netinet/udp_usrreq.c`; transport.md, "Darwin buffers").
    public var maxDatagramBytes = 9216
    /// TCP's settings (`transport.tcp`).
    public var tcp = TcpConfig()
    /// QUIC's settings (`transport.quic`; its send buffer is `transport.tcp.sendBufferBytes`).
    public var quic = QuicConfig()
    /// The defaults.
    public init() {}
}

extension ScenarioDecoder {
    /// Decodes the `transport` object by its declarations (`TransportParameters.section`).
    func decodeTransport(_ node: JSONNode, _ path: JSONPath) -> TransportSpec? {
        decode(TransportParameters.section, node, path, into: TransportSpec(), perNode: false)
    }
}
