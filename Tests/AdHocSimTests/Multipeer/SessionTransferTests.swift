import Foundation
import Testing
@testable import AdHocSim

/// Multipeer streams and resources (seed 003): pieces to one session peer, reliable and in
/// order on that hop, with progress, cancel and failures.
@Suite("Multipeer streams and resources")
struct SessionTransferTests {
    let pair = [[1], [0]]

    func resource(size: Int, at start: Double = 1, cancel: Double? = nil) -> ResourceSpec {
        ResourceSpec(
            id: "file", from: 0, to: 1, start: .seconds(start), sizeBytes: size, cancelAt: cancel.map { .seconds($0) })
    }

    /// A 1 MiB resource over a hop that loses 30 % of the frames: the receiver's pieces, put at
    /// their offsets, rebuild the file byte for byte, in order and each byte once; progress
    /// passes every tenth; and the resends match the loss. Each of the ⌈1 048 576 / 1 200⌉ = 874
    /// pieces needs a geometric number of sends with success 0.7: 874 / 0.7 = 1 248.6 sends on
    /// average, so 374.6 resends, with a standard deviation of √(874 · 0.3) / 0.7 = 23.1.
    @Test func aMegabyteResourceIsReassembledByteExactOverALossyHop() throws {
        let size = 1_048_576
        var sim = Simulation(seed: 11)
        var h = MeshHarness(
            peers: pair, config: MeshConfig(), resources: [resource(size: size)], loss: 0.3, releases: true, sim: &sim)
        h.mesh.logTransferPieces()
        _ = sim.run(&h, until: .seconds(60))
        let x = h.mesh.transfers[0]
        expectEqual(x.state, .completed)
        expectEqual(x.received, size)
        expectEqual(x.misordered, 0)
        // The file: bytes from a generator; the copy: each piece taken from the file at its offset.
        var draws = RandomStream(seed: 5, name: "test/file")
        let file = (0..<size).map { _ in UInt8(truncatingIfNeeded: draws.next()) }
        var copy = [UInt8](repeating: 0, count: size)
        var written = [Bool](repeating: false, count: size)
        var next = 0
        for p in x.pieces {
            expectEqual(p.offset, next, "pieces arrive in order")
            for k in p.offset..<(p.offset + p.length) {
                expect(!written[k])
                written[k] = true
                copy[k] = file[k]
            }
            next = p.offset + p.length
        }
        expectEqual(copy, file)
        expect(written.allSatisfy { $0 })
        expectEqual(x.pieces.count, 874)
        expectEqual(x.pieces.last?.length, size - 873 * 1200)
        // Progress: every tenth reached, in time order, 100 % when the transfer completed.
        let times = x.progress.compactMap { $0 }
        expectEqual(times.count, 10)
        expectEqual(times, times.sorted())
        expectEqual(x.progress[9], x.finished)
        expectEqual(x.framesSent, 874 + x.framesResent)
        expect((259...490).contains(Int(x.framesResent)), "374.6 ± 5σ resends, got \(x.framesResent)")
    }

    /// A stream over a lossless hop: 16 000 bytes/s in writes of 320 bytes is one write every
    /// 20 ms, 50 writes in a second; each write is one piece, delivered 1 ms later (the test
    /// link's delay), so every write's latency is 1 ms and the stream completes 1 ms after its
    /// last write at 1 + 49 · 0.02 s.
    @Test func aStreamDeliversEveryWriteInOrder() throws {
        let stream = StreamSpec(
            id: "voice", from: 1, to: 0, start: .seconds(1), bytesPerSecond: 16_000, writeBytes: 320,
            duration: .seconds(1))
        expectEqual(stream.writes, 50)
        var sim = Simulation(seed: 2)
        var h = MeshHarness(peers: pair, config: MeshConfig(), streams: [stream], releases: true, sim: &sim)
        _ = sim.run(&h, until: .seconds(5))
        let x = h.mesh.transfers[0]
        expectEqual(x.state, .completed)
        expectEqual(x.received, 16_000)
        expectEqual(x.writeLatencies, Array(repeating: .milliseconds(1), count: 50))
        expectEqual(x.finished, .seconds(1) + .milliseconds(49 * 20) + .milliseconds(1))
        // Each piece: 32-byte header, 8-byte offset, 37-byte DTLS record, 320 bytes.
        expectEqual(x.bytesOnAir, 50 * (32 + 8 + 37 + 320))
    }

    /// Multipeer sends only to connected peers: a resource to a phone outside the sender's
    /// session fails at once and sends nothing.
    @Test func aResourceToAPeerOutsideTheSessionFailsAtOnce() {
        var sim = Simulation(seed: 3)
        let far = ResourceSpec(id: "far", from: 0, to: 2, start: .seconds(1), sizeBytes: 5000, cancelAt: nil)
        var h = MeshHarness(peers: [[1], [0], []], config: MeshConfig(), resources: [far], releases: true, sim: &sim)
        _ = sim.run(&h, until: .seconds(3))
        let x = h.mesh.transfers[0]
        expectEqual(x.state, .notConnected)
        expectEqual(x.finished, .seconds(1))
        expectEqual(x.framesSent, 0)
    }

