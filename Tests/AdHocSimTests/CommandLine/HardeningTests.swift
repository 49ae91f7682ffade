import Foundation
import Testing
@testable import AdHocSim

/// A scenario with one of everything that has a duration: a mesh with a message workload, a
/// broadcast generator, a TCP flow and an ideal-link delay.
let everyDuration = """
    {"name": "d", "seed": 1, "duration_s": 10, "environment": {"preset": "field"},
     "radio": {"technology": "wifi"},
     "transport": {"tcp": {"delayedAckMs": 100, "keepaliveIdleS": 2}},
     "mesh": {"heartbeatIntervalS": 5, "routeTimeoutS": 15, "peerTimeoutS": 3, "confirmTimeoutS": 4,
              "messages": [{"id": "m", "from": "A", "to": "B", "size_bytes": 100, "count": 2, "interval_s": 1}]},
     "traffic": [{"kind": "broadcast", "intervalS": 1, "bytes": 100}],
     "nodes": [{"id": "A", "position": [0, 0, 1.2]}, {"id": "B", "position": [10, 0, 1.2]}],
     "flows": [{"id": "f", "from": "A", "to": "B", "protocol": "udp", "workload": {"kind": "cbr", "rateMbps": 1, "size": 1000}}]}
    """

@Suite("Hardening")
struct HardeningTests {
    /// Class 1: every duration and interval key refuses a value that rounds to zero
    /// nanoseconds, naming its JSON path, where it used to be accepted and then spin at one
    /// instant for the whole event budget.
    @Test func everyDurationKeyRefusesValuesBelowOneNanosecond() throws {
        expect(diagnostics(everyDuration).isEmpty)
        let seconds = [
            "duration_s", "mesh.heartbeatIntervalS", "mesh.routeTimeoutS", "mesh.peerTimeoutS",
            "mesh.confirmTimeoutS", "mesh.messages[0].interval_s", "traffic[0].intervalS",
            "transport.tcp.keepaliveIdleS"
        ]
        for key in seconds {
            let d = diagnostics(everyDuration, overrides: ["\(key)=1e-10"])
            expect(d.count == 1 && d[0].path == key && d[0].message.contains("rounds to 0 ns"), "\(key): \(d)")
            // One nanosecond is the clock's resolution and is accepted (where the range allows).
            if key != "duration_s" {
                expect(
                    diagnostics(everyDuration, overrides: ["\(key)=1e-9"]).allSatisfy { !$0.message.contains("0 ns") })
            }
        }
        // Milliseconds: 1e-7 ms is 0.1 ns; zero itself means "no delay" and stays valid.
        for key in ["transport.tcp.delayedAckMs"] {
            let d = diagnostics(everyDuration, overrides: ["\(key)=1e-7"])
            expect(d.count == 1 && d[0].path == key && d[0].message.contains("rounds to 0 ns"), "\(d)")
            expect(diagnostics(everyDuration, overrides: ["\(key)=0"]).isEmpty)
        }
        // A CBR of 100 000 Mbit/s in 1-byte writes would write every 0.08 ns.
        let cbr = diagnostics(
            everyDuration, overrides: ["flows[0].workload.rateMbps=100000", "flows[0].workload.size=1"])
        expect(cbr.count == 1 && cbr[0].path == "flows[0].workload.rateMbps", "\(cbr)")
    }
}

@Suite("Hardening: limits, merges, messages", .serialized)
struct HardeningLimitTests {
    /// Class 2: a matrix's size is the product of its axes, checked before any cell is built.
    @Test func aHugeMatrixIsRefusedBeforeItsCellsAreBuilt() {
        let axes = (0..<4).map {
            "\"nodes[\($0 % 2)].position[\($0 / 2)]\": [\((1...100).map(String.init).joined(separator: ", "))]"
        }
        let text = validScenario.replacingOccurrences(
            of: "\"flows\": []", with: "\"flows\": [], \"matrix\": {\(axes.joined(separator: ", "))}")
        let d = diagnostics(text)  // 100⁴ = 10⁸ cells
        expect(d.count == 1 && d[0].path == "matrix" && d[0].message.contains("100000000 runs"), "\(d)")
    }

