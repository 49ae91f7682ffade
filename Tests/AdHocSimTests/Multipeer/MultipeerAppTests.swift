import Testing
@testable import AdHocSim

/// The app's hand on Multipeer: per-phone settings (`mesh.phones`), the
/// app's calls as events, and what each app hears (`multipeer_events.csv`). `MeshScenarioText`'s
/// plain Wi-Fi field: two phones 30 m apart hear each other at −61.2 dBm, above the −65 dBm
/// discovery threshold.
struct MultipeerAppTests {
    func run(
        _ phones: String, events: String = "[]", nodes: [(String, Double, Double)] = [("A", 0, 0), ("B", 30, 0)],
        extra: String = "", duration: Double = 40
    ) throws -> MeshMetrics {
        let s = try MeshScenarioText.scenario(
            nodes, mesh: "{\"phones\": \(phones)\(extra)}", events: events, duration: duration, seed: 6)
        return try require(try ScenarioRunner.run(s).mesh)
    }

    /// The events phone `node` heard of `kind`, in time order.
    func heard(_ m: MeshMetrics, _ node: Int, _ kind: MultipeerEvent.Kind) -> [MultipeerEvent] {
        (m.multipeerEvents ?? []).filter { $0.node == Int32(node) && $0.kind == kind }
    }

