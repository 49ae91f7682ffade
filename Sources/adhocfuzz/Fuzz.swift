// adhocfuzz: a seeded, deterministic mutation fuzzer for the adhocsim command-line tool.
//
// Each case takes a shipped topology, mutates it (structurally through its JSON tree, as raw
// bytes, or through `--set` arguments), runs `adhocsim validate`, `run`, `check` or `sweep` on
// it as a subprocess in a fresh folder under a time and memory limit, and checks what the
// README promises: exit status 0, 1 or 2 and never a signal; done within the time limit;
// nothing written outside the case's result folder; no half-written result folder or staging
// leftovers. A subprocess, not an in-process fuzzer, because a Swift trap kills the process
// (Linux has no libFuzzer for Swift without unsafe compiler flags, which the package refuses):
// a crash must be observed from outside. Same seed, same cases, same verdicts.

import AdHocSim
import Foundation

struct Options {
    var binary = ".build/release/adhocsim"
    var cases = 2000
    var first = 0
    var seed: UInt64 = 1
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    var timeout = 20.0
    var memoryMiB = 4096
    var keep = "fuzz-failures"
    var corpus: [String] = []
    var quiet = false
    /// Only same-type value tweaks, mostly run and check: inputs that usually stay valid, to
    /// exercise the simulator rather than the validator.
    var tweaksOnly = false
}

nonisolated func parseOptions() -> Options {
    var o = Options()
    var args = Array(CommandLine.arguments.dropFirst())
    func value(_ flag: String) -> String {
        guard !args.isEmpty else {
            FileHandle.standardError.write(Data("adhocfuzz: \(flag) expects a value\n".utf8))
            exit(2)
        }
        return args.removeFirst()
    }
    while let a = args.first {
        args.removeFirst()
        switch a {
        case "--binary": o.binary = value(a)
        case "--cases": o.cases = Int(value(a)) ?? o.cases
        case "--first": o.first = Int(value(a)) ?? 0
        case "--seed": o.seed = UInt64(value(a)) ?? 1
        case "--jobs", "-j": o.jobs = max(1, Int(value(a)) ?? 1)
        case "--timeout": o.timeout = Double(value(a)) ?? o.timeout
        case "--memory-mib": o.memoryMiB = Int(value(a)) ?? o.memoryMiB
        case "--keep": o.keep = value(a)
        case "--quiet": o.quiet = true
        case "--tweaks-only": o.tweaksOnly = true
        case "--help", "-h":
            print(
                """
                adhocfuzz [--binary PATH] [--cases N] [--first K] [--seed S] [-j N] [--timeout SEC]
                          [--memory-mib M] [--keep DIR] [--quiet] [--tweaks-only] [CORPUS.json...]
                Runs N seeded mutation cases (numbered from K) of the corpus (default: every shipped
                topology) against adhocsim; failing cases are copied to DIR. Exit status 1 if any failed.
                """)
            exit(0)
        default: o.corpus.append(a)
        }
    }
    return o
}

/// The most phones a default corpus file may place: 2 048. A mutated 5 000-phone bench takes
/// about 12 s and 3 GB just to build its world, against the per-case timeout (20 s) and memory
/// limit (4 GiB), so the default corpus leaves such benches out (they are validated and their
/// keys checked like every file; naming one on the command line still fuzzes it).
let maxCorpusPlacedNodes = 2048

/// The corpus: every shipped topology (but the biggest placements), in a fixed order.
func loadCorpus(_ paths: [String]) -> [(name: String, bytes: [UInt8])] {
    var files = paths
    var skipBig = false
    if files.isEmpty {
        let fm = FileManager.default
        let root = URL(fileURLWithPath: "topologies")
        let all = (fm.enumerator(atPath: root.path)?.allObjects as? [String]) ?? []
        files = all.filter { $0.hasSuffix(".json") && !$0.hasSuffix("schema.json") }.sorted().map { "topologies/" + $0 }
        skipBig = true
    }
    return files.compactMap { p -> (String, [UInt8])? in
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: p)) else { return nil }
        if skipBig, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let nodes = object["nodes"] as? [String: Any], let count = nodes["count"] as? Int,
            count > maxCorpusPlacedNodes
        {
            return nil
        }
        return (p, Array(data))
    }
}

