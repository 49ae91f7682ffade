import Foundation

/// What a run's Bluetooth LE scanners learnt: per scanner–advertiser pair, per scanner and per
/// advertiser, in file order (scanner-major for pairs).
///
/// Discovery latency of a pair is the first app report minus the later of the two devices'
/// start times. Distance from RSSI follows the log-distance model an app inverts:
///
///     d̂ = 10^((P_tx − L₀ − RSSI̅) / (10·n))
///
/// with P_tx the advertised TX power level when the advertiser includes it, else
/// `ble.estimator.assumedTxPowerDbm`; L₀ the free-space loss at 1 m and 2.44 GHz (40.2 dB);
/// n = `ble.estimator.exponent`; RSSI̅ the mean of the RSSI samples the app saw (dB).
public struct BleMetrics: Sendable {
    /// One scanner–advertiser pair.
    public struct Pair: Sendable {
        /// Indices into `scanners` and `advertisers`.
        public var scanner: Int
        /// See `scanner`.
        public var advertiser: Int
        /// The raw record.
        public var record: BlePairRecord
        /// First app report minus the later start, s (`nil`: never reported).
        public var discoveryS: Double?
        /// 1 − received / heardable (`nil` when nothing was heardable).
        public var lossRatio: Double?
        /// Mean and standard deviation of the RSSI samples, dBm / dB.
        public var rssiMean: Double?
        /// See `rssiMean`.
        public var rssiSd: Double?
        /// Mean true distance at the samples, m; distance at the start when there were none.
        public var distance: Double
        /// Distance estimated from the mean RSSI, m.
        public var estimatedDistance: Double?
    }

    /// One scanner.
    public struct Scanner: Sendable {
        /// Node index.
        public var node: Int
        /// Advertisers in the scenario (excluding one on the scanner's own node).
        public var advertisers: Int
        /// Advertisers the app reported.
        public var discovered: Int
        /// Advertisers reported within 1, 5 and 10 s of the later start.
        public var within1s: Int
        /// See `within1s`.
        public var within5s: Int
        /// See `within1s`.
        public var within10s: Int
        /// Median and 90th percentile of the discovery latency, s.
        public var medianDiscoveryS: Double?
        /// See `medianDiscoveryS`.
        public var p90DiscoveryS: Double?
        /// Distinct identifiers the app saw (a rotated address counts again).
        public var identifiers: Int
        /// Advertising PDUs heardable and received over all advertisers.
        public var heardable: Int
        /// See `heardable`.
        public var received: Int
        /// Scan windows, SCAN_REQs, SCAN_RSPs received, receptions cut by a window's end.
        public var windows: UInt64
        /// See `windows`.
        public var requestsSent: UInt64
        /// See `windows`.
        public var responsesReceived: UInt64
        /// See `windows`.
        public var receptionsCut: UInt64
        /// Median of d̂/d over the advertisers it reported.
        public var medianDistanceRatio: Double?
        /// Median of |d̂ − d|/d over the advertisers it reported.
        public var medianDistanceError: Double?
    }

    /// One advertiser.
    public struct Advertiser: Sendable {
        /// Its settings.
        public var spec: BleAdvertiserSpec
        /// Advertising events and PDUs sent, SCAN_REQs received, SCAN_RSPs sent.
        public var events: UInt64
        /// See `events`.
        public var pdusSent: UInt64
        /// See `events`.
        public var requestsReceived: UInt64
        /// See `events`.
        public var responsesSent: UInt64
        /// Scanners whose app reported it.
        public var discoveredBy: Int
        /// Its advertising PDUs decoded, summed over scanners.
        public var pdusReceived: Int
    }

    /// Pairs, scanner-major.
    public var pairs: [Pair]
    /// Scanners, in file order.
    public var scanners: [Scanner]
    /// Advertisers, in file order.
    public var advertisers: [Advertiser]
    /// RSSI samples (`ble.recordRssi`).
    public var samples: [BleRssiSample]
    /// Wi-Fi frames each interferer sent.
    public var wifiFrames: [UInt64]

    /// One LE connection's figures (`ble.connections`).
    public struct Connection: Sendable {
        /// Its settings.
        public var spec: BleConnectionSpec
        /// `atS` to the first connection event, s (`nil`: never connected): with an initiating
        /// central, the wait for the peripheral's advertisement, T_IFS, CONNECT_IND and
        /// transmitWindowDelay.
        public var setupS: Double?
        /// Connection events held, LL PDUs sent by both ends, data PDUs sent again.
        public var events: UInt64
        /// See `events`.
        public var pdusSent: UInt64
        /// See `events`.
        public var retransmissions: UInt64
        /// Notified value bytes delivered to the central.
        public var valueBytesDelivered: Int
        /// When the last notification arrived (all queued ones), or `nil`.
        public var completed: SimTime?
        /// When the supervision timeout ended the link, or `nil`.
        public var lost: SimTime?
        /// Value bytes × 8 over the first connection event to the completion (or the run's
        /// end), kbit/s.
        public var goodputKbps: Double?
    }
    /// Connections, in file order.
    public var connections: [Connection] = []

