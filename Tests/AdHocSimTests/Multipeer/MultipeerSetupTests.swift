import Testing
@testable import AdHocSim

/// Multipeer session set-up (`mesh.sessionSetup: "multipeer"`): Bonjour discovery, invitation
/// and the connection frames (a DTLS 1.2 handshake with encryption), each a real frame with
/// airtime. `MeshScenarioText`'s plain Wi-Fi: A and B 30 m apart hear each other at −61.2 dBm.
struct MultipeerSetupTests {
    func run(encryption: String, duration: Double = 5) throws -> MeshMetrics {
        let s = try MeshScenarioText.scenario(
            [("A", 0, 0), ("B", 30, 0)], mesh: ["encryption": .string(encryption)], duration: duration, seed: 6)
        return try require(try ScenarioRunner.run(s).mesh)
    }

    @Test func twoPhonesExchangeExactlyTheFramesOfDiscoveryInvitationAndHandshake() throws {
        // In 5 s each phone queries at d, d + 1 s and d + 3 s (d in 20–120 ms; the next, at
        // d + 7 s, is past the end): 3 queries of 90 bytes. It announces itself twice and answers
        // the other's 3 queries: 5 answers of 250 bytes. The inviter then sends the invitation
        // (400) and DTLS flights 1, 3 and 5 (160, 192, 1 010); the invited side the reply (100)
        // and flights 2, 4 and 6 (60, 1 150, 80). In all: 2 · (270 + 1 250) + 1 762 + 1 390.
        let m = try run(encryption: "optional")
        let frames: UInt64 = m.nodes.map(\.sessionFrames).reduce(0, +)
        let bytes: UInt64 = m.nodes.map(\.sessionBytes).reduce(0, +)
        expectEqual(frames, 24)
        expectEqual(bytes, 6_192)
        expectEqual(m.nodes.map(\.sessionPeers), [1, 1])
        // Without encryption the connection is one request and one response (120 bytes each).
        let plain = try run(encryption: "none")
        let plainFrames: UInt64 = plain.nodes.map(\.sessionFrames).reduce(0, +)
        expectEqual(plainFrames, 20)
        let plainBytes: UInt64 = 2 * (270 + 1_250) + 400 + 120 + 100 + 120
        let plainSent: UInt64 = plain.nodes.map(\.sessionBytes).reduce(0, +)
        expectEqual(plainSent, plainBytes)
        // The same draws find the peer at the same instant; four more frames take longer.
        let joined = try require(m.nodes[0].firstSession)
        let joinedPlain = try require(plain.nodes[0].firstSession)
        expect(joinedPlain < joined)
        // Both ends connect when the last frame arrives: the same instant. The first answer
        // comes at most 120 ms after the start (an announcement) and, on an idle 20 MHz channel,
        // none of the ten frames after it takes 10 ms: joined within 0.22 s.
        expectEqual(m.nodes[1].firstSession, joined)
        expect(joined <= .milliseconds(220))
        expectEqual(m.joinTime?.count, 2)
    }

    @Test func routesWaitForTheSessionsToConnect() throws {
        // A route can only follow a session: B's first route to A comes after they connected.
        let m = try run(encryption: "required", duration: 3)
        let connected = try require(m.nodes[1].firstSession)
        let route = try require(m.firstRoutes.first { $0.from == 1 && $0.to == 0 }?.time)
        expect(route > connected)
    }

    @Test func theSetUpIsCheckedInput() throws {
        var t = TestScenario(name: "x", seed: 1, duration: 10, radio: nil)
        t.place("A", 0, 0)
        t["mesh"] = ["sessionSetup": "magic", "encryption": "strong", "sessionsPerPhone": 0, "maxNeighbours": 65]
        let d = t.problems
        expectEqual(
            d.map(\.path).sorted(),
            [
                "mesh.encryption", "mesh.maxNeighbours", "mesh.sessionSetup", "mesh.sessionsPerPhone"
            ])
        expect(
            d.first { $0.path == "mesh.encryption" }?.message.contains("\"none\", \"optional\", \"required\"") == true)
    }

    @Test(ScaleCheck.trait) func madhocsEightNeighboursNeedTwoMultipeerSessions() throws {
        // Seed 002: "each node can connect to up to 8 other nodes"; one Multipeer session holds
        // 8 peers including the phone itself, so one session gives 7 neighbours and a second
        // session (the default) the design's 8.
        var config = MeshConfig()
        expectEqual(config.neighbourLimit, 8)
        config.sessionsPerPhone = 1
        expectEqual(config.neighbourLimit, 7)
        config.sessionsPerPhone = 2
        config.maxNeighbours = 3
        expectEqual(config.neighbourLimit, 3)
        // 30 phones within a few metres: every phone fills up to its limit.
        var nodes: [(String, Double, Double)] = []
        for k in 0..<30 { nodes.append(("n\(k)", Double(k % 6), Double(k / 6))) }
        for (sessions, limit) in [(1, 7), (2, 8)] {
            let s = try MeshScenarioText.scenario(
                nodes, mesh: ["sessionsPerPhone": .integer(sessions)], duration: 5, seed: 2)
            let m = try require(try ScenarioRunner.run(s).mesh)
            expectEqual(m.nodes.map(\.sessionPeers).max(), limit)
        }
    }
}