// MARK: Mutations

/// Values that have broken parsers and validators before.
nonisolated let interestingNumbers: [Double] = [
    0, -1, 1, 2, 1e-10, 1e-9, 0.5, 1e300, -1e300, 65_535, 65_536, 4_294_967_296,
    9.3e18, 1e15, 1e18, 3.5, -0.0, 100_000, 1_000_000
]
nonisolated let interestingStrings: [String] = [
    "", "x", "max", "awdl", "ideal", "wifi", "field", "tcp", "udp", "quic", "cbr", "thesis",
    "bulk", "dsr", "fail", "join", "move", "\u{1b}[31mred", "a\nb", "../../etc",
    String(repeating: "long", count: 2000), "é", "\u{0}"
]

struct Mutator {
    var rng: RandomStream

    mutating func pick<T>(_ items: [T]) -> T { items[Int(rng.uniformInt(below: UInt64(items.count)))] }
    mutating func chance(_ p: Double) -> Bool { rng.uniform() < p }

    /// Every path into a JSON tree (keys sorted, so the order is stable).
    func paths(_ v: Any, _ prefix: [Any] = []) -> [[Any]] {
        var out: [[Any]] = [prefix]
        if let d = v as? [String: Any] {
            for (k, value) in d.sorted(by: { $0.key < $1.key }) { out += paths(value, prefix + [k]) }
        } else if let a = v as? [Any] {
            for (i, x) in a.enumerated() { out += paths(x, prefix + [i]) }
        }
        return out
    }

    func get(_ v: Any, _ path: ArraySlice<Any>) -> Any? {
        guard let head = path.first else { return v }
        if let k = head as? String, let d = v as? [String: Any], let x = d[k] { return get(x, path.dropFirst()) }
        if let i = head as? Int, let a = v as? [Any], i < a.count { return get(a[i], path.dropFirst()) }
        return nil
    }

    func set(_ v: Any, _ path: ArraySlice<Any>, _ new: Any?) -> Any {
        guard let head = path.first else { return new ?? NSNull() }
        if let k = head as? String, var d = v as? [String: Any] {
            if path.count == 1 && new == nil { d[k] = nil } else { d[k] = set(d[k] ?? NSNull(), path.dropFirst(), new) }
            return d
        }
        if let i = head as? Int, var a = v as? [Any], i < a.count {
            if path.count == 1 && new == nil { a.remove(at: i) } else { a[i] = set(a[i], path.dropFirst(), new) }
            return a
        }
        return v
    }

    mutating func randomValue(like old: Any?) -> Any {
        switch rng.uniformInt(below: 9) {
        case 0, 1, 2: return pick(interestingNumbers)
        case 3, 4: return pick(interestingStrings)
        case 5: return NSNull()
        case 6: return chance(0.5)
        case 7: return [pick(interestingNumbers), pick(interestingNumbers), pick(interestingNumbers)]
        default:
            if let n = old as? Double { return n * pick([-1, 0.5, 2, 1e6, 1e-6, 1e12] as [Double]) }
            if let a = old as? [Any] { return a + a + a }
            return [String: Any]()
        }
    }

    /// A value of the same type, usually still valid: a number scaled or nudged, a string from
    /// the format's vocabulary, a flipped boolean, an array grown or shrunk.
    mutating func tweak(_ old: Any?) -> Any {
        if let n = old as? Double {
            switch rng.uniformInt(below: 4) {
            case 0: return (n * rng.uniform(0, 2) * 1000).rounded() / 1000
            case 1: return n + Double(Int(rng.uniformInt(below: 7)) - 3)
            case 2: return n.rounded()
            default: return n * pick([0.001, 0.01, 10, 100] as [Double])
            }
        }
        if old is Bool { return chance(0.5) }
        if old is String { return pick(interestingStrings.filter { $0.count < 20 }) }
        if let a = old as? [Any] {
            if a.isEmpty || chance(0.5) { return a + a.prefix(1) }
            return Array(a.dropLast())
        }
        return old ?? NSNull()
    }

