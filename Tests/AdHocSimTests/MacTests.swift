import Foundation
import Testing
@testable import AdHocSim

/// A scenario on an idealised channel: no shadowing, fading or blockage.
func linkScenario(nodes: [(String, Double, Double)], radio: String, traffic: String, duration: Double = 10, extra: String = "") throws -> Scenario {
    let nodeList = nodes.map { "{\"id\": \"\($0.0)\", \"position\": [\($0.1), \($0.2), 1.2]}" }.joined(separator: ", ")
    let text = """
    {"name": "t", "seed": 7, "duration_s": \(duration),
     "environment": {"preset": "custom", "pathLossExponent": 2, "referenceLossDb": 47.6, "shadowingSigmaDb": 0,
                     "noiseFigureDb": 7, "interferenceDb": 0},
     "radio": \(radio), \(extra)
     "nodes": [\(nodeList)], "traffic": \(traffic)}
    """
    return try ScenarioDecoder.decode(bytes: Array(text.utf8), file: "t.json")
}

/// Bianchi's saturation throughput of the DCF (Bianchi, IEEE JSAC 18(3), 2000, eqs. 7, 9, 13),
/// basic access, n stations, minimum window W = CWmin + 1, m doubling stages.
func bianchiThroughput(n: Int, w: Double, m: Int, payloadBits: Double, slot: Double, ts: Double, tc: Double) -> Double {
    // Solve p = 1 − (1 − τ(p))^(n−1) by bisection on p.
    func tau(_ p: Double) -> Double {
        2 * (1 - 2 * p) / ((1 - 2 * p) * (w + 1) + p * w * (1 - pow(2 * p, Double(m))))
    }
    var lo = 0.0, hi = 0.999
    for _ in 0..<200 {
        let p = (lo + hi) / 2
        let f = 1 - pow(1 - tau(p), Double(n - 1)) - p
        if f > 0 { lo = p } else { hi = p }
    }
    let t = tau((lo + hi) / 2)
    let ptr = 1 - pow(1 - t, Double(n))
    let ps = Double(n) * t * pow(1 - t, Double(n - 1)) / ptr
    return ps * ptr * payloadBits / ((1 - ptr) * slot + ptr * ps * ts + ptr * (1 - ps) * tc)
}

@Suite("802.11 MAC")
struct MacTests {
    @Test(arguments: [2, 5, 10])
    func saturationThroughputMatchesBianchi(stations: Int) throws {
        // Stations on a 5 m circle around a sink that only acknowledges: everyone hears everyone,
        // equal powers (so a collision destroys both frames), fixed MCS 4 at 20 MHz, one stream,
        // no aggregation, 1500-byte payloads.
        var nodes = [("sink", 0.0, 0.0)]
        var traffic: [String] = []
        for k in 0..<stations {
            let a = 2 * Double.pi * Double(k) / Double(stations)
            nodes.append(("s\(k)", 5 * cos(a), 5 * sin(a)))
            traffic.append("{\"kind\": \"saturated\", \"from\": \"s\(k)\", \"to\": \"sink\", \"bytes\": 1500}")
        }
        let scenario = try linkScenario(nodes: nodes, radio: "{\"technology\": \"wifi\", \"mcs\": 4, \"channelWidthMHz\": 20, \"spatialStreams\": 1}",
                                        traffic: "[" + traffic.joined(separator: ", ") + "]", duration: 20,
                                        extra: "\"mac\": {\"aggregation\": false},")
        let report = try ScenarioRunner.run(scenario)
        let simulated = Double(report.traffic.reduce(0) { $0 + $1.receivedBytes }) * 8 / 20

        // The same parameters by hand: slot 9 µs, SIFS 16, DIFS 34; PSDU 1500 + 30 + 4 = 1534
        // bytes at MCS 4 (16-QAM 3/4, N_DBPS 52·4·3/4 = 156): ceil((16 + 12272 + 6)/156) = 79
        // symbols → 40 + 316 = 356 µs;
        // ACK at 24 Mbit/s (the basic rate below 39 Mbit/s): 20 + 4·ceil(134/96) = 28 µs.
        let phy = OfdmPhy(widthMHz: 20, spatialStreams: 1)
        let data = Double(phy.airtimeNanos(psduBytes: 1534, mcs: Mcs(index: 4))) * 1e-9
        #expect(close(data, 356e-6, 1e-12))
        let ts = 34e-6 + data + 16e-6 + 28e-6
        // A collision keeps the channel for about as long (listeners wait EIFS, senders time out).
        let analytic = bianchiThroughput(n: stations, w: 16, m: 6, payloadBits: 12_000, slot: 9e-6, ts: ts, tc: ts)
        #expect(abs(simulated / analytic - 1) < 0.10, "N = \(stations): simulated \(simulated / 1e6) Mbit/s, Bianchi \(analytic / 1e6) Mbit/s")
    }
}
