import Foundation
import Testing
@testable import AdHocSim

/// The run timeline (`timeline.jsonl`) and the page that plays it back (`view.html`).
struct TimelineTests {
    /// A line A–B–C–D of phones 30 m apart (`MeshScenarioText`: neighbours in session, the ends
    /// three hops apart), two messages from A to D, and C failing at 30 s.
    func lineScenario() throws -> Scenario {
        try MeshScenarioText.scenario(
            [("A", 0, 0), ("B", 30, 0), ("C", 60, 0), ("D", 90, 0)],
            // One unicast per hop, so a message's hops are the route's (path-broadcast adds a
            // copy to every other session peer).
            mesh: [
                "forwarding": "next-hop",
                "messages": [
                    ["id": "m", "from": "A", "to": "D", "size_bytes": 100, "count": 2, "interval_s": 5, "start_s": 12]
                ]
            ],
            events: [["at_s": 30, "node": "C", "action": "fail"]], duration: 40, seed: 3)
    }

    func records(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func recordingChangesNothingAndRepeatsByteForByte() throws {
        let s = try lineScenario()
        let plain = try ScenarioRunner.run(s)
        let a = try ScenarioRunner.run(s, timeline: true)
        let b = try ScenarioRunner.run(s, timeline: true)
        expect(plain.timeline == nil)
        expectEqual(a.fingerprint, plain.fingerprint)
        expectEqual(a.eventsExecuted, plain.eventsExecuted)
        let withoutTimeline = RunFiles.files(for: a).filter { $0.name != "timeline.jsonl" }
        expectEqual(
            withoutTimeline.map { deterministicPart($0.contents) },
            RunFiles.files(for: plain).map { deterministicPart($0.contents) })
        expectEqual(a.timeline, b.timeline)
        expect(RunFiles.files(for: a).contains { $0.name == "timeline.jsonl" })
    }

    /// What the line's timeline must say, derived from the scenario: a header with the four
    /// phones and C's failure; the three sessions A–B, B–C, C–D up, and B–C, C–D down after C
    /// fails (3 s of peer timeout later); each message's first attempt as three message hops
    /// A→B→C→D and three return hops D→C→B→A; two `msg` records delivered.
    @Test func theLineIsRecordedAsItHappened() throws {
        let r = try records(try require(try ScenarioRunner.run(try lineScenario(), timeline: true).timeline))
        let header = r[0]
        expectEqual(header["e"] as? String, "header")
        expectEqual((header["nodes"] as? [[String: Any]])?.map { $0["id"] as? String }, ["A", "B", "C", "D"])
        let events = try require(header["events"] as? [[String: Any]])
        expect(events.count == 1 && events[0]["n"] as? Int == 2 && events[0]["action"] as? String == "fail")
        let sessions = r.filter { $0["e"] as? String == "session" }
        let up = sessions.filter { $0["up"] as? Bool == true }.map { [$0["a"] as! Int, $0["b"] as! Int] }
        let down = sessions.filter { $0["up"] as? Bool == false }
        expectEqual(up.sorted { $0.lexicographicallyPrecedes($1) }, [[0, 1], [1, 2], [2, 3]])
        expectEqual(
            down.map { [$0["a"] as! Int, $0["b"] as! Int] }.sorted { $0.lexicographicallyPrecedes($1) },
            [
                [1, 2], [2, 3]
            ])
        for d in down { expect((d["t"] as! Int) >= 33_000_000_000) }
        let hops = r.filter { $0["e"] as? String == "hop" && $0["try"] as? Int == 0 }
        for m in 0..<2 {
            let mine = hops.filter { $0["m"] as? Int == m }
            expectEqual(
                mine.filter { $0["k"] as? String == "msg" }.map { [$0["a"] as! Int, $0["b"] as! Int] },
                [
                    [0, 1], [1, 2], [2, 3]
                ])
            expectEqual(
                mine.filter { $0["k"] as? String == "ret" }.map { [$0["a"] as! Int, $0["b"] as! Int] },
                [
                    [3, 2], [2, 1], [1, 0]
                ])
        }
        let messages = r.filter { $0["e"] as? String == "msg" }
        expectEqual(messages.count, 2)
        expect(messages.allSatisfy { !($0["delivered"] is NSNull) && $0["hops"] as? Int == 3 })
        // Every record after the header has a time within the run.
        expect(r.dropFirst().allSatisfy { (0...40_000_000_000).contains($0["t"] as? Int ?? -1) })
    }

    /// A phone walking from x = 10 m to 40 m over 10 s (waypoints, linear between) is recorded
    /// every 100 ms while it moves: 100 positions, x = 10 + 3 t, and none once it stops.
    @Test func aWalkIsRecordedEveryHundredMilliseconds() throws {
        var t = TestScenario(name: "walk", seed: 1, duration: 12, radio: nil)
        t.place("a", 0, 0)
        t.place("b", 10, 0, ["mobility": ["waypoints": [[0, 10, 0, 1.2], [10, 40, 0, 1.2]]]])
        let s = try t.decoded()
        let r = try records(try require(try ScenarioRunner.run(s, timeline: true).timeline))
        let pos = r.filter { $0["e"] as? String == "pos" }
        expectEqual(pos.count, 100)
        for p in pos {
            let t = Double(p["t"] as! Int) / 1e9
            expectEqual(p["n"] as? Int, 1)
            expect(abs((p["x"] as! Double) - (10 + 3 * t)) < 0.001)
            expect((p["t"] as! Int) % 100_000_000 == 0 && t <= 10)
        }
    }

    /// The page carries the records as one JSON array; a `<` in the data (here in a phone's
    /// name) is escaped, so nothing in a scenario can end the data's script element early.
    @Test func thePageEmbedsTheTimelineSafely() throws {
        let timeline =
            #"{"e":"header","version":1,"scenario":"x","nodes":[{"id":"</script><b>","x":0,"y":0}]}"# + "\n"
            + #"{"e":"hb","t":5,"n":0}"# + "\n"
        let page = ViewerPage.html(timeline: timeline)
        let open = #"<script type="application/json" id="timeline">"#
        let start = try require(page.range(of: open)).upperBound
        let end = try require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
        let data = String(page[start..<end])
        let parsed = try require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [[String: Any]])
        expectEqual(parsed.count, 2)
        expectEqual((parsed[0]["nodes"] as? [[String: Any]])?.first?["id"] as? String, "</script><b>")
        // Self-contained: nothing is fetched (no src attributes, no stylesheet or font links).
        expect(!page.contains("src="))
        expect(!page.contains("<link"))
        expect(!page.contains("@import"))
    }