    /// The unencrypted session's pieces carry no record: 32 + 8 + 1 200 bytes.
    @Test func withoutEncryptionAPieceCarriesNoRecord() {
        var config = MeshConfig()
        config.encryption = .none
        var sim = Simulation(seed: 3)
        var h = MeshHarness(peers: pair, config: config, resources: [resource(size: 2400)], releases: true, sim: &sim)
        _ = sim.run(&h, until: .seconds(3))
        expectEqual(h.mesh.transfers[0].bytesOnAir, 2 * (32 + 8 + 1200))
    }

    /// Three phones in the field, over AWDL, with `mesh` as the mesh section.
    static func radioScenario(mesh: JSON) -> TestScenario {
        var s = TestScenario(duration: 12, environment: ["preset": "field", "shadowingSigmaDb": 0])
        s.place("a", 0, 0)
        s.place("b", 10, 0)
        s.place("c", 0, 10)
        s["mesh"] = mesh
        return s
    }

    func run(mesh: JSON) throws -> MeshMetrics {
        try require(try SessionTransferTests.radioScenario(mesh: mesh).run().mesh)
    }

    /// Over the radio: a 20 MB resource cancelled 0.2 s after it starts stops there, short of its
    /// size, and its progress stops with it; one the cancel does not catch completes.
    @Test func cancellingAResourceStopsIt() throws {
        let m = try run(mesh: [
            "resources": [
                ["id": "big", "from": "a", "to": "b", "size_bytes": 20_000_000, "at_s": 3, "cancel_at_s": 3.2],
                ["id": "small", "from": "a", "to": "c", "size_bytes": 100_000, "at_s": 3, "cancel_at_s": 11]
            ]
        ])
        let big = m.transfers[0]
        expectEqual(big.state, .cancelled)
        expectEqual(big.finished, .seconds(3.2))
        expect(big.received < big.size)
        expect(big.progress.allSatisfy { $0 == nil || $0! <= .seconds(3.2) })
        expectEqual(m.transfers[1].state, .completed)
        expectEqual(m.transfers[1].received, 100_000)
    }

    /// Fixed sessions are groups: every member is every other's peer (an MCSession connects all
    /// its peers), so a 3-phone session gives each phone 2 peers, and a stream between two of
    /// them completes.
    @Test func aFixedSessionConnectsEveryMemberToEveryOther() throws {
        let m = try run(mesh: [
            "sessions": [["a", "b", "c"]],
            "streams": [["id": "s", "from": "b", "to": "c", "bytes_per_s": 8000, "duration_s": 2, "at_s": 1]]
        ])
        expectEqual(m.nodes.map(\.sessionPeers), [2, 2, 2])
        expectEqual(m.transfers[0].state, .completed)
        expectEqual(m.transfers[0].writeLatencies.count, 15)  // 8 000 B/s in 1 024-byte writes: 2 s / 0.128 s
    }

    /// A member of a set-up group that fails leaves the session once the peer timeout (3 s) has
    /// passed at a session evaluation (every second), which ends a stream to it as
    /// `failed:peer-left`; when it recovers it rejoins at the next evaluation.
    @Test func aFailedGroupMemberLeavesAndRejoins() throws {
        var scenario = SessionTransferTests.radioScenario(mesh: [
            "sessions": [["a", "b", "c"]],
            "streams": [["id": "s", "from": "a", "to": "c", "bytes_per_s": 8000, "duration_s": 6, "at_s": 1]]
        ])
        scenario["events"] = [
            ["at_s": 2.5, "node": "c", "action": "fail"], ["at_s": 8.5, "node": "c", "action": "recover"]
        ]
        let s = try scenario.decoded()
        var sim = Simulation(seed: s.seed)
        var world = World<WirelessLink>(s, sim: &sim)
        _ = sim.run(&world, until: .seconds(5.5))
        expectEqual(world.layers.mesh!.peers[0], [1, 2])  // lost at 3 s, kept until 3 + 3 s
        _ = sim.run(&world, until: .seconds(6.5))
        expectEqual(world.layers.mesh!.peers[0], [1])
        expectEqual(world.layers.mesh!.peers[2], [])
        _ = sim.run(&world, until: .seconds(9.5))
        expectEqual(world.layers.mesh!.peers[0], [1, 2])
        expectEqual(world.layers.mesh!.peers[2], [0, 1])
        let x = world.layers.mesh!.transfers[0]
        expectEqual(x.state, .peerLeft)
        // The session ends at the evaluation at 6 s (lost at 3 s, kept 3 s) and the stream
        // with it, as sendResource's and a stream's peer-gone report.
        expectEqual(x.finished, .seconds(6))
        expect(x.received < x.size)
    }

