// The tool cases: the commands around the simulation, fed what a careless or hostile user
// gives them. Four kinds:
//
// - a measured table for `compare` or `calibrate`, mutated as text (a BOM, CRLF line ends,
//   quoting, absurd magnitudes, control and bidi characters in labels, duplicate columns, raw
//   byte edits);
// - `check --update-golden` over two files, one of them mutated: when it exits 2 the golden
//   folder is as it was;
// - `run` or `compare` into an output folder that is a symbolic link: the link's target is as
//   it was;
// - control characters in the arguments of every command.
//
// Besides the usual checks (status 0, 1 or 2, no signal, in time), nothing outside the case's
// result folders changes, and nothing the command prints holds a raw control or bidirectional
// formatting character (line feeds and tabs aside).

import AdHocSim
import Foundation

/// The sweep folder `compare` reads, and the measured tables the cases start from, relative to
/// the repository root (where adhocfuzz runs).
let shippedCells = "results/thesis-2025/cells.csv"
let shippedMeasured = ["topologies/field-data/dev-tests.csv", "topologies/examples/calibration/measured-ideal-link.csv"]
let calibrationScenario = "topologies/examples/calibration/ideal-link.json"

/// Characters that must never reach a terminal raw.
nonisolated let steeringCharacters: [String] = [
    "\u{1b}[2J", "\u{7}", "\u{8}", "\r", "\u{202E}", "\u{2066}", "\u{200F}", "\u{85}", "\u{2028}", "\u{0}"
]

