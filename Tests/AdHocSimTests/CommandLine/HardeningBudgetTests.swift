import Foundation
import Testing

@testable import AdHocSim

/// Hostile input to the tools, and the viewer's checks: bounded diagnostics, linear
/// validation, run-wide budgets, a resume that checks what it finds, a read-only earlier result,
/// a timeline checked before a page is built from it.
@Suite("Hardening: budgets, resume, viewer")
struct HardeningBudgetTests {
    /// The two-phone UDP test (`ResultFolderSafetyTests`).
    static var twoPhones: TestScenario { ResultFolderSafetyTests.twoPhones }

    /// 150 bad scripted events: the first 100 problems are kept, the other 50 counted, and the
    /// message says so.
    @Test func diagnosticsKeepTheFirstHundredAndCountTheRest() {
        let events = Array(repeating: "{}", count: 150).joined(separator: ", ")
        var t = Self.twoPhones
        t["events"] = .raw("[\(events)]")
        let text = t.text
        guard case .failure(let e) = decode(text) else {
            Issue.record("150 empty events were accepted")
            return
        }
        expectEqual(e.diagnostics.count, 100)
        expect(e.omitted >= 50)
        expectEqual(e.count, 100 + e.omitted)
        expect(e.description.hasSuffix("… and \(e.omitted) more problems (only the first 100 are shown)"))
    }

    /// Scanners of one phone: 0 scans 0–2 s, 1 from 1 s on, 2 from 5 s on, 3 is another phone's.
    /// By hand: 1 overlaps 0 (1 < 2), 2 overlaps 1 (1 never ends), 3 overlaps nothing of its own
    /// phone. Each overlapping scanner is named once, with the earlier one it overlaps.
    @Test func overlappingScannersAreFoundBySortingNotByPairs() {
        func scanner(_ node: Int, _ start: Double, _ duration: Double?) -> BleScannerSpec {
            BleScannerSpec(
                node: node, intervalMs: 100, windowMs: 30, active: false, duplicateFilter: true, channels: [37, 38, 39],
                serviceFilter: nil, start: SimTime.seconds(start), duration: duration.map { SimTime.seconds($0) })
        }
        let found = BleSpec.overlappingScanners([
            scanner(0, 0, 2), scanner(0, 1, nil), scanner(0, 5, nil), scanner(1, 0, nil)
        ])
        expectEqual(found.map { [$0.0, $0.1] }, [[1, 0], [2, 1]])
        // Back to back is not overlapping.
        expect(BleSpec.overlappingScanners([scanner(0, 0, 2), scanner(0, 2, 1), scanner(0, 3, nil)]).isEmpty)
    }

    /// `--set` arguments gathered into one tree: a later value for the same path wins, new
    /// objects are made on the way, a value and a member inside it conflict, an index outside
    /// the array is refused.
    @Test func overridesApplyInOnePassWithTheSameRules() throws {
        let base = Self.twoPhones.text
        let later = try decode(base, overrides: ["seed=5", "seed=9"]).get()
        expectEqual(later.seed, 9)
        let moved = try decode(base, overrides: ["nodes[1].position[0]=25", "nodes[1].position[1]=3"]).get()
        expect(moved.nodes[1].position.x == 25 && moved.nodes[1].position.y == 3)
        let conflict = diagnostics(base, overrides: ["limits=3", "limits.maxEvents=100"])
        expectEqual(conflict.first?.path, "limits")
        let outside = diagnostics(base, overrides: ["nodes[7].position[0]=1"])
        expect(outside.first?.message.contains("out of range") == true)
    }