    // MARK: Bad input

    func problems(_ mesh: String) -> [Diagnostic] {
        SessionTransferTests.radioScenario(mesh: .raw(mesh)).problems
    }

    @Test func aResourceLargerThanTheLimitIsRefusedWithItsPath() {
        let d = problems(
            """
            {"maxResourceBytes": 1000000,
             "resources": [{"id": "r", "from": "a", "to": "b", "size_bytes": 2000000}]}
            """)
        expectEqual(d.count, 1)
        expectEqual(d.first?.path, "mesh.resources[0].size_bytes")
        expect(d.first?.message.contains("larger than the configured limit of 1000000 bytes") == true)
        // The default limit is 64 MiB.
        let e = problems(#"{"resources": [{"id": "r", "from": "a", "to": "b", "size_bytes": 67108865}]}"#)
        expectEqual(e.first?.path, "mesh.resources[0].size_bytes")
        expect(e.first?.message.contains("67108864") == true)
    }

    @Test func aStreamToAPeerOutsideTheSessionIsRefusedWithItsPath() {
        let d = problems(
            """
            {"sessions": [["a", "b"]],
             "streams": [{"id": "s", "from": "a", "to": "c", "bytes_per_s": 1000, "duration_s": 1}]}
            """)
        expectEqual(d.count, 1)
        expectEqual(d.first?.path, "mesh.streams[0].to")
        expect(d.first?.message.contains("\"c\" is outside every session of \"a\"") == true)
    }

    @Test func otherBadTransfersNameTheirPaths() {
        let cases: [(String, String)] = [
            (
                #"{"streams": [{"id": "s", "from": "a", "to": "a", "bytes_per_s": 10, "duration_s": 1}]}"#,
                "mesh.streams[0].to"
            ),
            (
                #"{"streams": [{"id": "s", "from": "a", "to": "zed", "bytes_per_s": 10, "duration_s": 1}]}"#,
                "mesh.streams[0].to"
            ),
            (
                #"{"streams": [{"id": "s", "from": "a", "to": "b", "bytes_per_s": 0, "duration_s": 1}]}"#,
                "mesh.streams[0].bytes_per_s"
            ),
            (
                #"{"resources": [{"id": "r", "from": "a", "to": "b", "size_bytes": 10, "at_s": 5, "cancel_at_s": 4}]}"#,
                "mesh.resources[0].cancel_at_s"
            ),
            (#"{"resources": [{"id": "r", "from": "a", "to": "b", "size_bytes": 0}]}"#, "mesh.resources[0].size_bytes"),
            (#"{"sessions": [["a"]]}"#, "mesh.sessions[0]"),
            (#"{"sessions": [["a", "b"]], "sessionSetup": "instant"}"#, "mesh.sessionSetup"),
            (#"{"maxPeers": 2, "sessions": [["a", "b", "c"]]}"#, "mesh.sessions[0]"),
            (#"{"maxResourceBytes": 0}"#, "mesh.maxResourceBytes"),
            (
                #"{"resources": [{"id": "x", "from": "a", "to": "b", "size_bytes": 1}], "streams": [{"id": "x", "from": "a", "to": "b", "bytes_per_s": 1, "duration_s": 1}]}"#,
                "mesh.streams[0].id"
            )
        ]
        for (mesh, path) in cases {
            let d = problems(mesh)
            expect(d.map(\.path).contains(path), "\(mesh): \(d.map(\.description))")
        }
    }
}

/// The IP MTU of a flow across the mesh leaves room for the mesh header, a 16-node source route
/// and the session's DTLS record: on AWDL (1 484 bytes) 1 484 − (32 + 8 · 16) − 37 = 1 287, at
/// least IPv6's 1 280 (RFC 8200 §5); without encryption there is no record: 1 324.
struct MeshMtuTests {
    func flowMtu(encryption: String) throws -> Int {
        var t = TestScenario(name: "t", seed: 1, duration: 5)
        t.place("a", 0, 0)
        t.place("b", 10, 0)
        t["mesh"] = ["encryption": .string(encryption)]
        t["flows"] = [
            [
                "id": "f", "from": "a", "to": "b", "protocol": "udp", "start_s": 1,
                "workload": ["kind": "bulk", "bytes": 1000]
            ]
        ]
        let s = try t.decoded()
        var sim = Simulation(seed: 1)
        let w = World<WirelessLink>(s, sim: &sim)
        expectEqual(w.link.mtu, 1484)
        return w.hosts.ip.flowMtu[0]
    }

    @Test func theMeshMtuLeavesRoomForRouteAndRecord() throws {
        expectEqual(try flowMtu(encryption: "required"), 1287)
        expectEqual(try flowMtu(encryption: "none"), 1324)
    }
}