    /// One to three same-type value tweaks of the JSON tree.
    mutating func tweaks(_ bytes: [UInt8]) -> [UInt8] {
        guard var tree = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
            return bytes
        }
        for _ in 0..<(1 + Int(rng.uniformInt(below: 3))) {
            let leaves = paths(tree).filter { p in
                let v = get(tree, p[...])
                return !(v is [String: Any]) && !(v is [Any]) && !p.isEmpty
            }
            guard !leaves.isEmpty else { break }
            let path = pick(leaves)
            tree = set(tree, path[...], tweak(get(tree, path[...])))
        }
        guard let data = try? JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys, .fragmentsAllowed])
        else { return bytes }
        return Array(data)
    }

    /// One to four structural edits of the JSON tree.
    mutating func structural(_ bytes: [UInt8]) -> [UInt8] {
        guard var tree = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
            return raw(bytes)
        }
        for _ in 0..<(1 + Int(rng.uniformInt(below: 4))) {
            let all = paths(tree)
            let path = pick(all)
            let old = get(tree, path[...])
            switch rng.uniformInt(below: 6) {
            case 0 where !path.isEmpty: tree = set(tree, path[...], nil)  // delete
            case 1:
                if var d = old as? [String: Any] {  // add an unknown or known key
                    let keys = [
                        "mesh", "events", "traffic", "flows", "matrix", "limits", "mobility", "link", "radio",
                        "transport", "distance_m", "expectations", "zzz", "messages", "awdlSlots"
                    ]
                    d[pick(keys)] = randomValue(like: nil)
                    tree = set(tree, path[...], d)
                } else if let a = old as? [Any], !a.isEmpty {  // duplicate elements
                    tree = set(tree, path[...], a + a.prefix(Int(rng.uniformInt(below: UInt64(a.count))) + 1))
                }
            case 2:  // deep nesting
                var v: Any = randomValue(like: old)
                for _ in 0..<Int(rng.uniformInt(below: 300)) { v = [v] }
                tree = set(tree, path[...], v)
            case 3, 4: tree = set(tree, path[...], tweak(old))  // same type, new value
            default: tree = set(tree, path[...], randomValue(like: old))  // replace
            }
        }
        guard let data = try? JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys, .fragmentsAllowed])
        else { return raw(bytes) }
        return Array(data)
    }

    /// Byte-level edits: flips, insertions, deletions, truncation.
    mutating func raw(_ bytes: [UInt8]) -> [UInt8] {
        var b = bytes
        for _ in 0..<(1 + Int(rng.uniformInt(below: 8))) {
            guard !b.isEmpty else { b = [UInt8(rng.uniformInt(below: 256))]; continue }
            let i = Int(rng.uniformInt(below: UInt64(b.count)))
            switch rng.uniformInt(below: 5) {
            case 0: b[i] ^= UInt8(1 << rng.uniformInt(below: 8))
            case 1: b.insert(pick(Array("{}[],:\"0123456789.e-\\\n\u{0}".utf8)), at: i)
            case 2: b.remove(at: i)
            case 3: b = Array(b.prefix(i))
            default: b.insert(contentsOf: b[i..<min(b.count, i + Int(rng.uniformInt(below: 64)))], at: i)
            }
        }
        return b
    }

    /// `--set` arguments: a path that exists (or a near miss, or a very long one) and a value.
    mutating func overrides(_ bytes: [UInt8]) -> [String] {
        var sets: [String] = []
        let tree = (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) ?? [:]
        let all = paths(tree).filter { !$0.isEmpty }
        for _ in 0..<(1 + Int(rng.uniformInt(below: 3))) {
            var text: String
            if all.isEmpty || chance(0.1) {
                // Up to 60 000 components: 120 KB, under Linux's 128 KiB limit on one argument.
                text = String(repeating: "a.", count: Int(rng.uniformInt(below: 60_000))) + "b"
            } else {
                text = pick(all).map { ($0 as? Int).map { "[\($0)]" } ?? ".\($0)" }.joined()
                text.removeFirst()
                text = text.replacingOccurrences(of: ".[", with: "[")
            }
            let value: String
            switch rng.uniformInt(below: 5) {
            case 0: value = "\(pick(interestingNumbers))"
            case 1: value = pick(interestingStrings)
            case 2: value = "null"
            case 3: value = "{\"x\": [1, 2]}"
            default: value = "\"\(pick(interestingStrings))\""
            }
            sets += ["--set", "\(text)=\(value)"]
        }
        return sets
    }
}