/// DTLS's retransmission timer in the session set-up (RFC 6347 §4.2.4.1), over the test link
/// (1 ms per frame, nothing lost unless told): the unicasts of a set-up are the invitation (0),
/// the reply (1) and the six flights (2–7).
struct HandshakeRetransmissionTests {
    func joined(dropping: Set<Int>, retransmission: Bool = true) -> SimTime? {
        var config = MeshConfig()
        config.sessionSetup = .multipeer
        config.handshakeRetransmission = retransmission
        var sim = Simulation(seed: 8)
        var h = MeshHarness(peers: [[], []], config: config, fixedSessions: false, sim: &sim)
        h.link.dropUnicasts = dropping
        _ = sim.run(&h, until: .seconds(10))
        return h.mesh.firstConnected[0]
    }

    /// A lost flight that expects an answer goes again when its sender's 1 s timer runs out: the
    /// pair connects exactly 1 s later than without the loss.
    @Test func aLostFlightIsSentAgainAfterOneSecond() throws {
        let clean = try require(joined(dropping: []))
        expectEqual(try require(joined(dropping: [2])), clean + .seconds(1))  // the inviter's first flight
        expectEqual(try require(joined(dropping: [5])), clean + .seconds(1))  // the invited side's second
    }

    /// The last flight expects no answer: when it is lost, the flight before it comes again
    /// after that sender's timer (1 s), and the last flight's sender answers it again.
    @Test func aLostLastFlightIsAnsweredWhenThePreviousOneComesAgain() throws {
        let clean = try require(joined(dropping: []))
        expectEqual(try require(joined(dropping: [7])), clean + .seconds(1))
    }

    /// Switched off (`mesh.handshakeRetransmission`), a lost flight is recovered only by the
    /// 30 s set-up timeout: no session within the 10 s run.
    @Test func withoutTheTimerALostFlightWaitsForTheSetUpTimeout() throws {
        expect(joined(dropping: [], retransmission: false) != nil)
        expect(joined(dropping: [2], retransmission: false) == nil)
    }

    /// The timer doubles: the same flight lost twice waits 1 s, then 2 s.
    @Test func theTimerDoublesAtEachRetransmission() throws {
        let clean = try require(joined(dropping: []))
        expectEqual(try require(joined(dropping: [2, 3])), clean + .seconds(3))
    }
}

/// The set-up time derived frame by frame on ideal timing: the test link carries every frame in
/// exactly 1 ms, so the only randomness is mDNS's 20–120 ms delays, redrawn here from the same
/// named streams (`node:<i>/mesh/mdns`: each phone draws its first query's delay, then its
/// announcement's, then the delay of its answer to the first query it hears).
struct SetUpTimeTests {
    func delay(_ u: Double) -> SimTime { .nanoseconds(20_000_000 + Int64(u * 100_000_000)) }

    func run(encryption: SessionEncryption) -> (joined: SimTime?, firstAnswer: SimTime) {
        var config = MeshConfig()
        config.encryption = encryption
        var sim = Simulation(seed: 21)
        var draws = [sim.randomStream(named: "node:0/mesh/mdns"), sim.randomStream(named: "node:1/mesh/mdns")]
        let query = [delay(draws[0].uniform()), delay(draws[1].uniform())]
        let announce = [delay(draws[0].uniform()), delay(draws[1].uniform())]
        let answer = [delay(draws[0].uniform()), delay(draws[1].uniform())]
        // The first answer on the air: an announcement, or an answer to the other's query, which
        // arrives 1 ms after it was sent.
        let first = [
            announce[0], announce[1], query[1] + .milliseconds(1) + answer[0], query[0] + .milliseconds(1) + answer[1]
        ]
        .min()!
        var h = MeshHarness(peers: [[], []], config: config, fixedSessions: false, sim: &sim)
        _ = sim.run(&h, until: .seconds(2))
        return (h.mesh.firstConnected[0], first)
    }

    /// The answer reaches the browser 1 ms after it is sent; the invitation, the reply and the
    /// six DTLS flights follow, 1 ms each: connected 1 + 8 ms after the first answer. Without
    /// encryption two connection frames replace the six flights: 1 + 4 ms.
    @Test func theSetUpTakesExactlyItsFrames() throws {
        let dtls = run(encryption: .optional)
        expectEqual(try require(dtls.joined), dtls.firstAnswer + .milliseconds(9))
        let plain = run(encryption: .none)
        expectEqual(try require(plain.joined), plain.firstAnswer + .milliseconds(5))
    }
}
