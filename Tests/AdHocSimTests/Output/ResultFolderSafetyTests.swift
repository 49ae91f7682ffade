import Foundation
import Testing

@testable import AdHocSim

/// Data loss: adhocsim never writes through a link inside a result folder,
/// and never deletes what it did not write.
@Suite("Result folder safety")
struct ResultFolderSafetyTests {
    /// Two phones 10 m apart on an ideal link, a short UDP thesis test.
    static var twoPhones: TestScenario {
        TestScenario.twoPhones(
            name: "s", radio: ["technology": "ideal"], protocol: "udp",
            workload: ["kind": "thesis", "probes": 2, "packets": 2, "size": 100, "startPhase": "connect"])
    }
    /// The same with a matrix of two distances.
    static let scenario: String = {
        var t = twoPhones
        t["matrix"] = ["distance_m": [5, 10]]
        return t.text
    }()

    /// A sweep folder whose `cells/` was replaced by a link to another folder: a fresh sweep and
    /// a resumed one refuse with exit 2, and the link's target keeps every file, dot files and
    /// subfolders included.
    @Test func aSweepNeverWritesThroughALinkedCellsFolder() throws {
        let dir = try temporaryFolder(["m.json": ResultFolderSafetyTests.scenario])
        let first = try CLI.run(["sweep", "m.json", "--out", "res", "-j", "1", "--quiet"], in: dir)
        expectEqual(first.status, 0, "\(first.stderr)")
        let fm = FileManager.default
        let elsewhere = dir.appendingPathComponent("elsewhere")
        try fm.createDirectory(at: elsewhere.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for name in ["keep.csv", ".hidden", "sub/deep.jsonl"] {
            try "mine".write(to: elsewhere.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let cells = dir.appendingPathComponent("res/cells")
        try fm.removeItem(at: cells)
        try fm.createSymbolicLink(at: cells, withDestinationURL: elsewhere)
        for extra in [[], ["--resume"]] {
            let r = try CLI.run(["sweep", "m.json", "--out", "res", "-j", "1", "--quiet"] + extra, in: dir)
            expect(r.status == 2 && r.stderr.contains("symbolic link"), "\(extra): \(r.stderr)")
        }
        for name in ["keep.csv", ".hidden", "sub/deep.jsonl"] {
            expectEqual(try String(contentsOf: elsewhere.appendingPathComponent(name), encoding: .utf8), "mine")
        }
        expectEqual(try fm.contentsOfDirectory(atPath: elsewhere.path).sorted(), [".hidden", "keep.csv", "sub"])
    }

    /// `run --out res` a second time replaces adhocsim's own files and keeps the user's: a
    /// notebook and a `figures/` folder added to the result folder survive; a file the first run
    /// wrote (a pcap) and the second does not is gone.
    @Test func aRerunKeepsTheUsersFiles() throws {
        let dir = try temporaryFolder(["m.json": ResultFolderSafetyTests.scenario])
        let fm = FileManager.default
        let once = try CLI.run(["run", "m.json", "--out", "res", "--pcap", "--quiet"], in: dir)
        expectEqual(once.status, 0, "\(once.stderr)")
        let res = dir.appendingPathComponent("res")
        expect(fm.fileExists(atPath: res.appendingPathComponent("c.pcap").path))
        try "notes".write(to: res.appendingPathComponent("notebook.ipynb"), atomically: true, encoding: .utf8)
        try fm.createDirectory(at: res.appendingPathComponent("figures"), withIntermediateDirectories: true)
        try "svg".write(to: res.appendingPathComponent("figures/a.svg"), atomically: true, encoding: .utf8)
        let twice = try CLI.run(["run", "m.json", "--out", "res", "--quiet"], in: dir)
        expectEqual(twice.status, 0, "\(twice.stderr)")
        expectEqual(try String(contentsOf: res.appendingPathComponent("notebook.ipynb"), encoding: .utf8), "notes")
        expectEqual(try String(contentsOf: res.appendingPathComponent("figures/a.svg"), encoding: .utf8), "svg")
        expect(!fm.fileExists(atPath: res.appendingPathComponent("c.pcap").path))
        expect(fm.fileExists(atPath: res.appendingPathComponent("summary.csv").path))
        // Nothing hidden is left beside the folder.
        expect(try fm.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }.isEmpty)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A FIFO given as a scenario, an overrides file or calibrate's measured
/// table is refused at once with exit 2 (opening it would block forever).
@Suite("Non-regular files")
struct NonRegularFileTests {
    @Test func aFifoIsRefusedNotOpened() throws {
        let dir = try temporaryFolder(["m.json": ResultFolderSafetyTests.scenario])
        let fifo = dir.appendingPathComponent("pipe").path
        expectEqual(mkfifo(fifo, 0o600), 0)
        for args in [
            ["run", "pipe", "--out", "r"], ["run", "m.json", "--overrides", "pipe", "--out", "r"],
            ["calibrate", "m.json", "--measured", "pipe", "--fit", "host.sendUs=0:100"]
        ] {
            let r = try CLI.run(args, in: dir)
            expect(r.status == 2 && r.stderr.contains("not a regular file"), "\(args): \(r.stderr)")
        }
        expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r").path))
    }
}

/// Every value the viewer reads back from a timeline and puts into markup
/// goes through its escaping function; none is concatenated into HTML raw.
@Suite("Viewer escaping")
struct ViewerEscapingTests {
    @Test func timelineValuesReachMarkupEscapedOnly() {
        let page = ViewerPage.html(timeline: "")
        for raw in ["+ f.protocol +", "+ m.hops +", "+ m.m +", "+ m.attempts +", "+ m.id +", "+ f.id +"] {
            expect(!page.contains(raw), "\(raw) reaches the page unescaped")
        }
        for escaped in ["escapeText(f.protocol)", "escapeText(m.hops)", "escapeText(m.m)", "escapeText(m.attempts)"] {
            expect(page.contains(escaped))
        }
        // The escaping function covers what can open markup or leave an attribute.
        expect(page.contains("/[&<>\"']/g"))
    }
}

/// One strict decimal grammar for the measured tables.
@Suite("Decimal text")
struct DecimalTextTests {
    @Test func onlyPlainDecimalsAreNumbers() {
        for (text, value) in [
            ("14.921", 14.921), ("-3", -3.0), (".5", 0.5), ("5.", 5.0), ("1e3", 1000.0), ("2.5E-2", 0.025)
        ] {
            expectEqual(DecimalText.parse(text), value, "\(text)")
        }
        for text in [
            "", "-", ".", "1e", "0x1.dd7p3", "inf", "nan", "14.921\u{0}GARBAGE", " 1", "1 ", "+1", "1e400", "1,5"
        ] {
            expect(DecimalText.parse(text) == nil, "\(text.debugDescription)")
        }
    }

    /// The measured table refuses a value with a NUL and garbage after it, naming the column.
    @Test func aTableValueWithGarbageIsRefused() {
        let csv = "place,protocol,distance_m,packets,size_bytes,rtt_mean_ms\ncity,udp,10,100,128,14.921\u{0}GARBAGE\n"
        #expect(throws: CalibrationError.self) { try MeasuredTable(text: csv, file: "m.csv") }
        let hex = "place,protocol,distance_m,packets,size_bytes,rtt_mean_ms\ncity,udp,0x1p3,100,128,3\n"
        #expect(throws: CalibrationError.self) { try MeasuredTable(text: hex, file: "m.csv") }
    }
}

/// A user's value in a message is excerpted and its bidirectional controls
/// are escaped, so a 5 000-character id prints as 120 characters and a U+202E cannot reorder
/// the line a terminal shows.
@Suite("Messages")
struct MessageExcerptTests {
    @Test func longIdsAreCutAndBidiControlsEscaped() {
        let long = String(repeating: "x", count: 5_000)
        var t = TestScenario(name: "m", seed: 1, duration: 5, radio: nil)
        t.place("a", 0, 0)
        t.place("b", 5, 0)
        t["traffic"] = [["kind": "saturated", "from": .string(long), "to": "b\u{202E}cba", "bytes": 100]]
        let text = t.text
        var message = ""
        do {
            _ = try ScenarioDecoder.decode(bytes: Array(text.utf8), file: "m.json")
        } catch let e as ScenarioError {
            message = e.description
        } catch {}
        expect(message.contains("(5000 characters)"), "\(message.prefix(300))")
        expect(!message.contains(String(repeating: "x", count: 121)))
        expect(!message.unicodeScalars.contains("\u{202E}") && message.contains("\\u{202E}"))
    }
}