// MARK: Running a case

struct Verdict {
    var index: Int
    var command: [String]
    var status: Int32 = 0
    var signal: Int32?
    var seconds = 0.0
    var problems: [String] = []
    var input: [UInt8] = []
}

extension Verdict {
    /// Runs the case's command and records what every case checks: an answer in time, an exit
    /// status of 0, 1 or 2 and no signal. Returns whether it timed out.
    mutating func run(
        _ binary: String, _ command: [String], in dir: URL, options o: Options, capture: URL? = nil
    ) -> Bool {
        let (status, signal, seconds, timedOut) = execute(
            binary, command, in: dir, timeout: o.timeout, memoryMiB: o.memoryMiB, capture: capture)
        self.status = status
        self.signal = signal
        self.seconds = seconds
        if timedOut { problems.append("no answer within \(o.timeout) s (killed)") }
        if let signal {
            problems.append("killed by signal \(signal)")
        } else if !(0...2).contains(status) {
            problems.append("exit status \(status)")
        }
        return timedOut
    }
}

/// Runs `binary` with `args` in `dir` under the memory limit; kills it after `timeout`.
///
/// With `capture`, standard output and error go to that file (for the terminal checks).
func execute(
    _ binary: String, _ args: [String], in dir: URL, timeout: Double, memoryMiB: Int, capture: URL? = nil
) -> (Int32, Int32?, Double, Bool) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", "ulimit -v \(memoryMiB * 1024) 2>/dev/null; exec \"$0\" \"$@\"", binary] + args
    p.currentDirectoryURL = dir
    var output: FileHandle?
    if let capture {
        _ = FileManager.default.createFile(atPath: capture.path, contents: nil)
        output = try? FileHandle(forWritingTo: capture)
    }
    defer { try? output?.close() }
    p.standardOutput = output ?? FileHandle.nullDevice
    p.standardError = output ?? FileHandle.nullDevice
    p.standardInput = FileHandle.nullDevice
    // The handler is set before the child starts: set after, a child that exits at once can be
    // missed, and the wait below would never end.
    let done = DispatchSemaphore(value: 0)
    p.terminationHandler = { _ in done.signal() }
    let start = Date()
    do { try p.run() } catch { return (-1, nil, 0, false) }
    var timedOut = false
    if done.wait(timeout: .now() + timeout) == .timedOut {
        timedOut = true
        p.terminate()
        if done.wait(timeout: .now() + 2) == .timedOut {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
        }
    }
    let seconds = Date().timeIntervalSince(start)
    let signal: Int32? = p.terminationReason == .uncaughtSignal ? p.terminationStatus : nil
    return (p.terminationStatus, signal, seconds, timedOut)
}

func listing(_ dir: URL) -> [String] {
    ((FileManager.default.enumerator(atPath: dir.path)?.allObjects as? [String]) ?? []).sorted()
}

/// Every file under `dir` except those under `skip` (names relative to `dir`), with an FNV-1a
/// hash of its bytes (a link as its target's path, never followed; a FIFO or other special file
/// by its kind): what a case may not change.
func fingerprint(_ dir: URL, skipping skip: [String]) -> [String: UInt64] {
    var out: [String: UInt64] = [:]
    for f in listing(dir) where !skip.contains(where: { f == $0 || f.hasPrefix($0 + "/") }) {
        let path = dir.appendingPathComponent(f).path
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        var h = StableHash()
        switch attributes?[.type] as? FileAttributeType {
        case .typeRegular?: h.combine(bytes: (FileManager.default.contents(atPath: path).map { Array($0) }) ?? [])
        case .typeSymbolicLink?:
            h.combine("link:" + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? ""))
        case .typeDirectory?: h.combine("folder")
        default: h.combine("special")
        }
        out[f] = h.value
    }
    return out
}

