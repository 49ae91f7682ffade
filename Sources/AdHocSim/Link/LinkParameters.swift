/// The link layer's keys, each declared once: `link` (the `ideal` technology) and
/// `mac` (the 802.11 MAC of `awdl` and `wifi`). The decoder's checks and messages, their schema
/// objects and the tables in `docs/models/link.md` come from here; the defaults are the ones
/// `IdealLink` and `MacParameters` hold.
enum LinkParameters {
    /// `link`: the ideal point-to-point link.
    static let ideal = ParameterSection<IdealLinkSpec>(
        "link",
        [
            // At least 1 kbit/s, so that serialising the largest packet stays within the clock's range.
            Parameter(
                "rateMbps", .number(0.001...100_000, unit: "Mbit/s", set: { $0.rateMbps = $1 }), default: "100",
                help: "serialisation rate", expected: "a rate in Mbit/s in {range}",
                source: .assumption("the transport validation link")),
            Parameter(
                "delayMs",
                .duration(
                    upTo: 100_000, unit: "ms", scale: 0.001, allowZero: true, nullable: false, set: { $0.delayMs = $1 }),
                default: "25", help: "one-way propagation delay", expected: "a one-way delay in ms in {range}",
                source: .assumption("the transport validation link (50 ms RTT)")),
            Parameter(
                "lossProbability", .number(0...1, unit: "", set: { $0.lossProbability = $1 }), default: "0",
                help: "independent loss probability per packet", expected: "a loss probability in {range}",
                source: .assumption("no loss")),
            Parameter(
                "queuePackets", .integer(1...1_000_000, unit: "packets", set: { $0.queuePackets = $1 }),
                default: "1000",
                help: "drop-tail transmit queue limit", expected: "a queue limit in packets in {range}",
                source: .assumption("the transport validation link"))
        ], description: "the ideal link")

    /// `mac`: the 802.11 MAC.
    static let mac = ParameterSection<MacSpec>(
        "mac",
        [
            Parameter(
                "aggregation", .bool(set: { $0.aggregation = $1 }),
                default: "\(MacParameters(is24GHz: false).aggregation)",
                help: "unicast MPDUs to one receiver are aggregated into A-MPDUs", expected: "true or false",
                source: .cited(
                    "IEEE 802.11-2016 §10.12: a VHT PPDU always carries an A-MPDU; limits in `MacParameters`")),
            Parameter(
                "queuePackets", .integer(1...100_000, unit: "packets", set: { $0.queuePackets = $1 }),
                default: "\(MacParameters(is24GHz: false).queueLimit)", help: "transmit queue limit",
                expected: "a queue limit in packets in {range}",
                source: .assumption("ns-3's WifiMacQueue default for a phone's driver queue"))
        ])
}

/// The `link` section of the `ideal` technology.
public struct IdealLinkSpec: Sendable, Equatable {
    /// Bit rate, Mbit/s (`link.rateMbps`).
    public var rateMbps: Double?
    /// One-way propagation delay, ms (`link.delayMs`).
    public var delayMs: Double?
    /// Independent loss probability per packet (`link.lossProbability`).
    public var lossProbability: Double?
    /// Transmit queue limit, packets (`link.queuePackets`).
    public var queuePackets: Int?

    /// Nothing set.
    public init() {}
}

/// The `mac` section.
public struct MacSpec: Sendable, Equatable {
    /// A-MPDU aggregation on or off (`mac.aggregation`).
    public var aggregation: Bool?
    /// Transmit queue limit, packets (`mac.queuePackets`).
    public var queuePackets: Int?
    /// Nothing set.
    public init() {}
}

extension ScenarioDecoder {
    /// Decodes a `link` object by its declarations.
    func decodeIdealLink(_ node: JSONNode, _ path: JSONPath) -> IdealLinkSpec? {
        decode(LinkParameters.ideal, node, path, into: IdealLinkSpec(), perNode: false)
    }

    /// Decodes a `mac` object by its declarations.
    func decodeMac(_ node: JSONNode, _ path: JSONPath) -> MacSpec? {
        decode(LinkParameters.mac, node, path, into: MacSpec(), perNode: false)
    }
}
