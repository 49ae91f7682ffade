import Foundation
import Testing
@testable import AdHocSim

let fiveMistakes = """
    {
      "name": "five-mistakes",
      "seed": -3,
      "duration_s": 0,
      "environment": { "preset": "feld" },
      "nodes": [ { "id": "A", "position": [0, 0, 0] }, { "id": "A", "position": [1, 0, 0] } ],
      "flow": []
    }
    """

@Suite("Command line", .serialized)
struct CLITests {
    @Test func versionAndHelp() throws {
        let dir = try temporaryFolder()
        let v = try CLI.run(["--version"], in: dir)
        expect(v.status == 0 && v.stdout == "adhocsim \(RunFiles.toolVersion)\n")
        let h = try CLI.run(["run", "--help"], in: dir)
        expect(h.status == 0 && h.stdout.contains("adhocsim run FILE"))
        let none = try CLI.run([], in: dir)
        expect(none.status == 2 && none.stderr.contains("Usage:"))
        let typo = try CLI.run(["rnu"], in: dir)
        expect(typo.status == 2 && typo.stderr.contains("did you mean \"run\"?"))
    }

    @Test func validateReportsEveryMistakeAndWritesNothing() throws {
        let dir = try temporaryFolder(["bad.json": fiveMistakes, "good.json": validScenario])
        let r = try CLI.run(["validate", "bad.json"], in: dir)
        expectEqual(r.status, 2)
        let errors = r.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        expectEqual(errors.count, 5)
        expect(errors.contains { $0.hasPrefix("bad.json:3:11: error: seed: ") })
        expect(errors.contains { $0.hasPrefix("bad.json:4:17: error: duration_s: ") })
        expect(errors.contains { $0.contains("environment.preset: ") && $0.contains("did you mean \"field\"?") })
        expect(errors.contains { $0.contains("nodes[1].id: duplicate node id \"A\"") })
        expect(errors.contains { $0.contains("flow: unknown key \"flow\"; did you mean \"flows\"?") })
        expectEqual(try listing(dir), ["bad.json", "good.json"])
        let good = try CLI.run(["validate", "good.json"], in: dir)
        expect(good.status == 0 && good.stdout.contains("good.json: ok"))
        let both = try CLI.run(["validate", "good.json", "bad.json"], in: dir)
        expectEqual(both.status, 2)
    }

    @Test func runWritesResultsAtomicallyIntoTheChosenFolder() throws {
        let dir = try temporaryFolder(["s.json": validScenario])
        let r = try CLI.run(["run", "s.json", "--out", "out/run1"], in: dir)
        expectEqual(r.status, 0, "\(r.stderr)")
        expect(r.stdout.contains("results: out/run1"))
        let out = dir.appendingPathComponent("out/run1")
        expectEqual(try listing(out), [
                ResultDirectory.manifestName, "links.csv", "metadata.json", "nodes.csv", "rtt_samples.csv", "scenario.json", "summary.csv",
                "summary.json", "traffic.csv"
            ])
        expectEqual(try listing(dir.appendingPathComponent("out")), ["run1"])  // no staging left over
        let nodes = try String(contentsOf: out.appendingPathComponent("nodes.csv"), encoding: .utf8)
        expectEqual(nodes, "node,x_m,y_m,z_m\nA,0.000,0.000,1.200\nB,10.000,0.000,1.200\n")
        let meta = try String(contentsOf: out.appendingPathComponent("metadata.json"), encoding: .utf8)
        expect(meta.contains("\"seed\": 42,"))
        expect(meta.contains("\"simulated_time_s\": 60.000000000,"))
        expect(meta.contains("\"input_hash\": \"fnv1a64:"))
        expect(meta.contains("\"wall_time_s\": "))
    }

    @Test func runDefaultsToResultsSlashName() throws {
        let dir = try temporaryFolder(["s.json": validScenario])
        let r = try CLI.run(["run", "s.json", "--seed", "7", "--set", "nodes[1].position[0]=30"], in: dir)
        expectEqual(r.status, 0, "\(r.stderr)")
        let out = dir.appendingPathComponent("results/two-phones")
        let meta = try String(contentsOf: out.appendingPathComponent("metadata.json"), encoding: .utf8)
        expect(meta.contains("\"seed\": 7,"))
        let nodes = try String(contentsOf: out.appendingPathComponent("nodes.csv"), encoding: .utf8)
        expect(nodes.contains("B,30.000,0.000,1.200"))
    }

    @Test func badInputExitsTwoAndWritesNothing() throws {
        let dir = try temporaryFolder(["bad.json": fiveMistakes, "s.json": validScenario])
        let bad = try CLI.run(["run", "bad.json", "--out", "out"], in: dir)
        expectEqual(bad.status, 2)
        expect(bad.stderr.contains("5 problems in bad.json; nothing was run or written."))
        let missing = try CLI.run(["run", "nope.json"], in: dir)
        expect(missing.status == 2 && missing.stderr.contains("nope.json: error: no such file"))
        let option = try CLI.run(["run", "s.json", "--seeds", "1"], in: dir)
        expect(option.status == 2 && option.stderr.contains("did you mean --seed?"))
        let seed = try CLI.run(["run", "s.json", "--seed", "abc"], in: dir)
        expect(seed.status == 2 && seed.stderr.contains("--seed expects a whole number"))
        let set = try CLI.run(["run", "s.json", "--set", "duration_s=-1"], in: dir)
        expect(set.status == 2 && set.stderr.contains("--set duration_s=-1: error: duration_s: "))
        expectEqual(try listing(dir), ["bad.json", "s.json"])
    }

    @Test func rerunningGivesByteIdenticalResults() throws {
        let dir = try temporaryFolder(["s.json": validScenario])
        for out in ["a", "b"] {
            let r = try CLI.run(["run", "s.json", "--out", out, "--quiet"], in: dir)
            expect(r.status == 0 && r.stdout.isEmpty)
        }
        for file in [
            "nodes.csv", "scenario.json", "metadata.json", "links.csv", "traffic.csv", "summary.csv", "summary.json",
            "rtt_samples.csv"
        ] {
            let a = try String(contentsOf: dir.appendingPathComponent("a/\(file)"), encoding: .utf8)
            let b = try String(contentsOf: dir.appendingPathComponent("b/\(file)"), encoding: .utf8)
            expectEqual(deterministicPart(a), deterministicPart(b), "\(file)")
        }
    }

    @Test func benchPrintsEventsPerSecond() throws {
        let dir = try temporaryFolder()
        let r = try CLI.run(["bench", "core", "--population", "100", "--events", "20000", "--repeat", "1"], in: dir)
        expectEqual(r.status, 0)
        let line = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let field = line.split(separator: " ").first { $0.hasPrefix("events_per_s=") }
        expect(field.flatMap { Int($0.dropFirst("events_per_s=".count)) } != nil, "\(line)")
        expect(line.contains("population=100 events=20000"))
    }
}