/// A result-folder case: a sweep or run folder is made from the unmutated input,
/// then changed as a user, a colleague or an attacker might (a link for `cells/`, truncated,
/// garbage or missing files, a FIFO, a foreign file, another shard's metadata), and `view`,
/// `plot`, `merge`, `sweep --resume` or a rerun is pointed at it. Besides the usual checks:
/// nothing outside `out/` (and `merged/`) changed, the link's target included, and the user's
/// files inside `out/` are still there.
func runFolderCase(
    _ k: Int, options o: Options, corpus: [(name: String, bytes: [UInt8])], binary: String, work: URL,
    mutator m: inout Mutator
) -> Verdict {
    let source = m.pick(corpus)
    let dir = work.appendingPathComponent("case-\(k)")
    let fm = FileManager.default
    try? fm.removeItem(at: dir)
    try? fm.createDirectory(at: dir, withIntermediateDirectories: true)
    try? Data(source.bytes).write(to: dir.appendingPathComponent("in.json"))
    let isSweep = m.chance(0.5)
    let make =
        isSweep
        ? [
            "sweep", "in.json", "--out", "out", "--quiet", "-j", "1", "--shard", "1/400", "--set",
            "limits.maxEvents=20000"
        ]
        : ["run", "in.json", "--out", "out", "--quiet", "--timeline", "--set", "limits.maxEvents=20000"]
    _ = execute(binary, make, in: dir, timeout: o.timeout, memoryMiB: o.memoryMiB)
    let out = dir.appendingPathComponent("out")
    // The user's own files: beside the folder (a link target) and inside it.
    let elsewhere = dir.appendingPathComponent("elsewhere")
    try? fm.createDirectory(at: elsewhere.appendingPathComponent("sub"), withIntermediateDirectories: true)
    try? Data("mine".utf8).write(to: elsewhere.appendingPathComponent("keep.csv"))
    try? Data("mine".utf8).write(to: elsewhere.appendingPathComponent(".hidden"))
    try? Data("mine".utf8).write(to: elsewhere.appendingPathComponent("sub/deep.jsonl"))
    var userFiles: [String] = []
    if m.chance(0.5), fm.fileExists(atPath: out.path) {
        try? fm.createDirectory(at: out.appendingPathComponent("figures"), withIntermediateDirectories: true)
        try? Data("notes".utf8).write(to: out.appendingPathComponent("notebook.ipynb"))
        try? Data("<svg/>".utf8).write(to: out.appendingPathComponent("figures/a.svg"))
        userFiles = ["notebook.ipynb", "figures/a.svg"]
    }
    let cells = out.appendingPathComponent("cells")
    let cellFiles = ((try? fm.contentsOfDirectory(atPath: cells.path)) ?? []).sorted()
    func someFile() -> URL? {
        var names = ["metadata.json", "cells.csv", "cells.jsonl", "timeline.jsonl", "summary.csv"]
            .filter { fm.fileExists(atPath: out.appendingPathComponent($0).path) }
        names += cellFiles.map { "cells/" + $0 }
        return names.isEmpty ? nil : out.appendingPathComponent(m.pick(names))
    }
    var what = ""
    switch m.rng.uniformInt(below: 7) {
    case 0:
        what = "cells/ is a link to elsewhere/"
        try? fm.removeItem(at: cells)
        try? fm.createSymbolicLink(at: cells, withDestinationURL: elsewhere)
    case 1:
        if let f = someFile(), let data = fm.contents(atPath: f.path) {
            what = "\(f.lastPathComponent) cut short"
            try? data.prefix(Int(m.rng.uniformInt(below: UInt64(max(1, data.count))))).write(to: f)
        }
    case 2:
        if let f = someFile() {
            what = "\(f.lastPathComponent) holds garbage"
            try? Data(m.raw(Array("x,1e308,<script>\n".utf8))).write(to: f)
        }
    case 3:
        if let f = someFile() {
            what = "\(f.lastPathComponent) missing"
            try? fm.removeItem(at: f)
        }
    case 4:
        if let f = someFile() {
            what = "\(f.lastPathComponent) is a FIFO"
            try? fm.removeItem(at: f)
            mkfifo(f.path, 0o644)
        }
    case 5:
        let meta = out.appendingPathComponent("metadata.json")
        if let text = try? String(contentsOf: meta, encoding: .utf8) {
            what = "metadata.json of another shard or sweep"
            let changed = text.replacingOccurrences(of: "\"1/400\"", with: "\"2/400\"")
                .replacingOccurrences(of: "fnv1a64:", with: "fnv1a64:0")
            try? Data(changed.utf8).write(to: meta)
        }
    default:
        what = "a foreign file in cells/"
        try? fm.createDirectory(at: cells, withIntermediateDirectories: true)
        try? Data("x".utf8).write(to: cells.appendingPathComponent("notes.txt"))
    }
    let command: [String]
    switch m.rng.uniformInt(below: 5) {
    case 0: command = ["view", "out"]
    case 1: command = ["plot", "out"]
    case 2: command = ["merge", "out", "--out", "merged", "--allow-partial"]
    case 3:
        command = [
            "sweep", "in.json", "--out", "out", "--quiet", "-j", "1", "--shard", "1/400", "--resume",
            "--set", "limits.maxEvents=20000"
        ]
    default: command = ["run", "in.json", "--out", "out", "--quiet", "--set", "limits.maxEvents=20000"]
    }
    let before = fingerprint(dir, skipping: ["out", "merged"])
    let userBefore = userFiles.map { fm.contents(atPath: out.appendingPathComponent($0).path) }
    var v = Verdict(index: k, command: command + ["(folder: \(what))"], input: source.bytes)
    let timedOut = v.run(binary, command, in: dir, options: o)
    let after = fingerprint(dir, skipping: ["out", "merged"])
    for f in Set(before.keys).union(after.keys).sorted() where before[f] != after[f] {
        v.problems.append(
            after[f] == nil ? "deleted \(f) outside the result folder" : "changed \(f) outside the result folder")
    }
    for (f, old) in zip(userFiles, userBefore) where fm.contents(atPath: out.appendingPathComponent(f).path) != old {
        v.problems.append("lost the user's out/\(f)")
    }
    for f in listing(dir) where f.contains(".partial-") || f.contains(".tmp-") || f.contains(".old-") {
        if !timedOut { v.problems.append("left \(f) behind") }
    }
    try? fm.removeItem(at: dir)
    return v
}