    @Test func viewNeedsATimelineAndWritesThePage() throws {
        // Two AWDL phones, a short QUIC test: the plumbing, not the run, is under test.
        let scenario = TestScenario.twoPhones(
            name: "s", radio: ["technology": "awdl"], protocol: "quic",
            workload: ["kind": "thesis", "probes": 5, "packets": 20, "size": 1000])
        let dir = try temporaryFolder(["s.json": scenario.text])
        // A folder adhocsim did not write is left alone.
        let foreign = try CLI.run(["view", "."], in: dir)
        expectEqual(foreign.status, 2)
        expect(foreign.stderr.contains("not a run folder adhocsim wrote"))
        expect(!(try listing(dir).contains("view.html")))
        // A run recorded without a timeline has nothing to show.
        expectEqual(try CLI.run(["run", "s.json", "--quiet", "--out", "plain"], in: dir).status, 0)
        let none = try CLI.run(["view", "plain"], in: dir)
        expectEqual(none.status, 2)
        expect(none.stderr.contains("timeline.jsonl") && none.stderr.contains("--view"))
        expectEqual(try CLI.run(["run", "s.json", "--timeline", "--quiet", "--out", "out"], in: dir).status, 0)
        expect(try listing(dir.appendingPathComponent("out")).contains("timeline.jsonl"))
        expect(!(try listing(dir.appendingPathComponent("out")).contains("view.html")))
        expectEqual(try CLI.run(["view", "out"], in: dir).status, 0)
        expect(try listing(dir.appendingPathComponent("out")).contains("view.html"))
        expectEqual(try CLI.run(["run", "s.json", "--view", "--quiet", "--out", "out2"], in: dir).status, 0)
        expect(try listing(dir.appendingPathComponent("out2")).contains("view.html"))
    }
}
