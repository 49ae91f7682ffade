import Foundation
import Testing
@testable import AdHocSim

/// A thesis flow between two Wi-Fi phones 10 m apart, swept by `matrix`: by default two places,
/// three transports and two distances (1 m and the range), twice.
func miniSweepScenario(
    matrix: JSON = [
        "environment.preset": ["city", "field"], "flows[0].protocol": ["tcp", "udp", "quic"], "distance_m": [1, "max"],
        "repeat": 2
    ]
) -> TestScenario {
    var t = TestScenario(name: "mini", seed: 7, duration: 20, radio: ["technology": "wifi"])
    t["distance_m"] = 10
    t.place("client", 0, 0)
    t.place("server", 10, 0)
    t["flows"] = [
        [
            "id": "f", "from": "client", "to": "server", "protocol": "tcp",
            "workload": ["kind": "thesis", "probes": 10, "packets": 50, "size": 1024]
        ]
    ]
    t["matrix"] = matrix
    return t
}

let miniSweep = miniSweepScenario().text

func cellsCSV(_ dir: URL) throws -> String {
    try String(contentsOf: dir.appendingPathComponent("cells.csv"), encoding: .utf8)
}

@Suite("Sweeps", .serialized)
struct SweepTests {
    /// A cell's failure is read from its status, not from the CSV text: the invalid cell's
    /// message holds a comma (so its field is quoted and its text has no ",failed:"), and it is
    /// still counted failed; the valid cell is counted ok.
    @Test func failedCellsAreCountedByTheirStatus() throws {
        let dir = try temporaryFolder(["m.json": miniSweepScenario(matrix: ["distance_m": [5, -3]]).text])
        let plan = try SweepPlan(path: dir.appendingPathComponent("m.json").path, overrides: [])
        let results = plan.units.map { plan.run($0) }
        expectEqual(results.filter(\.failed).count, 1)
        let bad = try require(results.first { $0.failed })
        expect(bad.csv.contains(",\"failed:invalid: ") && !bad.csv.contains(",failed:"), "\(bad.csv)")
        let (ran, failed) = try SweepRunner.run(
            plan, out: dir.appendingPathComponent("out"), workers: 1, shard: nil, resume: false, progress: .quiet)
        expect(ran == 2 && failed == 1, "ran \(ran), failed \(failed)")
    }

    @Test func cellsAreTheCartesianProductWithStableIdsAndSeeds() throws {
        let dir = try temporaryFolder(["m.json": miniSweep])
        let plan = try SweepPlan(path: dir.appendingPathComponent("m.json").path, overrides: [])
        expectEqual(plan.matrix.cells.count, 2 * 3 * 2)
        expectEqual(plan.units.count, 24)
        expectEqual(plan.units.map(\.stem), plan.units.map(\.stem).sorted())
        // Ids depend only on the values: the same cell in another plan has the same id.
        let again = try SweepPlan(path: dir.appendingPathComponent("m.json").path, overrides: [])
        expectEqual(again.units.map(\.stem), plan.units.map(\.stem))
        let u = plan.units[0]
        expectEqual(plan.seed(of: u, cellSeed: 7), SplitMix64.mix(7 &+ StableHash.fnv1a(u.stem)))
    }

    @Test func outputIsByteIdenticalForAnyParallelismAndSharding() throws {
        let dir = try temporaryFolder(["m.json": miniSweep])
        let plan = try SweepPlan(path: dir.appendingPathComponent("m.json").path, overrides: [])
        let one = dir.appendingPathComponent("one"), two = dir.appendingPathComponent("two")
        try SweepRunner.run(plan, out: one, workers: 1, shard: nil, resume: false, progress: .quiet)
        try SweepRunner.run(plan, out: two, workers: 2, shard: nil, resume: false, progress: .quiet)
        try expectEqual(cellsCSV(one), cellsCSV(two))
        let shards = (1...3).map { dir.appendingPathComponent("shard\($0)") }
        for (k, s) in shards.enumerated() {
            try SweepRunner.run(plan, out: s, workers: 2, shard: (k + 1, 3), resume: false, progress: .quiet)
        }
        let merged = dir.appendingPathComponent("merged")
        try SweepRunner.merge(shards, out: merged)
        try expectEqual(cellsCSV(merged), cellsCSV(one))
        let text = try cellsCSV(one)
        expectEqual(text.split(separator: "\n").count, 1 + 24)
        expect(
            text.hasPrefix("cell_id,repeat,param.environment.preset,param.flows[0].protocol,param.distance_m,flow,"))
    }

