// The commands around the simulation refuse what would move, overwrite or mislabel a user's
// files, and print nothing that steers a terminal: linked output folders, half-written or
// shared goldens, control characters in arguments and stored logs, an overrides file's own
// errors, and files larger than a command reads.
import Foundation
import Testing
@testable import AdHocSim

@Suite("Tool safety: links, goldens, terminals, overrides, sizes", .serialized)
struct ToolSafetyTests {
    let twoPhones = Repository.root.appendingPathComponent("topologies/two-phones.json").path
    let lineFive = Repository.root.appendingPathComponent("topologies/regression/line-5.json").path
    let grid = Repository.root.appendingPathComponent("topologies/regression/grid-3x3.json").path
    let measured = Repository.root.appendingPathComponent("topologies/field-data/dev-tests.csv").path
    let shippedCells = Repository.root.appendingPathComponent("results/thesis-2025/cells.csv")

    /// The first raw control or bidi character of `text` other than line feeds and tabs.
    func rawControl(_ text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { $0 != "\n" && $0 != "\t" && Diagnostic.isControl($0) }
    }

    /// `run --out LINK` and `compare` into a linked `compare/` refuse, and the link's target
    /// keeps its own files (one of them an adhocsim metadata.json, so the folder would pass as
    /// an earlier result).
    @Test func aLinkedOutputFolderIsRefusedAndItsTargetKept() throws {
        let dir = try temporaryFolder()
        let fm = FileManager.default
        let target = dir.appendingPathComponent("real")
        try fm.createDirectory(at: target, withIntermediateDirectories: true)
        try Data(#"{"tool": "adhocsim"}"#.utf8).write(to: target.appendingPathComponent("metadata.json"))
        try Data("mine".utf8).write(to: target.appendingPathComponent("notes.txt"))
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("link").path, withDestinationPath: "real")
        let run = try CLI.run(["run", twoPhones, "--out", "link", "--quiet"], in: dir)
        expect(run.status == 2 && run.stderr.contains("link is a symbolic link (to real)"), "\(run.stderr)")
        expectEqual(try listing(target), ["metadata.json", "notes.txt"])

        let sweep = dir.appendingPathComponent("sweep")
        try fm.createDirectory(at: sweep, withIntermediateDirectories: true)
        try fm.copyItem(at: shippedCells, to: sweep.appendingPathComponent("cells.csv"))
        try fm.createSymbolicLink(atPath: sweep.appendingPathComponent("compare").path, withDestinationPath: "../real")
        let compare = try CLI.run(["compare", "sweep", "--measured", measured, "--quiet"], in: dir)
        expect(compare.status == 2 && compare.stderr.contains("compare is a symbolic link"), "\(compare.stderr)")
        expectEqual(try listing(target), ["metadata.json", "notes.txt"])
        expectEqual(try String(contentsOf: target.appendingPathComponent("notes.txt"), encoding: .utf8), "mine")
    }