    @Test func aDeclinedInvitationMakesNoSessionAndTellsTheInviterAtTheReply() throws {
        // B declines and does not browse (so only A invites): every invitation B receives is
        // answered at once, and A's session reports B not connected when the reply arrives: on
        // an idle 20 MHz channel a 100-byte reply takes well under 5 ms.
        let m = try run(
            #"[{"node": "B", "invitations": "decline"}]"#,
            events: #"[{"at_s": 0, "node": "B", "action": "stopBrowsing"}]"#)
        let received = heard(m, 1, .invitation), declined = heard(m, 0, .notConnected)
        expect(!received.isEmpty)
        expectEqual(heard(m, 0, .invite).count, received.count)
        expectEqual(declined.count, received.count)
        for (r, d) in zip(received, declined) {
            expect(d.time > r.time && d.time - r.time < .milliseconds(5))
        }
        expect(heard(m, 0, .connected).isEmpty && heard(m, 1, .connecting).isEmpty)
        expectEqual(m.nodes.map(\.sessionPeers), [0, 0])
        expect(heard(m, 1, .found).isEmpty)  // B does not browse
        expectEqual(heard(m, 0, .found).count, 1)  // found once, never lost
    }

    /// Two apps of different service types in range of each other: neither browser finds the
    /// other's advertiser, so no invitation and no session; with one type they connect.
    @Test func twoServiceTypesNeverMeet() throws {
        let apart = try run(#"[{"node": "A", "serviceType": "chat"}, {"node": "B", "serviceType": "files"}]"#)
        for node in [0, 1] {
            expect(heard(apart, node, .found).isEmpty && heard(apart, node, .invite).isEmpty)
        }
        expectEqual(apart.nodes.map(\.sessionPeers), [0, 0])
        let together = try run(#"[{"node": "A", "serviceType": "chat"}, {"node": "B", "serviceType": "chat"}]"#)
        expectEqual(together.nodes.map(\.sessionPeers), [1, 1])
    }

    /// Service types as Apple documents them (RFC 6335 §5.1): each bad one is refused at its path.
    @Test func aServiceTypeIsCheckedAsAppleDocumentsIt() throws {
        for (type, why) in [
            ("", "1 to 15 characters"), ("abcdefghijklmnop", "1 to 15 characters"), ("Chat", "lowercase"),
            ("c_t", "lowercase"), ("123", "at least one letter"), ("-chat", "hyphen"), ("chat-", "hyphen"),
            ("ch--at", "hyphen")
        ] {
            var t = TestScenario(name: "mesh", seed: 1, duration: 10, radio: ["technology": "wifi"])
            t.place("A", 0, 0)
            t.place("B", 30, 0)
            t["mesh"] = .raw("{\"phones\": [{\"node\": \"A\", \"serviceType\": \"\(type)\"}]}")
            let d = diagnostics(t.text)
            expect(
                d.count == 1 && d[0].path == "mesh.phones[0].serviceType" && d[0].message.contains(why), "\(type): \(d)"
            )
        }
        expect(MultipeerPhone.serviceTypeProblem("txt-chat2") == nil)
    }

    @Test func anIgnoredInvitationTimesOutAfterThirtySeconds() throws {
        // No reply: A's session gives up after invitePeer's 30 s timeout, to the nanosecond.
        let m = try run(
            #"[{"node": "B", "invitations": "ignore"}]"#,
            events: #"[{"at_s": 0, "node": "B", "action": "stopBrowsing"}]"#)
        let invite = try require(heard(m, 0, .invite).first)
        let gaveUp = try require(heard(m, 0, .notConnected).first)
        expectEqual(gaveUp.time - invite.time, .seconds(30))
        expect(heard(m, 1, .invitation).count >= 1)
        expect(heard(m, 1, .connecting).isEmpty && heard(m, 1, .notConnected).isEmpty)
        expectEqual(m.nodes.map(\.sessionPeers), [0, 0])
    }

    @Test func encryptionPreferencesGiveApplesOutcomes() throws {
        // required (the default) with none: never connected (the invited side declines).
        let mismatch = try run(#"[{"node": "B", "encryption": "none"}]"#, duration: 5)
        expectEqual(mismatch.nodes.map(\.sessionPeers), [0, 0])
        expect((mismatch.multipeerEvents ?? []).allSatisfy { $0.kind != .connected })
        expect(!heard(mismatch, 0, .notConnected).isEmpty || !heard(mismatch, 1, .notConnected).isEmpty)
        // optional with none: connected, unencrypted: the plain request and response, no
        // certificate.
        let plain = try run(
            #"[{"node": "A", "encryption": "optional"}, {"node": "B", "encryption": "none"}]"#, duration: 5)
        expectEqual(plain.nodes.map(\.sessionPeers), [1, 1])
        expect((plain.multipeerEvents ?? []).allSatisfy { $0.kind != .certificate })
        // optional with required: encrypted: each side answers the other's certificate once
        // (flights 4 and 5 of the DTLS handshake), then both connect at once.
        let both = try run(#"[{"node": "A", "encryption": "optional"}]"#, duration: 5)
        expectEqual(both.nodes.map(\.sessionPeers), [1, 1])
        expect(heard(both, 0, .certificate).count == 1 && heard(both, 1, .certificate).count == 1)
        expectEqual(heard(both, 0, .connected).map(\.time), heard(both, 1, .connected).map(\.time))
        expect(MultipeerPhone.sessionEncrypted(.required, .none) == nil)
        expect(MultipeerPhone.sessionEncrypted(.optional, .none) == false)
        expect(MultipeerPhone.sessionEncrypted(.optional, .required) == true)
    }

    @Test func aRejectedCertificateFailsTheConnection() throws {
        let m = try run(#"[{"node": "A", "certificate": "reject"}]"#, duration: 5)
        expectEqual(m.nodes.map(\.sessionPeers), [0, 0])
        let certificate = try require(heard(m, 0, .certificate).first)
        // The handshake ends at A's answer: both sessions report not connected at that instant.
        expectEqual(heard(m, 0, .notConnected).first?.time, certificate.time)
        expectEqual(heard(m, 1, .notConnected).first?.time, certificate.time)
        expect((m.multipeerEvents ?? []).allSatisfy { $0.kind != .connected })
    }

    @Test func aDisconnectMidResourceFailsItAtThePeerTimeout() throws {
        // B sends A 60 MB from 5 s (more than 5 s at this link's rate). A disconnects (and stops
        // discovery) at 6.5 s: its app hears B not connected at once; B's session sees A go at
        // the first evaluation (every 1 s from 0) at least the peer timeout (3 s) later: 10 s.
        let s = try MeshScenarioText.scenario(
            [("A", 0, 0), ("B", 30, 0)],
            mesh: ["resources": [["id": "big", "from": "B", "to": "A", "size_bytes": 60_000_000, "at_s": 5]]],
            events: [
                ["at_s": 6.5, "node": "A", "action": "disconnect"],
                ["at_s": 6.5, "node": "A", "action": "stopAdvertising"],
                ["at_s": 6.5, "node": "A", "action": "stopBrowsing"]
            ], duration: 20, seed: 6)
        let m = try require(try ScenarioRunner.run(s).mesh)
        expectEqual(heard(m, 0, .notConnected).map(\.time), [.milliseconds(6500)])
        expectEqual(heard(m, 1, .notConnected).map(\.time), [.seconds(10)])
        expectEqual(heard(m, 1, .lost).map(\.time), [.milliseconds(6500)])  // A stopped advertising
        let t = m.transfers[0]
        expectEqual(t.state, .peerLeft)
        // The sender's session ends then, and with it the resource (sendResource's completion
        // handler reports the peer gone).
        expectEqual(t.finished, .seconds(10))
        expect(t.received < t.size)
        expectEqual(m.nodes.map(\.sessionPeers), [0, 0])
    }

    @Test func noSessionFormsAfterDiscoveryStops() throws {
        // A and B connect within the first second; at 5 s both stop advertising and browsing.
        // C joins at 10 s and browses and advertises: nobody answers its queries and nobody
        // browses for its announcements, so it finds no one and no one finds it.
        let stop = ["A", "B"].flatMap { n in
            ["stopAdvertising", "stopBrowsing"].map { #"{"at_s": 5, "node": "\#(n)", "action": "\#($0)"}"# }
        }
        let m = try run(
            "[]",
            events: "[" + (stop + [#"{"at_s": 10, "node": "C", "action": "join"}"#]).joined(separator: ", ") + "]",
            nodes: [("A", 0, 0), ("B", 30, 0), ("C", 15, 10)], duration: 30)
        expectEqual(m.nodes.map(\.sessionPeers), [1, 1, 0])
        expect((m.multipeerEvents ?? []).allSatisfy { $0.node != 2 && $0.peer != 2 })
        // The phones that stopped advertising were lost by the browsers that had found them.
        expectEqual(heard(m, 0, .lost).map(\.time), [.seconds(5)])
        expectEqual(heard(m, 1, .lost).map(\.time), [.seconds(5)])
    }

    @Test func theTxtRecordIsCountedAsRfc6763Writes() {
        var p = MultipeerPhone(node: 0)
        expectEqual(p.txtBytes, 1)  // an empty record is one zero byte (§6.1)
        p.discoveryInfo = [("room", "42"), ("v", "")]
        // "room=42" (7 bytes) and "v=" (2), each with its length byte.
        expectEqual(p.txtBytes, 8 + 3)
        p.displayName = "Anna"
        expectEqual(p.answerExtraBytes, 10 + (4 - 16))
    }

    @Test func badPhoneSettingsAndAppCallsAreReportedWithTheirPath() throws {
        func errors(_ mesh: String, events: String = "[]") -> String {
            do {
                _ = try MeshScenarioText.scenario([("A", 0, 0), ("B", 30, 0)], mesh: mesh, events: events, seed: 1)
                return ""
            } catch { return "\(error)" }
        }
        expect(errors(#"{"phones": [{"node": "A", "invitations": "maybe"}]}"#).contains("mesh.phones[0].invitations: "))
        let long = String(repeating: "x", count: 250)
        expectEqual(errors(#"{"phones": [{"node": "A", "discoveryInfo": {"key": "\#(long)"}}]}"#), "")  // 254 bytes
        let longer = String(repeating: "x", count: 252)
        expect(
            errors(#"{"phones": [{"node": "A", "discoveryInfo": {"key": "\#(longer)"}}]}"#)
                .contains("is 256 bytes of UTF-8; Multipeer allows at most 255"))
        expect(
            errors(#"{"phones": [{"node": "A", "displayName": "\#(String(repeating: "é", count: 32))"}]}"#)
                .contains(
                    "mesh.phones[0].displayName: a display name is 1 to 63 bytes of UTF-8 (MCPeerID); this one has 64"))
        expect(errors(#"{"phones": [{"node": "A", "invitations": "accept-listed"}]}"#).contains("acceptFrom"))
        expect(
            errors(#"{"phones": [{"node": "A"}, {"node": "A"}]}"#).contains(
                "mesh.phones[1].node: this phone already has its settings"))
        // Settings that cannot act with the set-up chosen.
        expect(
            errors(#"{"sessionSetup": "instant", "phones": [{"node": "A", "displayName": "Anna"}]}"#).contains(
                "mesh.phones: the apps' settings act in Multipeer's discovery"))
        expect(
            errors(#"{"sessions": [["A", "B"]], "phones": [{"node": "A", "displayName": "Anna"}]}"#).contains(
                "with fixed \"sessions\" no phone discovers"))
        expect(
            errors(#"{"sessionSetup": "instant", "handshakeRetransmission": true}"#).contains(
                "mesh.handshakeRetransmission: handshakeRetransmission resends lost DTLS flights"))
        // A disconnect of a phone in none of the fixed session groups.
        let three = try? MeshScenarioText.scenario(
            [("A", 0, 0), ("B", 30, 0), ("C", 60, 0)], mesh: #"{"sessions": [["A", "B"]]}"#,
            events: #"[{"at_s": 1, "node": "C", "action": "disconnect"}]"#, seed: 1)
        expect(three == nil)
        do {
            _ = try MeshScenarioText.scenario(
                [("A", 0, 0), ("B", 30, 0), ("C", 60, 0)], mesh: #"{"sessions": [["A", "B"]]}"#,
                events: #"[{"at_s": 1, "node": "C", "action": "disconnect"}]"#, seed: 1)
        } catch {
            expect("\(error)".contains("events[0].node: this phone is in none of mesh.sessions' groups"))
        }
        expect(
            errors(#"{"sessionSetup": "instant"}"#, events: #"[{"at_s": 1, "node": "A", "action": "stopBrowsing"}]"#)
                .contains("events[0].action: \"stopBrowsing\" changes Multipeer discovery"))
    }
}
