/// An LE connection's keys (`ble.connections[i]`), each declared once; the rule
/// between the interval, the latency and the supervision timeout stays after the declarations
/// (`decodeBleConnection`).
enum BleConnectionParameters {
    /// One connection being read.
    struct Item: NodeReferencing, RunBounded {
        let nodeIndex: [String: Int]
        let runDuration: Double?
        var central: Int?
        var peripheral: Int?
        var value = BleConnectionSpec(
            central: 0, peripheral: 0, at: .zero, intervalMs: 30, latency: 0, supervisionTimeoutMs: 4000, phy: .le1M,
            dataLength: 27, mtu: 23, channelSelection: 2, txPowerDbm: 0, notifyBytes: 0, iosCentral: true)
    }

    /// A time in milliseconds within `range` on a grid of `step` ms.
    static func gridMs(
        _ key: String, _ range: ClosedRange<Double>, step: Double, what: String, offGrid: String, default value: String,
        help: String, source: Parameter<Item>.Source, set: @escaping @Sendable (inout Item, Double) -> Void
    ) -> Parameter<Item> {
        let (lo, hi, st) = (
            JSONNumber(range.lowerBound).literal, JSONNumber(range.upperBound).literal, JSONNumber(step).literal
        )
        return Parameter(
            key,
            .custom(
                schema: .number.minimum(range.lowerBound).maximum(range.upperBound).multipleOf(step),
                value: "\(lo) … \(hi) ms, a multiple of \(st)",
                decode: { values, v, at, _, item in
                    guard let ms = values.number(v, at, "\(what) in \(lo)...\(hi) ms", in: range) else { return false }
                    guard abs(ms / step - (ms / step).rounded()) < 1e-9 else {
                        values.sink.report(
                            "expected \(what) \(offGrid), found \(JSONNumber(ms).literal)", path: at, at: v.origin)
                        return false
                    }
                    set(&item, ms)
                    return true
                }),
            default: value, help: help, expected: what, source: source)
    }

    static let section = ParameterSection<Item>(
        "ble.connections[i]",
        [
            .nodeReference("central", help: "the initiator, which becomes the central (the phone)") { $0.central = $1 },
            .nodeReference("peripheral", help: "the device it connects to") { $0.peripheral = $1 },
            .startSeconds(
                "atS",
                help: "when the central sends CONNECT_IND (or, with `initiate`, starts listening for the peripheral)"
            ) { $0.value.at = $1 },
            gridMs(
                "intervalMs", 7.5...4000, step: 1.25, what: "a connection interval",
                offGrid: "on the 1.25 ms grid (Core Specification v5.4, Vol 6, Part B §4.5.2)", default: "30",
                help: "connInterval",
                source: .assumption("the 30 ms iOS often grants (Apple documents only the allowed range)")
            ) { $0.value.intervalMs = $1 },
            Parameter(
                "latency", .integer(0...499, unit: "events", set: { $0.value.latency = $1 }), default: "0",
                help: "peripheral latency: events an idle peripheral may skip",
                expected: "a peripheral latency in {range}",
                source: .cited("Core Specification v5.4, Vol 6, Part B §4.5.1")),
            gridMs(
                "supervisionTimeoutMs", 100...32000, step: 10, what: "a supervision timeout",
                offGrid: "in whole 10 ms units",
                default: "4000", help: "connSupervisionTimeout: the link is lost after this long without a packet",
                source: .assumption("within Apple's 2–6 s for accessories")
            ) { $0.value.supervisionTimeoutMs = $1 },
            Parameter(
                "phy", .choice(["1M", "2M"], set: { $0.value.phy = $1 == "2M" ? .le2M : .le1M }), default: "\"1M\"",
                help: "the data PHY", expected: "a data PHY",
                source: .cited("Core Specification v5.4, Vol 6, Part A §3")),
            Parameter(
                "dataLength", .integer(27...251, unit: "bytes", set: { $0.value.dataLength = $1 }), default: "27",
                help: "the LL payload limit (up to 251 with the data length extension)",
                expected: "an LL payload limit in {range} bytes",
                source: .cited("Core Specification v5.4, Vol 6, Part B §2.4, §4.5.10")),
            Parameter(
                "mtu", .integer(23...517, unit: "bytes", set: { $0.value.mtu = $1 }), default: "23",
                help: "ATT_MTU (a notification carries MTU − 3 value bytes)", expected: "an ATT_MTU in {range} bytes",
                source: .cited("Core Specification v5.4, Vol 3, Part F §3.2.8, §3.4.7.1")),
            Parameter(
                "channelSelection", .oneOf([1, 2], unit: "", set: { $0.value.channelSelection = $1 }), default: "2",
                help: "the data channel selection algorithm", expected: "a channel selection algorithm",
                source: .cited("Core Specification v5.4, Vol 6, Part B §4.5.8")),
            Parameter(
                "channels",
                .custom(
                    schema: .array(of: .integer.minimum(0).maximum(36)).minItems(2),
                    value: "data channels 0 … 36, at least 2",
                    decode: { values, v, at, _, item in
                        guard let list = values.array(v, at, "a list of data channels") else { return false }
                        var channels: [Int] = []
                        for (k, e) in list.enumerated() {
                            guard let n = values.integer(e, at.appending(k), "a data channel in 0...36", in: 0...36)
                            else { return false }
                            channels.append(Int(n))
                        }
                        guard let map = BleChannelMap(channels) else {
                            values.sink.report(
                                "a channel map needs at least 2 different data channels (§4.5.8)", path: at,
                                at: v.origin)
                            return false
                        }
                        item.value.channelMap = map
                        return true
                    }),
                default: "all 37",
                help:
                    "the channel map: the data channels the connection hops over (a central leaves out those a Wi-Fi network occupies)",
                expected: "a channel map", source: .cited("Core Specification v5.4, Vol 6, Part B §4.5.8")),
            Parameter(
                "txPowerDbm", .number(-20...20, unit: "dBm", set: { $0.value.txPowerDbm = $1 }), default: "0",
                help: "both ends' transmit power", expected: "a TX power in dBm, {range}", source: .assumption("0 dBm")),
            Parameter(
                "initiate", .bool(set: { $0.value.initiate = $1 }), default: "false",
                help:
                    "the central sends CONNECT_IND when one of its scanners hears the peripheral's connectable advertising from `atS` on (false: at `atS`)",
                expected: "true or false", source: .cited("Core Specification v5.4, Vol 6, Part B §4.4.4")),
            Parameter(
                "centralOs", .choice(["ios", "any"], set: { $0.value.iosCentral = $1 == "ios" }), default: "\"ios\"",
                help:
                    "`ios`: the central is an iPhone and Apple's rules for connection parameters apply; `any`: only the specification's",
                expected: "a central's operating system",
                source: .cited("Apple, Accessory Design Guidelines for Apple Devices, \"Connection Parameters\"")),
            Parameter(
                "notifyBytes", .integer(0...1_000_000_000, unit: "bytes", set: { $0.value.notifyBytes = $1 }),
                default: "0",
                help: "value bytes the peripheral notifies, queued at the start",
                expected: "a number of bytes in {range}",
                source: .assumption("none"))
        ], objectExpected: "a connection {\"central\", \"peripheral\", \"atS\"?, \"intervalMs\"?, ...}")
}