    /// Class 7: equal values in one axis would give two cells the same id.
    @Test func duplicateAxisValuesAreRefusedNamingTheAxis() {
        let text = validScenario.replacingOccurrences(
            of: "\"flows\": []", with: "\"flows\": [], \"matrix\": {\"nodes[1].position[0]\": [5, 10, 5]}")
        let d = diagnostics(text)
        expect(
            d.count == 1 && d[0].path == "matrix.nodes[1].position[0][2]" && d[0].message.contains("appears twice"),
            "\(d)")
    }

    /// Class 2: random-waypoint parameters that would need millions of waypoints.
    @Test func aRandomWaypointAreaTooSmallForTheDurationIsRefused() {
        let mobile =
            "{ \"id\": \"B\", \"position\": [10, 0, 1.2], \"mobility\": {\"model\": \"random-waypoint\", "
            + "\"speedMps\": [1, 1], \"pauseS\": [0, 0], \"area\": [[0, 0], [0.000000001, 0.000000001]]} }"
        let text = mutated("{ \"id\": \"B\", \"position\": [10, 0, 1.2] }", mobile)
        let d = diagnostics(text)
        expect(d.count == 1 && d[0].path == "nodes[1].mobility" && d[0].message.contains("waypoints"), "\(d)")
        // A walker crossing a 100 m square with pauses is fine: 60 s needs a handful.
        expect(diagnostics(text.replacingOccurrences(of: "[0.000000001, 0.000000001]", with: "[100, 100]")).isEmpty)
    }

    /// Class 3: a `--set` path or a matrix axis of more components than any scenario key has
    /// is refused by its length, without building anything.
    @Test func overlongPathsAreRefused() {
        let long = String(repeating: "a.", count: 60_000) + "b"
        let d = diagnostics(validScenario, overrides: ["\(long)=1"])
        expect(d.count == 1 && d[0].message.contains("at most 32 components"))
        expect(d[0].description.count < 1000)  // the 120 000-character path is not echoed whole
        let axis = String(repeating: "x.", count: 200_000) + "y"
        let m = diagnostics(
            validScenario.replacingOccurrences(
                of: "\"flows\": []", with: "\"flows\": [], \"matrix\": {\"\(axis)\": [1]}"))
        expect(m.count == 1 && m[0].message.contains("at most 32 components"))
    }

    /// Class 8: keys and values with newlines or terminal escapes are printed escaped, on one line.
    @Test func controlCharactersNeverReachTheTerminal() {
        let text = validScenario.replacingOccurrences(
            of: "\"flows\": []", with: "\"flows\": [], \"x\\u001b[2J\\ny\": 1")
        let d = diagnostics(text)
        expectEqual(d.count, 1)
        let line = d[0].description
        expect(!line.contains("\n") && !line.unicodeScalars.contains { $0.value == 0x1B })
        expect(line.contains("x\\u{1B}[2J\\ny"))
    }

    /// Class 5: columns stay right when many problems share one long line (the column count
    /// continues from the previous problem on the line).
    @Test func columnsAreRightForManyProblemsOnOneLine() {
        let keys = (0..<50).map { "\"z\($0)\": 1" }.joined(separator: ", ")
        let text =
            "{\"name\": \"m\", \"seed\": 1, \"duration_s\": 1, \"environment\": {\"preset\": \"city\"}, "
            + "\"nodes\": [{\"id\": \"A\", \"position\": [0, 0, 0]}], \(keys)}"
        let d = diagnostics(text)
        expectEqual(d.count, 50)
        // Key k's column is its opening quote's 1-based character position in the one-line text.
        for (k, diagnostic) in d.enumerated() {
            let quote = text.range(of: "\"z\(k)\"")!.lowerBound
            expect(
                diagnostic.line == 1 && diagnostic.column == text.distance(from: text.startIndex, to: quote) + 1,
                "z\(k)")
        }
    }