    @Test func mergingDifferentSweepsIsRefused() throws {
        let dir = try temporaryFolder(["m.json": miniSweep])
        let path = dir.appendingPathComponent("m.json").path
        let a = dir.appendingPathComponent("a"), b = dir.appendingPathComponent("b")
        try SweepRunner.run(
            try SweepPlan(path: path, overrides: []), out: a, workers: 2, shard: (1, 2), resume: false, progress: .quiet
        )
        try SweepRunner.run(
            try SweepPlan(path: path, overrides: ["seed=8"]), out: b, workers: 2, shard: (2, 2), resume: false,
            progress: .quiet)
        #expect(throws: SweepRunner.OutputError.self) {
            try SweepRunner.merge([a, b], out: dir.appendingPathComponent("m"))
        }
        expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("m").path))
    }

    @Test(ScaleCheck.trait) func aKilledSweepResumesToTheSameBytes() throws {
        // A bigger matrix so the kill lands mid-way: 4 places × 3 protocols × 2 distances × 2 sizes.
        let big = miniSweepScenario(matrix: [
            "environment.preset": ["underground", "city", "field", "forest"],
            "flows[0].protocol": ["tcp", "udp", "quic"],
            "distance_m": [1, "max"], "flows[0].workload.size": [1024, 4096], "repeat": 1
        ]).text
        let dir = try temporaryFolder(["m.json": big])
        let reference = dir.appendingPathComponent("reference")
        let r = try CLI.run(["sweep", "m.json", "--out", "reference", "-j", "2", "--quiet"], in: dir)
        expectEqual(r.status, 0)
        // Start the same sweep, kill it with SIGKILL once some cells are committed, resume.
        let p = Process()
        p.executableURL = CLI.binary
        p.arguments = ["sweep", "m.json", "--out", "killed", "-j", "2", "--quiet"]
        p.currentDirectoryURL = dir
        try p.run()
        let cells = dir.appendingPathComponent("killed/cells")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let done = ((try? FileManager.default.contentsOfDirectory(atPath: cells.path)) ?? []).filter {
                $0.hasSuffix(".csv")
            }.count
            if done >= 5 { break }
            usleep(2_000)
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let committed = ((try? FileManager.default.contentsOfDirectory(atPath: cells.path)) ?? []).filter {
            $0.hasSuffix(".csv") && !$0.hasPrefix(".")
        }.count
        expect(committed >= 5 && committed < 48)
        let resumed = try CLI.run(["sweep", "m.json", "--out", "killed", "-j", "2", "--resume", "--quiet"], in: dir)
        expectEqual(resumed.status, 0)
        try expectEqual(cellsCSV(dir.appendingPathComponent("killed")), cellsCSV(reference))
    }

    @Test func aMatrixFromTheCommandLineReplacesTheFilesOwn() throws {
        let dir = try temporaryFolder([
            "m.json": miniSweep, "axes.json": "{\"distance_m\": [2, 3, 4], \"repeat\": 1}",
            "bad.json": "{\n  \"distance_m\": [2, [3]],\n  \"repeat\": 0\n}"
        ])
        let path = dir.appendingPathComponent("m.json").path
        // --set matrix={...}: 2 presets × 1 protocol, twice: 4 units, and only these axes.
        let inline = try SweepPlan(
            path: path, overrides: ["matrix={\"environment.preset\": [\"city\", \"field\"], \"repeat\": 2}"])
        expectEqual(inline.matrix.axes.map(\.path), ["environment.preset"])
        expect(inline.matrix.cellCount == 2 && inline.units.count == 4)
        // From a file: 3 distances once. The argument it becomes records the matrix, so the
        // sweep's identity (and a later merge or resume) knows it.
        let argument = try Matrix.overrideArgument(file: dir.appendingPathComponent("axes.json").path)
        expectEqual(argument, "matrix={\"distance_m\":[2,3,4],\"repeat\":1}")
        let fromFile = try SweepPlan(path: path, overrides: [argument])
        expectEqual(fromFile.units.map { Matrix.display($0.cell.assignments[0].value) }.sorted(), ["2", "3", "4"])
        expect(fromFile.base.inputHash != (try SweepPlan(path: path, overrides: [])).base.inputHash)
        let r = try CLI.run(["sweep", "m.json", "--matrix", "axes.json", "--out", "o", "--quiet"], in: dir)
        expectEqual(r.status, 0, "\(r.stderr)")
        expectEqual(try cellsCSV(dir.appendingPathComponent("o")).split(separator: "\n").count, 1 + 3)
        // A bad matrix file is reported against itself, line and column, every problem.
        let bad = try CLI.run(["sweep", "m.json", "--matrix", "bad.json", "--out", "o2"], in: dir)
        expectEqual(bad.status, 2)
        expect(bad.stderr.contains("bad.json:2:21: error: distance_m[1]: matrix values must be single values"))
        expect(bad.stderr.contains("bad.json:3:13: error: repeat: "))
        // Inline, its problems name the argument; only the top-level matrix may be an object.
        let inlineBad = try CLI.run(["sweep", "m.json", "--matrix", "{\"distance_m\": 5}", "--out", "o3"], in: dir)
        expectEqual(inlineBad.status, 2)
        expect(
            inlineBad.stderr.contains("--set matrix={\"distance_m\": 5}: error: matrix.distance_m: expected an array"))
        let elsewhere = try CLI.run(
            ["sweep", "m.json", "--set", "environment={\"preset\": \"city\"}", "--out", "o4"], in: dir)
        expect(elsewhere.status == 2 && elsewhere.stderr.contains("--set replaces single values only"))
        expectEqual(try listing(dir).filter { $0.hasPrefix("o") }, ["o"])
    }

    @Test func badSweepInputIsRefusedClearly() throws {
        let dir = try temporaryFolder([
            "empty.json": miniSweepScenario(matrix: [
                "environment.preset": ["city", "field"], "flows[0].protocol": ["tcp", "udp", "quic"], "distance_m": [],
                "repeat": 2
            ]).text,
            "nopath.json": miniSweepScenario(matrix: [
                "environment.preset": ["city", "field"], "flows[0].protocol": ["tcp", "udp", "quic"],
                "environment.presett": [1],
                "repeat": 2
            ]).text,
            "m.json": miniSweep
        ])
        let empty = try CLI.run(["sweep", "empty.json", "--out", "o1"], in: dir)
        expect(empty.status == 2 && empty.stderr.contains("matrix.distance_m: expected at least one value"))
        let nopath = try CLI.run(["sweep", "nopath.json", "--out", "o2"], in: dir)
        expect(nopath.status == 2 && nopath.stderr.contains("matrix.environment.presett: the path does not exist"))
        let shard = try CLI.run(["sweep", "m.json", "--shard", "4/3", "--out", "o3"], in: dir)
        expect(
            shard.status == 2
                && shard.stderr.contains(
                    "--shard expects K/N with 1 ≤ K ≤ N ≤ 1000000 (a sweep's most units), found \"4/3\"")
        )
        // An output folder that cannot be created (a file stands where its parent should be;
        // unlike permission bits, this holds for root too).
        try Data("x".utf8).write(to: dir.appendingPathComponent("blocker"))
        let blocked = try CLI.run(["sweep", "m.json", "--out", "blocker/out"], in: dir)
        expect(blocked.status == 2 && blocked.stderr.contains("cannot create the sweep folder"))
        expect(try listing(dir).filter { $0.hasPrefix("o") }.isEmpty)
    }
}

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Plots")
struct PlotTests {
    final class Collector: NSObject, XMLParserDelegate {
        var series: [String] = []
        var boxes: [String] = []
        var keys: [String] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if let s = attributes["data-series"] { series.append(s) }
            if let b = attributes["data-label"] { boxes.append(b) }
            if attributes["class"] == "box", let k = attributes["data-key"] { keys.append(k) }
        }
    }

    @Test func chartsAreWellFormedSvgWithTheExpectedSeries() throws {
        let dir = try temporaryFolder(["m.json": miniSweep])
        let plan = try SweepPlan(path: dir.appendingPathComponent("m.json").path, overrides: [])
        let out = dir.appendingPathComponent("out")
        try SweepRunner.run(plan, out: out, workers: 2, shard: nil, resume: false, progress: .quiet)
        let files = try SweepPlots.write(dir: out)
        expect(
            files.contains("rtt-by-place-and-protocol.svg") && files.contains("goodput-vs-distance-city.svg")
                && files.contains("goodput-vs-distance-field.svg") && files.contains("range-per-place.svg"))
        for f in files {
            let data = try Data(contentsOf: out.appendingPathComponent("plots/\(f)"))
            let parser = XMLParser(data: data)
            let c = Collector()
            parser.delegate = c
            expect(parser.parse(), "\(f) is not well-formed XML")
            switch f {
            case _ where f.hasPrefix("goodput-vs-distance-") || f.hasPrefix("data-rate-vs-distance-"):
                expectEqual(c.series, ["TCP", "UDP", "QUIC"])
            case _ where f.hasPrefix("udp-loss-vs-packets"): expectEqual(c.series, ["city", "field"])
            case "rtt-by-place-and-protocol.svg":
                // A group per place, a box per protocol in each.
                expectEqual(c.boxes, ["city", "field"])
                expectEqual(c.keys, ["tcp", "udp", "quic", "tcp", "udp", "quic"])
            case "range-per-place.svg": expectEqual(c.boxes, ["city", "field"])
            default: break
            }
        }
        expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("plots/index.html").path))
    }
}