func runCase(
    _ k: Int, options o: Options, corpus: [(name: String, bytes: [UInt8])], binary: String, work: URL
) -> Verdict {
    var m = Mutator(rng: RandomStream(seed: o.seed, name: "fuzz-case:\(k)"))
    // One case in ten is a tool case (measured tables, goldens, linked folders, control
    // characters), decided by its own stream: the cases it does not take stay the ones earlier
    // versions drew.
    var toolDraw = RandomStream(seed: o.seed, name: "fuzz-tool-case:\(k)")
    if !o.tweaksOnly && toolDraw.uniformInt(below: 10) == 0 {
        return runToolCase(k, options: o, corpus: corpus, binary: binary, work: work, mutator: &m)
    }
    // One case in ten is a result-folder case, decided by its own stream
    // so the other cases stay the ones earlier versions drew.
    var folderDraw = RandomStream(seed: o.seed, name: "fuzz-folder-case:\(k)")
    if !o.tweaksOnly && folderDraw.uniformInt(below: 10) == 0 {
        return runFolderCase(k, options: o, corpus: corpus, binary: binary, work: work, mutator: &m)
    }
    let source = m.pick(corpus)
    var input = source.bytes
    var extra: [String] = []
    switch o.tweaksOnly ? 10 : m.rng.uniformInt(below: 10) {
    case 10: input = m.tweaks(input)
    case 0, 1, 2, 3, 4: input = m.structural(input)
    case 5, 6: input = m.raw(input)
    default: extra = m.overrides(input)
    }
    let command: [String]
    switch o.tweaksOnly ? 9 + m.rng.uniformInt(below: 11) : m.rng.uniformInt(below: 20) {
    case 0..<9: command = ["validate", "in.json"] + extra
    case 9..<17: command = ["run", "in.json", "--out", "out", "--quiet", "--set", "limits.maxEvents=20000"] + extra
    case 17, 18: command = ["check", "in.json", "--set", "limits.maxEvents=20000"] + extra
    default: command = ["sweep", "in.json", "--out", "out", "--quiet", "-j", "1", "--shard", "1/400"] + extra
    }
    let dir = work.appendingPathComponent("case-\(k)")
    try? FileManager.default.removeItem(at: dir)
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try? Data(input).write(to: dir.appendingPathComponent("in.json"))
    var v = Verdict(index: k, command: command, input: input)
    let timedOut = v.run(binary, command, in: dir, options: o)
    let status = v.status
    // Nothing outside the result folder; a result folder is whole (metadata.json) and leaves no
    // staging or temporary files behind.
    let files = listing(dir)
    for f in files where f != "in.json" && f != "out" && !f.hasPrefix("out/") {
        v.problems.append("wrote \(f) outside the result folder")
    }
    if files.contains("out") && !timedOut {
        if !files.contains("out/metadata.json") && status != 2 {
            v.problems.append("result folder without metadata.json")
        }
        if status == 2 && command[0] == "run" { v.problems.append("exit status 2 but a result folder was written") }
    }
    for f in files where f.contains(".partial-") || f.contains(".tmp-") || f.contains(".old-") {
        if !timedOut { v.problems.append("left \(f) behind") }
    }
    try? FileManager.default.removeItem(at: dir)
    return v
}