    /// At the limits: 64 messages of 64 MiB hand over exactly 4 GiB and pass, 65 do not; ten
    /// streams of 10⁶ writes each (10 s at 10⁵ one-byte writes a second) make exactly 10⁷ writes
    /// and pass, eleven do not. Refused before the run, naming the section and the budget.
    @Test func runWideBudgetsAreCheckedBeforeTheRun() {
        func mesh(_ section: JSON) -> [Diagnostic] {
            var t = TestScenario(name: "m", seed: 1, duration: 100, radio: nil)
            t.place("a", 0, 0)
            t.place("b", 5, 0)
            t["mesh"] = section
            return t.problems
        }
        func messages(_ count: Int) -> [Diagnostic] {
            mesh([
                "messages": [
                    [
                        "id": "m", "from": "a", "to": "b", "size_bytes": 67_108_864, "count": .integer(count),
                        "interval_s": 1e-9
                    ]
                ]
            ])
        }
        expect(messages(64).isEmpty, "\(messages(64))")
        let over = messages(65)
        expect(over.first?.path == "mesh" && over.first?.message.contains("4.1 GiB") == true, "\(over)")
        func streams(_ n: Int) -> [Diagnostic] {
            let list = (0..<n).map { i -> JSON in
                [
                    "id": .string("s\(i)"), "from": "a", "to": "b", "bytes_per_s": 100_000, "duration_s": 10,
                    "write_bytes": 1
                ]
            }
            return mesh(["streams": .array(list)])
        }
        expect(streams(10).isEmpty, "\(streams(10))")
        expect(streams(11).contains { $0.path == "mesh.streams" && $0.message.contains("11000000 writes") })
    }

    /// Long lists are checked in one pass with the same findings: a repeated workload name among
    /// 5 000 message workloads and among 5 000 resources is reported at the repeat, a channel
    /// listed twice and a node named twice in a group at their second place.
    @Test func longListsAreCheckedInOnePass() {
        func mesh(_ section: JSON) -> [Diagnostic] {
            var t = TestScenario(name: "m", seed: 1, duration: 100, radio: nil)
            t.place("a", 0, 0)
            t.place("b", 5, 0)
            t.place("c", 9, 0)
            t["mesh"] = section
            return t.problems
        }
        let n = 5_000
        var messages = (0..<n).map { i -> JSON in
            ["id": .string("m\(i)"), "from": "a", "to": "b", "size_bytes": 1, "count": 1, "interval_s": 1]
        }
        messages[n - 1]["id"] = "m17"
        let repeated = mesh(["messages": .array(messages)])
        expect(repeated.map(\.path) == ["mesh.messages[\(n - 1)].id"], "\(repeated.prefix(3))")
        var resources = (0..<n).map { i -> JSON in
            ["id": .string("r\(i)"), "from": "a", "to": "b", "size_bytes": 10, "at_s": 1]
        }
        resources[n - 1]["id"] = "r3"
        let again = mesh(["resources": .array(resources)])
        expect(
            again.contains { $0.path == "mesh.resources[\(n - 1)].id" && $0.message.contains("already named") },
            "\(again.prefix(3))")
        let group = mesh([
            "messages": [["id": "g", "from": "a", "to": ["b", "c", "b"], "size_bytes": 1, "count": 1, "interval_s": 1]]
        ])
        expect(
            group.contains { $0.path == "mesh.messages[0].to[2]" && $0.message.contains("already in this group") },
            "\(group)")
        var t = TestScenario(name: "b", seed: 1, duration: 10, radio: nil)
        t.place("a", 0, 0)
        t["ble"] = ["scanners": [["node": "a", "channels": [37, 38, 37]]]]
        expect(
            t.problems.contains { $0.path == "ble.scanners[0].channels[2]" && $0.message.contains("listed twice") },
            "\(t.problems)")
    }

    /// A whole number may be written with an exponent or a zero fraction (2e3, 100.0), as JSON
    /// Schema's "integer" allows; a fraction and a negative number are refused with the reason.
    @Test func wholeNumbersInAnyNotation() throws {
        let t = Self.twoPhones.text
        let s = try decode(t, overrides: ["flows[0].workload.packets=2e3", "flows[0].workload.probes=100.0"]).get()
        guard case .thesis(let probes, let packets, _) = s.flows[0].workload else {
            Issue.record("not a thesis workload")
            return
        }
        expect(probes == 100 && packets == 2000, "\(probes) \(packets)")
        let half = diagnostics(t, overrides: ["flows[0].workload.packets=2.5"])
        expect(half.first?.message.contains("(not a whole number)") == true, "\(half)")
        let negative = diagnostics(t, overrides: ["flows[0].workload.packets=-3"])
        expect(negative.first?.message.contains("(negative)") == true, "\(negative)")
    }