extension Mutator {
    /// A measured table changed as text: one to three edits.
    mutating func measuredTable(_ text: String) -> [UInt8] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for _ in 0..<(1 + Int(rng.uniformInt(below: 3))) {
            let i = lines.isEmpty ? 0 : Int(rng.uniformInt(below: UInt64(lines.count)))
            switch rng.uniformInt(below: 9) {
            case 0: lines[0] = "\u{FEFF}" + lines[0]
            case 1: lines = lines.map { $0 + "\r" }
            case 2 where !lines.isEmpty:
                var fields = lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                if !fields.isEmpty {
                    let f = Int(rng.uniformInt(below: UInt64(fields.count)))
                    fields[f] = pick(["1.8e308", "4.9e-324", "-1", "nan", "inf", "0", "1e9", "2e5", "０"])
                }
                lines[i] = fields.joined(separator: ",")
            case 3 where !lines.isEmpty:
                var fields = lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                if !fields.isEmpty {
                    let f = Int(rng.uniformInt(below: UInt64(fields.count)))
                    fields[f] =
                        pick(steeringCharacters) + fields[f]
                        + pick(["<script>x</script>", "# heading", "[a](javascript:x)", "=1+1", "\"q"])
                }
                lines[i] = fields.joined(separator: ",")
            case 4 where !lines.isEmpty:
                let fields = lines[0].split(separator: ",").map(String.init)
                if let f = fields.first { lines[0] += "," + pick(fields + [f]) }
            case 5: lines[i] = "\"" + lines[i]
            case 6: lines = Array(lines.prefix(i))
            case 7 where !lines.isEmpty:
                lines.append(
                    contentsOf: Array(repeating: lines[lines.count - 1], count: 1 + Int(rng.uniformInt(below: 50))))
            default: return raw(Array(lines.joined(separator: "\n").utf8))
            }
            if lines.isEmpty { lines = [""] }
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// An argument with a control or bidi character in it.
    mutating func steering(_ text: String) -> String {
        let c = pick(steeringCharacters)
        return chance(0.5) ? c + text : text + c
    }
}

/// The printed text's first raw control or bidi character (line feeds and tabs aside), if any.
func rawControl(in bytes: [UInt8]) -> String? {
    for s in String(decoding: bytes, as: UTF8.self).unicodeScalars where s != "\n" && s != "\t" {
        let v = s.value
        if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || v == 0x061C
            || (0x200E...0x200F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
        {
            return "U+" + String(v, radix: 16, uppercase: true)
        }
    }
    return nil
}

func runToolCase(
    _ k: Int, options o: Options, corpus: [(name: String, bytes: [UInt8])], binary: String, work: URL,
    mutator m: inout Mutator
) -> Verdict {
    let fm = FileManager.default
    let root = URL(fileURLWithPath: fm.currentDirectoryPath)
    let dir = work.appendingPathComponent("case-\(k)")
    try? fm.removeItem(at: dir)
    try? fm.createDirectory(at: dir, withIntermediateDirectories: true)
    let source = m.pick(corpus)
    try? Data(source.bytes).write(to: dir.appendingPathComponent("in.json"))
    // A link's target, with files of the user's: never to change.
    let elsewhere = dir.appendingPathComponent("elsewhere")
    try? fm.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    try? Data("mine".utf8).write(to: elsewhere.appendingPathComponent("keep.csv"))
    try? Data(#"{"tool": "adhocsim"}"#.utf8).write(to: elsewhere.appendingPathComponent("metadata.json"))
    let sweep = dir.appendingPathComponent("sweep")
    try? fm.createDirectory(at: sweep, withIntermediateDirectories: true)
    if let cells = fm.contents(atPath: root.appendingPathComponent(shippedCells).path) {
        try? cells.write(to: sweep.appendingPathComponent("cells.csv"))
    }
    var command: [String]
    var input = source.bytes
    var owned = ["out", "sweep/compare", "sweep/plots"]
    var goldenMustStay = false
    switch m.rng.uniformInt(below: 4) {
    case 0:
        let base = m.pick(shippedMeasured)
        let text = (try? String(contentsOf: root.appendingPathComponent(base), encoding: .utf8)) ?? ""
        input = m.measuredTable(text)
        try? Data(input).write(to: dir.appendingPathComponent("measured.csv"))
        if m.chance(0.7) {
            command = ["compare", "sweep", "--measured", "measured.csv"]
        } else {
            try? fm.copyItem(
                at: root.appendingPathComponent(calibrationScenario), to: dir.appendingPathComponent("cal.json"))
            command = [
                "calibrate", "cal.json", "--measured", "measured.csv", "--fit", "host.sendUs=0:200", "--max-evals", "2",
                "--repeat", "1", "--out", "out.json"
            ]
            owned.append("out.json")
        }
    case 1:
        // Two files, the second mutated; the goldens of a clean earlier update must survive a
        // failed one.
        let clean = corpus.first { String(decoding: $0.bytes, as: UTF8.self).contains("\"expectations\"") } ?? source
        try? Data(clean.bytes).write(to: dir.appendingPathComponent("a.json"))
        input = m.raw(clean.bytes)
        try? Data(input).write(to: dir.appendingPathComponent("b.json"))
        _ = execute(
            binary, ["check", "a.json", "--golden", "golden", "--update-golden", "--set", "limits.maxEvents=20000"],
            in: dir,
            timeout: o.timeout, memoryMiB: o.memoryMiB)
        command = [
            "check", "a.json", "b.json", "--golden", "golden", "--update-golden", "--set", "limits.maxEvents=20000"
        ]
        goldenMustStay = true
    case 2:
        if m.chance(0.5) {
            try? fm.createSymbolicLink(at: dir.appendingPathComponent("out"), withDestinationURL: elsewhere)
            command = ["run", "in.json", "--out", "out", "--quiet", "--set", "limits.maxEvents=20000"]
        } else {
            try? fm.createSymbolicLink(at: sweep.appendingPathComponent("compare"), withDestinationURL: elsewhere)
            try? fm.copyItem(
                at: root.appendingPathComponent(shippedMeasured[0]), to: dir.appendingPathComponent("measured.csv"))
            command = ["compare", "sweep", "--measured", "measured.csv"]
        }
        owned.removeAll { $0 == "out" || $0 == "sweep/compare" }
    default:
        let base: [[String]] = [
            ["run", "in.json", "--out", "out", "--seed", "7", "--set", "limits.maxEvents=20000"],
            ["sweep", "in.json", "--out", "out", "-j", "1", "--shard", "1/400", "--set", "limits.maxEvents=20000"],
            ["check", "in.json", "--seed", "3"],
            ["validate", "in.json", "--set", "seed=1"],
            ["compare", "sweep", "--measured", shippedMeasured[0]],
            ["plot", "sweep"], ["view", "out"], ["merge", "out", "--out", "merged"], ["schema", "--table"]
        ]
        command = m.pick(base)
        let i = Int(m.rng.uniformInt(below: UInt64(command.count)))
        command[i] = m.chance(0.3) ? "--" + m.steering("opt") : m.steering(command[i])
        owned.append("merged")
    }
    let goldenBefore = fingerprint(dir.appendingPathComponent("golden"), skipping: [])
    let before = fingerprint(dir, skipping: owned + ["golden", "printed.txt"])
    var v = Verdict(index: k, command: command, input: input)
    let printed = dir.appendingPathComponent("printed.txt")
    let timedOut = v.run(binary, command, in: dir, options: o, capture: printed)
    let after = fingerprint(dir, skipping: owned + ["golden", "printed.txt"])
    for f in Set(before.keys).union(after.keys).sorted() where before[f] != after[f] {
        v.problems.append(
            after[f] == nil ? "deleted \(f) outside the result folder" : "changed \(f) outside the result folder")
    }
    if goldenMustStay && v.status == 2
        && fingerprint(dir.appendingPathComponent("golden"), skipping: []) != goldenBefore
    {
        v.problems.append("exit 2 but the goldens changed")
    }
    if let c = rawControl(in: Array(fm.contents(atPath: printed.path) ?? Data())) {
        v.problems.append("printed a raw \(c)")
    }
    for f in listing(dir) where f.contains(".partial-") || f.contains(".tmp-") || f.contains(".old-") {
        if !timedOut { v.problems.append("left \(f) behind") }
    }
    try? fm.removeItem(at: dir)
    return v
}
