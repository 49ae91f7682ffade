import Foundation
import Testing
@testable import AdHocSim

/// Runs tshark (installed by `.ci/run`) and returns its standard output lines.
func tshark(_ args: [String]) throws -> [String] {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["tshark"] + args
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    let data = readToEnd(out.fileHandleForReading)
    p.waitUntilExit()
    expectEqual(p.terminationStatus, 0, "tshark \(args) failed")
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
}

@Suite("Packet traces")
struct TraceTests {
    static let scenario: String = {
        var t = TestScenario(name: "pc", seed: 1, duration: 25, radio: ["technology": "ideal"])
        t["link"] = ["rateMbps": 100, "delayMs": 5, "lossProbability": 0.02]
        t.place("client", 0, 0)
        t.place("server", 10, 0)
        func flow(_ id: String, _ proto: String, start: Double, probes: Int, packets: Int, size: Int) -> JSON {
            [
                "id": .string(id), "from": "client", "to": "server", "protocol": .string(proto), "start_s": .number(start),
                "workload": ["kind": "thesis", "probes": .integer(probes), "packets": .integer(packets), "size": .integer(size)]
            ]
        }
        t["flows"] = [
            flow("t", "tcp", start: 0, probes: 10, packets: 300, size: 4096),
            flow("u", "udp", start: 3, probes: 5, packets: 20, size: 9000),
            flow("q", "quic", start: 5, probes: 5, packets: 20, size: 2000)
        ]
        return t.text
    }()

    @Test(ScaleCheck.trait) func tsharkReadsTheTraceAndAgreesWithOurCounters() throws {
        let s = try ScenarioDecoder.decode(bytes: Array(TraceTests.scenario.utf8), file: "pc")
        let report = try ScenarioRunner.run(s, trace: true)
        let dir = try temporaryFolder()
        let file = dir.appendingPathComponent("client.pcap")
        try Data(try require(report.traces)[0]).write(to: file)
        // Frames and bytes: every IP packet the client sent or received, over the whole run.
        let lengths = try tshark(["-r", file.path, "-T", "fields", "-e", "frame.len"]).compactMap { UInt64($0) }
        let packets = report.ipTotals.reduce(0) { $0 + $1.packetsSent + $1.packetsReceived }
        let bytes = report.ipTotals.reduce(0) { $0 + $1.bytesSent + $1.bytesReceived }
        expectEqual(UInt64(lengths.count), packets)
        expectEqual(lengths.reduce(0, +), bytes)
        // TCP retransmissions the client sent, as tshark's analysis sees them. tshark labels a
        // resent segment "out-of-order" instead of "retransmission" when it follows the previous
        // segment closely (its heuristic); in the sender's own capture nothing is sent out of
        // order for the first time, so both labels are retransmissions.
        let retransmitted = try tshark([
            "-r", file.path, "-Y",
            "ipv6.src == fe80::200:ff:fe00:1 && tcp.len > 0 && (tcp.analysis.retransmission || tcp.analysis.fast_retransmission || tcp.analysis.spurious_retransmission || tcp.analysis.out_of_order)",
            "-T", "fields", "-e", "frame.number"
        ])
        expectEqual(UInt64(retransmitted.count), report.flows[0].clientRetransmissions)
        expect(report.flows[0].clientRetransmissions > 0)
        // The protocols decode: TCP with its handshake, UDP reassembled from IPv6 fragments, QUIC.
        let syn = try tshark([
            "-r", file.path, "-Y", "tcp.flags.syn == 1 && tcp.flags.ack == 0", "-T", "fields", "-e", "tcp.srcport"
        ])
        expectEqual(syn, ["49152"])
        let udp = try tshark(["-r", file.path, "-Y", "udp.length == 9008", "-T", "fields", "-e", "udp.srcport"])
        expect(!udp.isEmpty)
        let quic = try tshark(["-r", file.path, "-Y", "quic.long.packet_type == 0", "-T", "fields", "-e", "udp.dstport"]
        )
        expectEqual(quic.first, "443")
        // Checksums are right: tshark's validation finds no bad TCP or UDP checksum.
        let bad = try tshark([
            "-r", file.path, "-o", "tcp.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
            "-Y", "tcp.checksum.status == 0 || udp.checksum.status == 0", "-T", "fields", "-e", "frame.number"
        ])
        expect(bad.isEmpty)
    }
}