    /// Class 5: "did you mean" among thousands of node ids gives what comparing every id
    /// gives, for every word within one edit of an id (the index looks only at those).
    @Test func suggestionsAmongManyIdsMatchTheFullComparison() {
        let ids = (0..<3000).map { "node\($0)" }.sorted()
        let index = SuggestionIndex(ids)
        for q in ["nod42", "nodee42", "mode42", "node2217x", "ode999", "NODE7", "node12a"] {
            expectEqual(index.closest(to: q), Suggestion.closest(to: q, among: ids), "\(q)")
            expect(index.closest(to: q) != nil, "\(q)")
        }
        expect(index.closest(to: "zzzzzz") == nil)
    }

    /// Class 11: validate runs the same support checks as run.
    @Test func validateRefusesWhatRunRefuses() throws {
        let text = validScenario.replacingOccurrences(
            of: "\"flows\": []", with: "\"flows\": [], \"radio\": {\"technology\": \"ideal\"}, \"mesh\": {}")
        let dir = try temporaryFolder(["m.json": text])
        let v = try CLI.run(["validate", "m.json"], in: dir)
        expect(v.status == 2 && v.stderr.contains("mesh: the mesh needs a radio"), "\(v.stderr)")
    }

    /// Class 11: messages a user can act on.
    @Test func unreadableInputsGetPlainReasons() throws {
        let dir = try temporaryFolder()
        let empty = try CLI.run(["validate", ""], in: dir)
        expect(empty.status == 2 && empty.stderr.hasPrefix("\"\": error: an empty file name"))
        let null = try CLI.run(["validate", "/dev/null"], in: dir)
        expect(
            null.status == 2
                && null.stderr.contains("/dev/null:1:1: error: invalid JSON: expected a value, found end of file"))
        let version = try CLI.run(["--version", "junk"], in: dir)
        expect(version.status == 2 && version.stderr.contains("takes no arguments"))
        let help = try CLI.run(["-h", "junk"], in: dir)
        expect(help.status == 2 && help.stderr.contains("no help for \"junk\""))
    }