    /// `check --update-golden` decodes every file before it writes a golden: a later file's bad
    /// input leaves the earlier goldens as they were (here: none written, and an existing one
    /// unchanged).
    @Test func aLaterBadFileWritesNoGolden() throws {
        let dir = try temporaryFolder(["bad.json": "{\"name\": "])
        let fresh = try CLI.run(["check", lineFive, "bad.json", "--golden", "g", "--update-golden"], in: dir)
        expect(fresh.status == 2 && fresh.stderr.contains("bad.json"), "\(fresh.stderr)")
        expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("g/line-5.routes").path))

        expectEqual(try CLI.run(["check", lineFive, "--golden", "g", "--update-golden"], in: dir).status, 0)
        let golden = dir.appendingPathComponent("g/line-5.routes")
        try Data("stored\n".utf8).write(to: golden)
        let again = try CLI.run(["check", lineFive, "bad.json", "--golden", "g", "--update-golden"], in: dir)
        expectEqual(again.status, 2)
        expectEqual(try String(contentsOf: golden, encoding: .utf8), "stored\n")
    }

    /// Two scenario files with one base name would write one golden: refused before either
    /// runs, naming both (also when the names differ only in case, one file on macOS's disks).
    @Test func twoFilesSharingAGoldenAreRefused() throws {
        let dir = try temporaryFolder()
        let fm = FileManager.default
        for sub in ["a", "b"] {
            try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try fm.copyItem(atPath: lineFive, toPath: dir.appendingPathComponent("a/x.json").path)
        try fm.copyItem(atPath: grid, toPath: dir.appendingPathComponent("b/x.json").path)
        try fm.copyItem(atPath: grid, toPath: dir.appendingPathComponent("b/X.json").path)
        for pair in [["a/x.json", "b/x.json"], ["a/x.json", "b/X.json"]] {
            let r = try CLI.run(["check"] + pair + ["--golden", "g", "--update-golden"], in: dir)
            expect(
                r.status == 2 && r.stderr.contains("\(pair[0]) and \(pair[1]) would share the golden"), "\(r.stderr)")
            expect(!fm.fileExists(atPath: dir.appendingPathComponent("g").path))
        }
    }

    /// Control characters in arguments (an unknown option, `--seed`, `--shard`), in a tampered
    /// golden log and in a sweep's progress lines are printed escaped, never raw.
    @Test func controlCharactersInArgumentsAndLogsAreEscaped() throws {
        let dir = try temporaryFolder()
        let attacks = [
            ["run", twoPhones, "--bogus\u{1b}]0;owned\u{7}"],
            ["run", twoPhones, "--seed", "1\u{1b}[2J"],
            ["sweep", twoPhones, "--shard", "1/2\u{202E}"],
            ["check", lineFive, "--golden", "no\u{8}such"]
        ]
        for args in attacks {
            let r = try CLI.run(args, in: dir)
            expectEqual(r.status, 2, "\(args)")
            expect(rawControl(r.stderr + r.stdout) == nil, "\(args): \(r.stderr.debugDescription)")
            expect(r.stderr.contains("\\u{"), "\(r.stderr)")
        }
        expectEqual(try CLI.run(["check", lineFive, "--golden", "g", "--update-golden"], in: dir).status, 0)
        let golden = dir.appendingPathComponent("g/line-5.routes")
        var text = try String(contentsOf: golden, encoding: .utf8)
        text = text.replacingOccurrences(of: "A B", with: "A\u{1b}[31m\u{202E} B")
        try Data(text.utf8).write(to: golden)
        let tampered = try CLI.run(["check", lineFive, "--golden", "g"], in: dir)
        expectEqual(tampered.status, 1, "\(tampered.stdout)")
        expect(rawControl(tampered.stdout + tampered.stderr) == nil, "\(tampered.stdout.debugDescription)")

        let axis = #"{"name": ["x\u001b[2Jy", "z\u202Ew"], "duration_s": [1]}"#
        let swept = try CLI.run(
            ["sweep", twoPhones, "--matrix", axis, "--set", "flows[0].workload.packets=2", "--out", "o", "-j", "1"],
            in: dir)
        expectEqual(swept.status, 0, "\(swept.stderr)")
        expect(swept.stderr.contains("[1/2]"), "\(swept.stderr)")
        expect(rawControl(swept.stderr + swept.stdout) == nil, "\(swept.stderr.debugDescription)")
    }

    /// A value of `--overrides FILE` that the scenario refuses is blamed on that file, with the
    /// key, not on a `--set` the user never typed.
    @Test func anOverridesFileIsNamedInItsErrors() throws {
        let dir = try temporaryFolder(["cal.json": #"{"host.sendUs": -5}"#])
        for command in [["run", twoPhones, "--out", "o"], ["sweep", twoPhones, "--out", "o"]] {
            let r = try CLI.run(command + ["--overrides", "cal.json"], in: dir)
            expect(r.status == 2 && r.stderr.contains("--overrides cal.json: host.sendUs=-5"), "\(r.stderr)")
            expect(r.stderr.contains("error: host.sendUs:"), "\(r.stderr)")
            expect(!r.stderr.contains("--set"), "\(r.stderr)")
            expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o").path))
        }
    }

    /// A cells.csv larger than `ScenarioFile.maxBytes` (64 MiB) is read by `compare` as `plot`
    /// reads it, and a measured table over its own limit (`MeasuredTable.maxBytes`) is called
    /// too large, not "not a text file". A cells.csv cut into ragged records names the record.
    @Test func sizeLimitsAreReportedAsSizes() throws {
        let dir = try temporaryFolder()
        let fm = FileManager.default
        let sweep = dir.appendingPathComponent("sweep")
        try fm.createDirectory(at: sweep, withIntermediateDirectories: true)
        let cells = try String(contentsOf: shippedCells, encoding: .utf8)
        let header = String(cells.prefix { $0 != "\n" })
        let fields = header.filter { $0 == "," }.count + 1
        // Padding rows of about 16 KiB whose cell id matches no measured group: the figures
        // are unchanged, and the file passes 64 MiB in a few thousand records.
        let padding = "pad" + String(repeating: "x", count: 16 << 10) + String(repeating: ",", count: fields - 1) + "\n"
        let big = cells + String(repeating: padding, count: ScenarioFile.maxBytes / padding.utf8.count + 100)
        try Data(big.utf8).write(to: sweep.appendingPathComponent("cells.csv"))
        let large = try CLI.run(["compare", "sweep", "--measured", measured, "--quiet"], in: dir)
        expectEqual(large.status, 0, "\(large.stderr)")

        try Data((cells + "x\n").utf8).write(to: sweep.appendingPathComponent("cells.csv"))
        let ragged = try CLI.run(["compare", "sweep", "--measured", measured, "--quiet"], in: dir)
        expect(ragged.status == 2 && ragged.stderr.contains("has 1 field, the header"), "\(ragged.stderr)")

        let handle = try FileHandle(
            forWritingTo: {
                let url = dir.appendingPathComponent("huge.csv")
                fm.createFile(atPath: url.path, contents: nil)
                return url
            }())
        try handle.truncate(atOffset: UInt64(MeasuredTable.maxBytes + 1))
        try handle.close()
        for command in [
            ["compare", "sweep", "--measured", "huge.csv"],
            ["calibrate", twoPhones, "--measured", "huge.csv", "--fit", "host.sendUs=0:100"]
        ] {
            let r = try CLI.run(command, in: dir)
            expect(
                r.status == 2 && r.stderr.contains("huge.csv: ") && r.stderr.contains("is larger than 256 MiB"),
                "\(command[0]): \(r.stderr)")
            expect(!r.stderr.contains("text file"), "\(r.stderr)")
        }
    }
}