// MARK: Main

@main
enum AdHocFuzz {
    static func main() {

        let options = parseOptions()
        let corpus = loadCorpus(options.corpus)
        guard !corpus.isEmpty else {
            FileHandle.standardError.write(Data("adhocfuzz: no corpus (run from the repository root)\n".utf8))
            exit(2)
        }
        let binary = URL(fileURLWithPath: options.binary).standardizedFileURL.path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            FileHandle.standardError.write(Data("adhocfuzz: \(options.binary) is not an executable adhocsim\n".utf8))
            exit(2)
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("adhocfuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var next = 0
            var verdicts: [Verdict?]
            init(_ n: Int) { verdicts = Array(repeating: nil, count: n) }
        }
        let results = Results(options.cases)
        let started = Date()
        DispatchQueue.concurrentPerform(iterations: options.jobs) { _ in
            while true {
                results.lock.lock()
                let i = results.next
                results.next += 1
                results.lock.unlock()
                guard i < options.cases else { return }
                let v = runCase(options.first + i, options: options, corpus: corpus, binary: binary, work: work)
                results.lock.lock()
                results.verdicts[i] = v
                results.lock.unlock()
            }
        }
        try? FileManager.default.removeItem(at: work)
        let elapsed = Date().timeIntervalSince(started)
        let verdicts = results.verdicts.compactMap { $0 }
        var byStatus: [Int32: Int] = [:]
        for v in verdicts { byStatus[v.status, default: 0] += 1 }
        let failures = verdicts.filter { !$0.problems.isEmpty }
        let slowest = verdicts.max { $0.seconds < $1.seconds }
        let statusText = byStatus.keys.sorted().map { "exit \($0): \(byStatus[$0]!)" }.joined(separator: ", ")
        print(
            "adhocfuzz: \(verdicts.count) cases (\(options.first)..<\(options.first + verdicts.count), seed \(options.seed)) in "
                + String(format: "%.1f s, %.1f cases/s; ", elapsed, Double(verdicts.count) / max(elapsed, 1e-9))
                + "\(statusText); slowest \(String(format: "%.2f", slowest?.seconds ?? 0)) s (case \(slowest?.index ?? 0): "
                + "\(slowest.map { $0.command.prefix(2).joined(separator: " ") } ?? "")); \(failures.count) failed")
        if !failures.isEmpty {
            let keep = URL(fileURLWithPath: options.keep)
            try? FileManager.default.createDirectory(at: keep, withIntermediateDirectories: true)
            for f in failures {
                let name = "case-\(f.index)"
                try? Data(f.input).write(to: keep.appendingPathComponent(name + ".json"))
                let note =
                    "adhocsim "
                    + f.command.map { $0.contains(" ") || $0.isEmpty ? "'\($0)'" : $0 }.joined(separator: " ")
                    + "\n" + f.problems.joined(separator: "\n") + "\n"
                try? Data(note.utf8).write(to: keep.appendingPathComponent(name + ".txt"))
                if !options.quiet {
                    print(
                        "  case \(f.index): \(f.problems.joined(separator: "; ")) — \(f.command.prefix(3).joined(separator: " ")) (kept in \(options.keep)/\(name).json)"
                    )
                }
            }
            exit(1)
        }
    }
}
