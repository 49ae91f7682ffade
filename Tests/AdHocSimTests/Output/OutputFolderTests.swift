import Foundation
import Testing
@testable import AdHocSim

/// The `--out` rule (README): run, sweep, merge and plot write only into a folder that is
/// missing, empty, or one adhocsim wrote before; anything else is refused with exit 2 and
/// left exactly as it was.
@Suite("Output folder safety", .serialized)
struct OutputFolderTests {
    @Test func runRefusesTheCurrentFolderAndTouchesNothing() throws {
        let dir = try temporaryFolder(["s.json": validScenario, "notes.txt": "mine"])
        let r = try CLI.run(["run", "s.json", "--out", "."], in: dir)
        expectEqual(r.status, 2)
        expect(r.stderr.contains("holds no adhocsim metadata.json"), "\(r.stderr)")
        expectEqual(try listing(dir), ["notes.txt", "s.json"])
        expectEqual(try String(contentsOf: dir.appendingPathComponent("notes.txt"), encoding: .utf8), "mine")
    }

    @Test func runRefusesAFolderOfSomeoneElsesFilesAndAFile() throws {
        let dir = try temporaryFolder(["s.json": validScenario])
        let theirs = dir.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: false)
        try Data("x".utf8).write(to: theirs.appendingPathComponent("thesis.tex"))
        // A metadata.json from another tool does not make the folder ours.
        try Data("{\"tool\": \"other\"}".utf8).write(to: theirs.appendingPathComponent("metadata.json"))
        let r = try CLI.run(["run", "s.json", "--out", "data"], in: dir)
        expectEqual(r.status, 2)
        expectEqual(try listing(theirs), ["metadata.json", "thesis.tex"])
        let file = try CLI.run(["run", "s.json", "--out", "s.json"], in: dir)
        expect(file.status == 2 && file.stderr.contains("is not a folder"), "\(file.stderr)")
        expectEqual(try String(contentsOf: dir.appendingPathComponent("s.json"), encoding: .utf8), validScenario)
    }

    @Test func runReplacesItsOwnEarlierFolderAndFillsAnEmptyOne() throws {
        let dir = try temporaryFolder(["s.json": validScenario])
        expectEqual(try CLI.run(["run", "s.json", "--out", "r"], in: dir).status, 0)
        // A file the user added to the earlier run's folder is kept (adhocsim never deletes what it
        // did not write); adhocsim's own files are replaced.
        try Data("old".utf8).write(to: dir.appendingPathComponent("r/stale.csv"))
        expectEqual(try CLI.run(["run", "s.json", "--out", "r"], in: dir).status, 0)
        expectEqual(try String(contentsOf: dir.appendingPathComponent("r/stale.csv"), encoding: .utf8), "old")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("empty"), withIntermediateDirectories: false)
        expectEqual(try CLI.run(["run", "s.json", "--out", "empty"], in: dir).status, 0)
        expect(try listing(dir.appendingPathComponent("empty")).contains("metadata.json"))
    }

    @Test func sweepAndMergeRefuseForeignFolders() throws {
        let dir = try temporaryFolder(["m.json": miniSweep, "keep.txt": "k"])
        let plan = try SweepPlan(path: dir.appendingPathComponent("m.json").path, overrides: [])
        #expect(throws: SweepRunner.OutputError.self) {
            try SweepRunner.run(plan, out: dir, workers: 1, shard: nil, resume: false, progress: .quiet)
        }
        expectEqual(try listing(dir), ["keep.txt", "m.json"])
        let sweep = try CLI.run(["sweep", "m.json", "--out", ".", "--quiet"], in: dir)
        expectEqual(sweep.status, 2)
        expectEqual(try listing(dir), ["keep.txt", "m.json"])
        // A shard of the sweep merged into the folder of the user's files: refused, untouched.
        let shard = dir.appendingPathComponent("s1")
        try SweepRunner.run(plan, out: shard, workers: 2, shard: (1, 12), resume: false, progress: .quiet)
        let merge = try CLI.run(["merge", "s1", "--out", "."], in: dir)
        expectEqual(merge.status, 2)
        expectEqual(try listing(dir), ["keep.txt", "m.json", "s1"])
        // An earlier sweep folder is ours: sweeping into it again is allowed.
        try SweepRunner.run(plan, out: shard, workers: 2, shard: (2, 12), resume: false, progress: .quiet)
    }

    @Test func plotRefusesAPlotsFolderHoldingOtherFiles() throws {
        let dir = try temporaryFolder(["m.json": miniSweep])
        let plan = try SweepPlan(path: dir.appendingPathComponent("m.json").path, overrides: [])
        let sweep = dir.appendingPathComponent("sw")
        try SweepRunner.run(plan, out: sweep, workers: 2, shard: nil, resume: false, progress: .quiet)
        _ = try SweepPlots.write(dir: sweep)
        _ = try SweepPlots.write(dir: sweep)  // its own charts are replaced
        let plots = sweep.appendingPathComponent("plots")
        try Data("draft".utf8).write(to: plots.appendingPathComponent("paper.tex"))
        #expect(throws: ResultDirectory.WriteError.self) { try SweepPlots.write(dir: sweep) }
        expect(try listing(plots).contains("paper.tex"))
    }
}