    /// Plot never steps an axis to infinity. A value that is
    /// not a plain decimal within ±10¹⁵ (inf, nan, 1e308) is refused with its line and column
    /// instead of being skipped silently or drawn at -inf; an empty field (a failed figure) is
    /// skipped.
    @Test func plotRefusesInfinities() throws {
        let header =
            "cell_id,repeat,flow,environment,technology,protocol,distance_m,packets,size_bytes,probes,seed,rtt_mean_ms,"
            + "rtt_sd_ms,rtt_min_ms,rtt_p50_ms,rtt_p95_ms,rtt_max_ms,jitter_rfc3550_ms,data_rate_mbps,goodput_mbps,loss_pct,status"
        let good = "b,0,f,city,awdl,udp,10,100,1024,10,1,3,1,1,1,1,1,1,5,5,0,ok"
        let cases = [
            ("a,0,f,city,awdl,tcp,10,100,1024,10,1,inf,1,1,1,1,1,1,5,5,0,ok", "line 3, column rtt_mean_ms"),
            ("a,0,f,city,awdl,tcp,10,100,1024,10,1,3,1,1,1,1,1,1,5,nan,0,ok", "line 3, column goodput_mbps"),
            ("a,0,f,city,awdl,tcp,1e308,100,1024,10,1,3,1,1,1,1,1,1,5,5,0,ok", "line 3, column distance_m")
        ]
        for (row, says) in cases {
            #expect {
                _ = try SweepPlots.charts(cellsCSV: header + "\n" + good + "\n" + row + "\n")
            } throws: { error in
                "\(error)".contains(says)
            }
        }
        let blank = "a,0,f,city,awdl,tcp,10,100,1024,10,1,,1,1,1,1,1,1,,,0,ok"
        let charts = try SweepPlots.charts(cellsCSV: header + "\n" + good + "\n" + blank + "\n")
        expect(!charts.isEmpty)
        expect(charts.allSatisfy { !$0.chart.svg.contains("inf") && !$0.chart.svg.contains("nan") })
    }

    /// A shard count without bound: `--shard` takes at most `Matrix.maxUnits` shards, a
    /// metadata.json claiming more is refused, and a merge of a set with a million shards names
    /// ten missing ones and counts the rest instead of listing them all.
    @Test func shardCountsAreBounded() throws {
        let dir = try temporaryFolder(["m.json": miniSweep])
        let huge = try CLI.run(["sweep", "m.json", "--shard", "1/1000000000000", "--out", "h"], in: dir)
        expect(huge.status == 2 && huge.stderr.contains("1 ≤ K ≤ N ≤ 1000000"), "\(huge.stderr)")
        expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("h").path))
        let plan = try SweepPlan(path: dir.appendingPathComponent("m.json").path, overrides: [])
        let s1 = dir.appendingPathComponent("s1")
        try SweepRunner.run(plan, out: s1, workers: 2, shard: (1, 1_000_000), resume: false, progress: .quiet)
        let merged = try CLI.run(["merge", "s1", "--out", "m"], in: dir)
        expect(
            merged.status == 2 && merged.stderr.contains("(999999 shards not given: 2/1000000, 3/1000000"),
            "\(merged.stderr)")
        expect(merged.stderr.count < 4_000, "\(merged.stderr.count) bytes")
        let meta = s1.appendingPathComponent("metadata.json")
        let text = try String(contentsOf: meta, encoding: .utf8)
        try text.replacingOccurrences(of: "\"1/1000000\"", with: "\"1/1000000000000\"").write(
            to: meta, atomically: true, encoding: .utf8)
        let tampered = try CLI.run(["merge", "s1", "--out", "m"], in: dir)
        expect(
            tampered.status == 2 && tampered.stderr.contains("is not K/N with 1 ≤ K ≤ N ≤ 1000000"),
            "\(tampered.stderr)")
    }

    /// A cell's files must be that cell's: a `.csv` holding another cell's row (swapped with
    /// it) is refused by `merge` with the file named, and `--resume` runs the cell again, ending
    /// with the bytes of a fresh sweep.
    @Test func swappedCellsAreNotTrusted() throws {
        let dir = try temporaryFolder(["m.json": miniSweep])
        expectEqual(try CLI.run(["sweep", "m.json", "--out", "fresh", "-j", "2", "--quiet"], in: dir).status, 0)
        expectEqual(try CLI.run(["sweep", "m.json", "--out", "s", "-j", "2", "--quiet"], in: dir).status, 0)
        let cells = dir.appendingPathComponent("s/cells")
        let names = try FileManager.default.contentsOfDirectory(atPath: cells.path).filter { $0.hasSuffix(".csv") }
            .sorted()
        let (a, b) = (cells.appendingPathComponent(names[0]), cells.appendingPathComponent(names[1]))
        let (ta, tb) = (try String(contentsOf: a, encoding: .utf8), try String(contentsOf: b, encoding: .utf8))
        try tb.write(to: a, atomically: true, encoding: .utf8)
        try ta.write(to: b, atomically: true, encoding: .utf8)
        let merged = try CLI.run(["merge", "s", "--out", "m"], in: dir)
        expect(merged.status == 2 && merged.stderr.contains("not this file's"), "\(merged.stderr)")
        expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("m").path))
        expectEqual(try CLI.run(["sweep", "m.json", "--out", "s", "-j", "2", "--quiet", "--resume"], in: dir).status, 0)
        expectEqual(try cellsCSV(dir.appendingPathComponent("s")), try cellsCSV(dir.appendingPathComponent("fresh")))
    }

    /// Every line of a sweep's `cells.jsonl` is JSON, also for the columns a layer adds (a
    /// Bluetooth LE sweep's scanner and advertiser ids are strings, not bare words).
    @Test func aBluetoothSweepWritesJsonLines() throws {
        let root = Repository.root
        let dir = try temporaryFolder()
        let r = try CLI.run(
            [
                "sweep", root.appendingPathComponent("topologies/ble/two-phones.json").path, "--matrix",
                #"{"nodes[1].position[0]": [2, 8]}"#,
                "--out", "b", "--quiet"
            ], in: dir)
        expectEqual(r.status, 0, "\(r.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("b/cells.jsonl"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        expect(!lines.isEmpty)
        for line in lines {
            guard case .object(let members)? = JSONParser.parseScalar(String(line)) else {
                Issue.record("not a JSON object: \(line.prefix(200))")
                continue
            }
            expect(members.contains { $0.key == "ble_scanner" }, "\(line.prefix(200))")
        }
    }

    /// Class 4 and 10: merge reads only checked numbers and merges only complete sets.
    @Test func mergeRefusesIncompleteDuplicatedOrCorruptSets() throws {
        let dir = try temporaryFolder(["m.json": miniSweep])
        let plan = try SweepPlan(path: dir.appendingPathComponent("m.json").path, overrides: [])
        let shards = (1...3).map { dir.appendingPathComponent("s\($0)") }
        for (k, s) in shards.enumerated() {
            try SweepRunner.run(plan, out: s, workers: 2, shard: (k + 1, 3), resume: false, progress: .quiet)
        }
        // One of three shards: refused, naming what is missing.
        let one = try CLI.run(["merge", "s1", "--out", "m1"], in: dir)
        expect(one.status == 2 && one.stderr.contains("16 of the sweep's 24 units are missing"), "\(one.stderr)")
        expect(one.stderr.contains("(2 shards not given: 2/3, 3/3)"), "\(one.stderr)")
        expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("m1").path))
        // With --allow-partial it merges and warns.
        let partial = try CLI.run(["merge", "s1", "--out", "m1", "--allow-partial"], in: dir)
        expect(partial.status == 0 && partial.stderr.contains("warning: 16 of the sweep's 24 units are missing"))
        // The same shard twice.
        let twice = try CLI.run(["merge", "s1", "s1", "s2", "s3", "--out", "m2"], in: dir)
        expect(twice.status == 2 && twice.stderr.contains("are both shard 1/3"))
        // A cut-short cell file.
        let cells = shards[1].appendingPathComponent("cells")
        let victim = try require(
            try FileManager.default.contentsOfDirectory(atPath: cells.path).sorted().first { $0.hasSuffix(".csv") })
        try Data("a,b".utf8).write(to: cells.appendingPathComponent(victim))
        let corrupt = try CLI.run(["merge", "s1", "s2", "s3", "--out", "m3"], in: dir)
        expect(corrupt.status == 2 && corrupt.stderr.contains("empty or cut short"), "\(corrupt.stderr)")
        // A number no Int can hold in metadata.json: a clear refusal, not a trap.
        let meta = shards[2].appendingPathComponent("metadata.json")
        let text = try String(contentsOf: meta, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "\"units_total\": 24", with: "\"units_total\": 1e300").utf8).write(
            to: meta)
        let huge = try CLI.run(["merge", "s3", "--out", "m4"], in: dir)
        expect(huge.status == 2 && huge.stderr.contains("out of range"), "\(huge.stderr)")
        let resume = try CLI.run(["sweep", "m.json", "--out", "s3", "--resume", "--quiet", "--shard", "3/3"], in: dir)
        // Resuming into it is refused with the reason, not a trap (exit 132) and not a blind resume.
        expect(resume.status == 2 && resume.stderr.contains("cannot resume"), "\(resume.stderr)")
    }

    /// Class 10: a resumed sweep removes the temporary files a killed run left behind.
    @Test func resumeCleansStaleTemporaryFiles() throws {
        let dir = try temporaryFolder(["m.json": miniSweep])
        let plan = try SweepPlan(path: dir.appendingPathComponent("m.json").path, overrides: [])
        let out = dir.appendingPathComponent("sw")
        try SweepRunner.run(plan, out: out, workers: 2, shard: (1, 4), resume: false, progress: .quiet)
        let stale = out.appendingPathComponent("cells/.x.csv.tmp-999-1")
        try Data("half".utf8).write(to: stale)
        try SweepRunner.run(plan, out: out, workers: 2, shard: (1, 4), resume: true, progress: .quiet)
        expect(!FileManager.default.fileExists(atPath: stale.path))
    }
}