    /// Messages are counted whatever their size: two workloads of 10⁶ one-byte messages (2 MB,
    /// far inside the byte budget) send exactly the 2 000 000 allowed and pass; a third of one
    /// message more is refused at `mesh.messages`, before the run.
    @Test func theMessageCountHasABudgetOfItsOwn() {
        func workloads(_ counts: [Int]) -> [Diagnostic] {
            var t = TestScenario(name: "m", seed: 1, duration: 100, radio: nil)
            t.place("a", 0, 0)
            t.place("b", 5, 0)
            t["mesh"] = [
                "messages": .array(
                    counts.enumerated().map { i, n -> JSON in
                        [
                            "id": .string("m\(i)"), "from": "a", "to": "b", "size_bytes": 1, "count": .integer(n),
                            "interval_s": 1e-6
                        ]
                    })
            ]
            return t.problems
        }
        expect(workloads([1_000_000, 1_000_000]).isEmpty, "\(workloads([1_000_000, 1_000_000]))")
        let over = workloads([1_000_000, 1_000_000, 1])
        expect(over.contains { $0.path == "mesh.messages" && $0.message.contains("2000001 messages") }, "\(over)")
    }

    /// A resumed sweep reruns a cell whose `.jsonl` is missing and one whose `.csv` is garbage,
    /// and ends with the same bytes as a fresh sweep; a folder of another shard is refused.
    @Test func resumeChecksWhatItFinds() throws {
        var t = Self.twoPhones
        t["matrix"] = ["distance_m": [5, 10, 20]]
        let sweep = t.text
        let dir = try temporaryFolder(["m.json": sweep])
        let fm = FileManager.default
        expectEqual(try CLI.run(["sweep", "m.json", "--out", "fresh", "-j", "1", "--quiet"], in: dir).status, 0)
        expectEqual(try CLI.run(["sweep", "m.json", "--out", "res", "-j", "1", "--quiet"], in: dir).status, 0)
        let cells = dir.appendingPathComponent("res/cells")
        let stems = try fm.contentsOfDirectory(atPath: cells.path).filter { $0.hasSuffix(".csv") }.sorted()
            .map { String($0.dropLast(4)) }
        expectEqual(stems.count, 3)
        try fm.removeItem(at: cells.appendingPathComponent(stems[0] + ".jsonl"))
        try "garbage\n".write(to: cells.appendingPathComponent(stems[1] + ".csv"), atomically: true, encoding: .utf8)
        let resumed = try CLI.run(["sweep", "m.json", "--out", "res", "-j", "1", "--resume", "--quiet"], in: dir)
        expectEqual(resumed.status, 0, "\(resumed.stderr)")
        for name in ["cells.csv", "cells.jsonl"] {
            let a = try String(contentsOf: dir.appendingPathComponent("fresh/\(name)"), encoding: .utf8)
            let b = try String(contentsOf: dir.appendingPathComponent("res/\(name)"), encoding: .utf8)
            expectEqual(a, b, "\(name) differs from a fresh sweep after resuming")
        }
        expectEqual(try CLI.run(["sweep", "m.json", "--out", "half", "--shard", "1/2", "--quiet"], in: dir).status, 0)
        let other = try CLI.run(["sweep", "m.json", "--out", "half", "--shard", "2/2", "--resume", "--quiet"], in: dir)
        expect(other.status == 2 && other.stderr.contains("holds shard 1/2, not shard 2/2"), "\(other.stderr)")
    }