extension ScenarioDecoder {
    /// One connection: its declared keys, then two different nodes and the supervision
    /// timeout's rule, connSupervisionTimeout > (1 + latency) · connInterval · 2 (Vol 6, Part B
    /// §4.5.2).
    func decodeBleConnection(
        _ item: JSONNode, _ p: JSONPath, nodeIndex: [String: Int], duration: Double?
    ) -> BleConnectionSpec? {
        let blank = BleConnectionParameters.Item(nodeIndex: nodeIndex, runDuration: duration)
        let read = values.decodeAll(BleConnectionParameters.section, item, p, into: blank, perNode: false) { r, it in
            var ok = true
            if let c = it.central, let q = it.peripheral, c == q {
                self.sink.report(
                    "a connection needs two different nodes", path: p.appending("peripheral"),
                    at: r.value("peripheral")?.origin ?? item.origin)
                ok = false
            }
            let v = it.value
            let least = Double(1 + v.latency) * v.intervalMs * 2
            if v.supervisionTimeoutMs <= least {
                self.sink.report(
                    "the supervision timeout (\(JSONNumber(v.supervisionTimeoutMs).literal) ms) must exceed (1 + latency) × interval × 2 = "
                        + "\(JSONNumber(least).literal) ms (Core Specification v5.4, Vol 6, Part B §4.5.2)",
                    path: p.appending("supervisionTimeoutMs"),
                    at: r.value("supervisionTimeoutMs")?.origin ?? item.origin)
                ok = false
            }
            if ok && v.iosCentral {
                for (key, message) in v.iosProblems {
                    self.sink.report(
                        message
                            + " (Accessory Design Guidelines for Apple Devices); set \"centralOs\": \"any\" to study another central",
                        path: p.appending(key), at: r.value(key)?.origin ?? item.origin)
                    ok = false
                }
            }
            return ok
        }
        guard let (it, ok) = read, ok, let c = it.central, let q = it.peripheral else { return nil }
        var spec = it.value
        spec.central = c
        spec.peripheral = q
        return spec
    }
}