    /// Reads the network at the end of a run.
    public init(_ net: BleNetwork, end: SimTime = .zero) {
        let spec = net.spec
        let referenceLoss = FreeSpace.lossDb(distance: 1, frequencyHz: BleMedium.bandCentreHz)
        let na = net.advertisers.count
        var pairs: [Pair] = []
        for s in net.scanners.indices {
            for a in net.advertisers.indices {
                let r = net.pairs[s * na + a]
                let sc = net.scanners[s].spec, ad = net.advertisers[a].spec
                let start = Swift.max(sc.start, ad.start)
                var pair = Pair(
                    scanner: s, advertiser: a, record: r,
                    discoveryS: r.firstReport.map { ($0 - start).inSeconds },
                    lossRatio: r.heardable > 0 ? 1 - Double(r.received) / Double(r.heardable) : nil,
                    rssiMean: nil, rssiSd: nil,
                    distance: net.medium.nodes.position(of: sc.node, at: start).distance(
                        to: net.medium.nodes.position(of: ad.node, at: start)),
                    estimatedDistance: nil)
                if r.rssiCount > 0 {
                    let n = Double(r.rssiCount)
                    let mean = r.rssiSum / n
                    pair.rssiMean = mean
                    pair.rssiSd = Swift.max(0, r.rssiSquares / n - mean * mean).squareRoot()
                    pair.distance = r.distanceSum / n
                    // The advertised level: the TX Power AD structure's value when `data` gives one.
                    let advertised = ad.data?.txPower.map(Double.init) ?? ad.txPowerDbm
                    let tx = ad.advertisesTxPower ? advertised : spec.estimatorTxPowerDbm
                    pair.estimatedDistance = pow(10, (tx - referenceLoss - mean) / (10 * spec.estimatorExponent))
                }
                pairs.append(pair)
            }
        }
        self.pairs = pairs
        scanners = net.scanners.enumerated().map { s, st in
            let mine = pairs[(s * na)..<((s + 1) * na)].filter {
                net.advertisers[$0.advertiser].spec.node != st.spec.node
            }
            let latencies = mine.compactMap(\.discoveryS).sorted()
            let ratios = mine.compactMap { p in p.estimatedDistance.map { $0 / Swift.max(p.distance, 0.1) } }.sorted()
            let errors = ratios.map { abs($0 - 1) }.sorted()
            return Scanner(
                node: st.spec.node, advertisers: mine.count, discovered: latencies.count,
                within1s: latencies.filter { $0 <= 1 }.count, within5s: latencies.filter { $0 <= 5 }.count,
                within10s: latencies.filter { $0 <= 10 }.count,
                medianDiscoveryS: latencies.isEmpty ? nil : FlowMetrics.percentile(latencies, 50),
                p90DiscoveryS: latencies.isEmpty ? nil : FlowMetrics.percentile(latencies, 90),
                identifiers: mine.map { Int($0.record.identifiers) }.reduce(0, +),
                heardable: mine.map { Int($0.record.heardable) }.reduce(0, +),
                received: mine.map { Int($0.record.received) }.reduce(0, +),
                windows: st.windows, requestsSent: st.requestsSent, responsesReceived: st.responsesReceived,
                receptionsCut: st.receptionsCut,
                medianDistanceRatio: ratios.isEmpty ? nil : FlowMetrics.percentile(ratios, 50),
                medianDistanceError: errors.isEmpty ? nil : FlowMetrics.percentile(errors, 50))
        }
        advertisers = net.advertisers.enumerated().map { a, st in
            Advertiser(
                spec: st.spec, events: st.events, pdusSent: st.pdusSent, requestsReceived: st.requestsReceived,
                responsesSent: st.responsesSent,
                discoveredBy: net.scanners.indices.filter { net.pairs[$0 * na + a].firstReport != nil }.count,
                pdusReceived: net.scanners.indices.map { Int(net.pairs[$0 * na + a].received) }.reduce(0, +))
        }
        samples = net.samples
        wifiFrames = net.wifi.map(\.frames)
        let runEnd = end
        connections = net.connections.map { x in
            let end = x.completed ?? x.lost ?? runEnd
            let span = (end - x.firstAnchor).inSeconds
            return Connection(
                spec: x.spec, setupS: x.started ? (x.firstAnchor - x.spec.at).inSeconds : nil, events: x.events,
                pdusSent: x.pdusSent,
                retransmissions: x.retransmissions, valueBytesDelivered: x.valueBytesDelivered, completed: x.completed,
                lost: x.lost,
                goodputKbps: x.started && span > 0 && x.spec.notifyBytes > 0 ? Double(x.valueBytesDelivered) * 8 / span / 1000 : nil)
        }
    }
}