    /// A rerun into a read-only earlier result folder is refused before anything moves (for a
    /// user without the right to change it; root may), and never leaves a hidden folder behind.
    @Test func aReadOnlyEarlierResultIsRefusedCleanly() throws {
        let dir = try temporaryFolder(["m.json": Self.twoPhones.text])
        let fm = FileManager.default
        expectEqual(try CLI.run(["run", "m.json", "--out", "res", "--quiet"], in: dir).status, 0)
        let res = dir.appendingPathComponent("res")
        try fm.setAttributes([.posixPermissions: 0o555], ofItemAtPath: res.path)
        defer { try? fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: res.path) }
        let again = try CLI.run(["run", "m.json", "--out", "res", "--quiet"], in: dir)
        if access(res.path, W_OK) != 0 {
            expect(again.status == 2 && again.stderr.contains("read-only"), "\(again.stderr)")
            expect(fm.fileExists(atPath: res.appendingPathComponent("summary.csv").path))
        }
        let hidden = try fm.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".res.") }
        expect(hidden.isEmpty, "left behind: \(hidden)")
    }

    /// The recorder keeps its first records and ends the file with one saying how many it did
    /// not keep; the result is still a timeline the viewer takes.
    @Test func aTimelineBeyondItsLimitSaysWhatItDropped() {
        let r = TimelineRecorder(slice: .milliseconds(10), maxRecords: 3)
        r.record(
            "{\"e\":\"header\",\"version\":1,\"scenario\":\"s\",\"place\":\"field\",\"technology\":\"ideal\","
                + "\"duration_ns\":1,\"range_m\":1,\"slice_ns\":1,\"nodes\":[{\"id\":\"a\",\"x\":0,\"y\":0}],"
                + "\"events\":[],\"mesh\":false,\"heartbeat_ns\":0,\"flows\":[],\"routes_recorded\":false}")
        for t in 0..<5 { r.record("{\"e\":\"hb\",\"t\":\(t),\"n\":0}") }
        // The header and 3 records kept, 2 dropped.
        expect(r.lines.count == 4 && r.dropped == 2)
        expect(r.text.hasSuffix("{\"e\":\"truncated\",\"kept\":3,\"dropped\":2}\n"))
        expect(TimelineCheck.problem(in: r.text) == nil)
    }

    /// A whole timeline passes; cut short, of the wrong type, out of range or of an unknown
    /// record it is refused, naming the line; `view` then exits 2 and writes no page.
    @Test func theViewerChecksTheTimelineFirst() throws {
        let dir = try temporaryFolder(["m.json": Self.twoPhones.text])
        expectEqual(try CLI.run(["run", "m.json", "--out", "res", "--timeline", "--quiet"], in: dir).status, 0)
        let url = dir.appendingPathComponent("res/timeline.jsonl")
        let whole = try String(contentsOf: url, encoding: .utf8)
        expect(TimelineCheck.problem(in: whole) == nil, "\(TimelineCheck.problem(in: whole) ?? "")")
        let lines = whole.split(separator: "\n").map(String.init)
        let header = lines[0]
        let tampered: [(String, String)] = [
            (String(whole.dropLast(5)), "line"),
            (
                header.replacingOccurrences(of: "\"protocol\":\"udp\"", with: "\"protocol\":\"<img src=x>\"") + "\n",
                "protocol"
            ),
            (
                header + "\n{\"e\":\"hop\",\"t\":0,\"a\":\"x\",\"b\":1,\"k\":\"msg\",\"w\":0,\"m\":0,\"try\":1}\n",
                "\"a\""
            ),
            (header + "\n{\"e\":\"pos\",\"t\":0,\"n\":7,\"x\":0,\"y\":0}\n", "node number below 2"),
            (header + "\n{\"e\":\"script\",\"t\":0}\n", "unknown record type")
        ]
        for (text, says) in tampered {
            let problem = TimelineCheck.problem(in: text)
            expect(problem?.contains(says) == true, "\(says): \(problem ?? "accepted")")
        }
        try tampered[0].0.write(to: url, atomically: true, encoding: .utf8)
        let view = try CLI.run(["view", "res"], in: dir)
        expect(view.status == 2 && view.stderr.contains("timeline.jsonl"), "\(view.stderr)")
        expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("res/view.html").path))
    }

    /// The page runs only its own scripts (a nonce, no 'unsafe-inline' scripts, so no inline
    /// event handler) and may reach no network.
    @Test func thePageCarriesAContentSecurityPolicy() {
        let page = ViewerPage.html(timeline: "{\"e\":\"header\"}\n")
        guard let meta = page.range(of: "<meta http-equiv=\"Content-Security-Policy\" content=\"") else {
            Issue.record("no Content-Security-Policy")
            return
        }
        let policy = String(page[meta.upperBound...].prefix { $0 != "\"" })
        expect(policy.contains("default-src 'none'"))
        expect(policy.contains("script-src 'nonce-") && !policy.contains("script-src 'unsafe-inline'"))
        let nonce = policy.components(separatedBy: "'nonce-")[1].prefix { $0 != "'" }
        // Every executable script element carries the nonce; the data element is not executable.
        let scripts = page.components(separatedBy: "<script").dropFirst()
        expectEqual(scripts.count, 3)
        for s in scripts {
            expect(s.hasPrefix(" nonce=\"\(nonce)\">") || s.hasPrefix(" type=\"application/json\""), "\(s.prefix(40))")
        }
    }

    /// A cells.csv value of 1e308 (or junk) is refused with its line and column instead of
    /// drawing a point at -inf; an empty value (a failed figure) is skipped as before.
    @Test func plotRefusesNumbersNoChartCanDraw() throws {
        let header =
            "environment,protocol,status,rtt_mean_ms,rtt_sd_ms,data_rate_mbps,goodput_mbps,distance_m,loss_pct,packets"
        let good = "field,udp,ok,12.5,1.0,10,9,5,0,100"
        expect(try SweepPlots.charts(cellsCSV: header + "\n" + good + "\n").count > 0)
        for bad in ["1e308", "inf", "0x1p3", "12abc"] {
            let text = header + "\n" + good + "\n" + good.replacingOccurrences(of: "12.5", with: bad) + "\n"
            #expect {
                _ = try SweepPlots.charts(cellsCSV: text)
            } throws: { error in
                "\(error)".contains("line 3, column rtt_mean_ms")
            }
        }
        let failed = header + "\n" + good + "\nfield,udp,ok,,,,,5,,100\n"
        expect(try SweepPlots.charts(cellsCSV: failed).count > 0)
    }

    /// A group message `m` to [b] makes the workload `m/b`; an explicit workload of that name
    /// would be merged with it in the results, so the pair is refused (in either order).
    @Test func aGroupsWorkloadNameCannotBeTakenTwice() {
        var base = TestScenario(name: "m", seed: 1, duration: 100, radio: nil)
        base.place("a", 0, 0)
        base.place("b", 5, 0)
        let group: JSON = ["id": "m", "from": "a", "to": ["b"], "size_bytes": 10, "count": 1, "interval_s": 1]
        let plain: JSON = ["id": "m/b", "from": "a", "to": "b", "size_bytes": 10, "count": 1, "interval_s": 1]
        for (list, at) in [([group, plain], "mesh.messages[1].id"), ([plain, group], "mesh.messages[1].id")] {
            var t = base
            t["mesh"] = ["messages": .array(list)]
            let d = t.problems
            expect(d.count == 1 && d.first?.path == at && d.first?.message.contains("\"m/b\"") == true, "\(d)")
        }
        var alone = base
        alone["mesh"] = ["messages": [group]]
        expect(alone.problems.isEmpty)
    }

    /// One writer at a time: a second lock on a locked folder is refused with a plain message,
    /// and the folder is free again once the first is released.
    @Test func aResultFolderHasOneWriterAtATime() throws {
        let dir = try temporaryFolder()
        let first = try FolderLock(dir)
        #expect {
            _ = try FolderLock(dir)
        } throws: { error in
            "\(error)".contains("another adhocsim is writing into this folder")
        }
        first.release()
        // Free again. (A process another test spawns at this instant holds a copy of the lock
        // file's descriptor from fork until its exec closes it, so the lock may linger for that
        // instant: a few tries, 10 ms apart.)
        var again: FolderLock?
        for _ in 0..<100 where again == nil {
            again = try? FolderLock(dir)
            if again == nil { usleep(10_000) }
        }
        expect(again != nil)
    }

    /// Files read back from a result folder must be regular: a FIFO in place of metadata.json
    /// (which blocked `view` and a rerun forever) or a link is not read; a regular file is,
    /// up to its limit.
    @Test func onlyRegularFilesAreReadBackFromAResultFolder() throws {
        let dir = try temporaryFolder(["plain.txt": "abc"])
        let fifo = dir.appendingPathComponent("metadata.json")
        expectEqual(mkfifo(fifo.path, 0o644), 0)
        expect(OutputFolder.readRegularFile(fifo) == nil)
        expect(!OutputFolder.isResultFolder(dir))
        let link = dir.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(
            at: link, withDestinationURL: dir.appendingPathComponent("plain.txt"))
        expect(OutputFolder.readRegularFile(link) == nil)
        expectEqual(OutputFolder.readRegularText(dir.appendingPathComponent("plain.txt")), "abc")
        expect(OutputFolder.readRegularFile(dir.appendingPathComponent("plain.txt"), limit: 2) == nil)
    }
}
