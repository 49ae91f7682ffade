import AdHocSim
import Foundation

enum RunCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { say(Help.run); return ExitStatus.success }
        let a = try Arguments(
            args, options: ["--out", "--seed", "--set", "--overrides"],
            switches: ["--quiet", "--pcap", "--view", "--timeline"])
        guard a.positionals.count == 1 else {
            throw Arguments.UsageError(
                message: a.positionals.isEmpty
                    ? "expects a scenario FILE" : "expects one scenario FILE, found \(a.positionals.count)")
        }
        guard var overrides = overrideArguments(a, scenario: a.positionals[0]) else { return ExitStatus.badInput }
        if a.value("--seed") != nil {
            let seed = try a.integer("--seed", default: 0, in: 0...UInt64.max)
            overrides.append("seed=\(seed)")
        }
        let file = a.positionals[0]
        let scenario: Scenario
        do {
            scenario = try ScenarioDecoder.load(path: file, overrides: overrides)
        } catch let e as ScenarioError {
            printError(e.description)
            printError(
                "\(e.count) problem\(e.count == 1 ? "" : "s") in \(Diagnostic.excerpt(file.isEmpty ? "\"\"" : file)); nothing was run or written."
            )
            return ExitStatus.badInput
        }
        if let m = scenario.matrix, !a.has("--quiet") {
            printError(
                "note: \(file) has a matrix of \(m.cellCount) cells; run simulates the base scenario only (use adhocsim sweep)"
            )
        }
        let report: RunReport
        // On a terminal, a run that takes longer than a second shows where it stands on one
        // line of stderr; --quiet and pipes stay silent.
        let line = a.has("--quiet") || isatty(2) == 0 ? nil : ProgressLine()
        do {
            var progress: (@Sendable (ScenarioRunner.RunProgress) -> Void)?
            if let line { progress = { p in line.show(p) } }
            report = try ScenarioRunner.run(
                scenario, trace: a.has("--pcap"), timeline: a.has("--view") || a.has("--timeline"), progress: progress)
            line?.finish()
        } catch let e as ScenarioRunner.Unsupported {
            printError(e.description)
            return ExitStatus.badInput
        }
        let out = URL(fileURLWithPath: a.value("--out") ?? "results/\(scenario.name)")
        do {
            var files = RunFiles.files(for: report)
            if a.has("--view"), let t = report.timeline {
                files.append(ResultFile(name: "view.html", contents: ViewerPage.html(timeline: t)))
            }
            try ResultDirectory.commit(files, to: out)
        } catch {
            printError("adhocsim run: \(ErrorText.describe(error))")
            return ExitStatus.badInput
        }
        let quiet = a.has("--quiet")
        if !quiet {
            say(
                "\(scenario.name): simulated \(report.simulatedTime) in \(NumberText.fixed(report.wallSeconds, decimals: 3)) s wall, \(report.eventsExecuted) events (\(report.stopReason.rawValue))"
            )
            say(RunFiles.summaryText(report), terminator: "")
            say("results: \(a.value("--out") ?? "results/\(scenario.name)")")
        }
        if let t = report.timeline, t.hasSuffix("}\n"), let last = t.dropLast().split(separator: "\n").last,
            last.hasPrefix("{\"e\":\"truncated\"")
        {
            printError(
                "note: the timeline kept its first \(TimelineRecorder.recordLimit) records and ends with a "
                    + "\"truncated\" record counting the rest; the viewer says so")
        }
        if !report.completed {
            printError(
                "adhocsim run: the event budget (limits.maxEvents = \(scenario.limits.maxEvents)) stopped the run at \(report.simulatedTime); results are partial"
            )
            return ExitStatus.checkFailed
        }
        return ExitStatus.success
    }
}

enum ValidateCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { say(Help.validate); return ExitStatus.success }
        let a = try Arguments(args, options: ["--set"], switches: [])
        guard !a.positionals.isEmpty else { throw Arguments.UsageError(message: "expects at least one scenario FILE") }
        var failed = 0
        for file in a.positionals {
            do {
                let s = try ScenarioDecoder.load(path: file, overrides: a.all("--set"))
                // The same support checks as run: a valid file this build cannot simulate is
                // not "ok".
                do {
                    try ScenarioRunner.checkSupported(s)
                } catch let e as ScenarioRunner.Unsupported {
                    failed += 1
                    printError(e.description)
                    continue
                }
                let cells = s.matrix.map { ", matrix of \($0.cellCount) cells × \($0.repeats)" } ?? ""
                let layers = s.layers.outline.map { ", " + $0 }.joined()
                say(
                    "\(file): ok (scenario \"\(s.name)\", \(s.nodes.count) node\(s.nodes.count == 1 ? "" : "s"), \(s.flows.count) flow\(s.flows.count == 1 ? "" : "s")\(layers), \(s.duration)\(cells))"
                )
            } catch let e as ScenarioError {
                failed += 1
                printError(e.description)
                printError(
                    "\(e.count) problem\(e.count == 1 ? "" : "s") in \(Diagnostic.excerpt(file.isEmpty ? "\"\"" : file))"
                )
            }
        }
        return failed == 0 ? ExitStatus.success : ExitStatus.badInput
    }
}

enum BenchCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { say(Help.bench); return ExitStatus.success }
        if args.first == "medium" { return try medium(Array(args.dropFirst())) }
        let a = try Arguments(
            args, options: ["--population", "--events", "--repeat"], switches: ["--compare", "--no-baseline"])
        guard a.positionals == ["core"] else {
            throw Arguments.UsageError(
                message: "expects the benchmark name: adhocsim bench core, or adhocsim bench medium FILE")
        }
        let population = try a.integer("--population", default: 1000, in: 1...10_000_000)
        let events = try a.integer("--events", default: 20_000_000, in: 1...10_000_000_000)
        let repeats = try a.integer("--repeat", default: 3, in: 1...100)
        let bench = CoreBenchmark(population: Int(population), events: events)
        // The simulation and its baseline alternate, so drift of the machine hits both.
        var best = bench.runSimulation()
        var baseline: BenchmarkFigure? = a.has("--no-baseline") ? nil : bench.runBareHeap(QuaternaryEager.self)
        for _ in 1..<repeats {
            let f = bench.runSimulation()
            if f.seconds < best.seconds { best = f }
            if let earlier = baseline {
                let b = bench.runBareHeap(QuaternaryEager.self)
                if b.seconds < earlier.seconds { baseline = b }
            }
        }
        if a.has("--compare"), var base = baseline {
            var comparisons: [BenchmarkFigure] = []
            for name in CoreBenchmark.shapeNames {
                guard var shapeBest = bench.runBareHeap(named: name) else { continue }
                for _ in 1..<repeats {
                    if let f = bench.runBareHeap(named: name), f.seconds < shapeBest.seconds { shapeBest = f }
                }
                comparisons.append(shapeBest)
                // The baseline is the best of every run of its shape, so it is never flattered
                // by an unlucky first measurement.
                if shapeBest.label == base.label && shapeBest.seconds < base.seconds { base = shapeBest }
            }
            var q = bench.runBareQueue()
            for _ in 1..<repeats {
                let f = bench.runBareQueue()
                if f.seconds < q.seconds { q = f }
            }
            comparisons.append(q)
            for f in comparisons {
                say(
                    "compare \(f.label) events_per_s=\(Int(f.eventsPerSecond)) ratio_to_baseline=\(NumberText.fixed(f.eventsPerSecond / base.eventsPerSecond, decimals: 3)) checksum=\(f.checksum)"
                )
            }
            baseline = base
        }
        let f = best
        guard let b = baseline else {
            say(
                "events_per_s=\(Int(f.eventsPerSecond)) population=\(population) events=\(f.events) best_of=\(repeats) queue=radix-heap-64 checksum=\(f.checksum)"
            )
            return ExitStatus.success
        }
        say(
            "events_per_s=\(Int(f.eventsPerSecond)) population=\(population) events=\(f.events) best_of=\(repeats) queue=radix-heap-64 baseline=\(b.label) baseline_events_per_s=\(Int(b.eventsPerSecond)) ratio_to_baseline=\(NumberText.fixed(f.eventsPerSecond / b.eventsPerSecond, decimals: 3)) checksum=\(f.checksum)"
        )
        if f.checksum != b.checksum {
            printError(
                "adhocsim bench: the simulation and the baseline executed different event sequences (checksums differ)")
            return ExitStatus.checkFailed
        }
        return ExitStatus.success
    }
}

extension BenchCommand {
    /// `adhocsim bench medium FILE`: the medium's receiver loop alone (`MediumBenchmark`).
    static func medium(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, options: ["--frames", "--on-air", "--repeat", "--set"], switches: [])
        guard a.positionals.count == 1 else {
            throw Arguments.UsageError(message: "expects one scenario file: adhocsim bench medium FILE")
        }
        let frames = try a.integer("--frames", default: 20_000, in: 1...100_000_000)
        let onAir = try a.integer("--on-air", default: 8, in: 1...1_000)
        let repeats = try a.integer("--repeat", default: 3, in: 1...100)
        let file = a.positionals[0]
        guard let scenario = loadScenario(file, overrides: a.all("--set")) else { return ExitStatus.badInput }
        guard scenario.radio.technology != .ideal, scenario.nodes.count >= 2 else {
            printError("adhocsim bench medium: \(file) needs two or more Wi-Fi or AWDL phones")
            return ExitStatus.badInput
        }
        let bench = MediumBenchmark(scenario, frames: Int(frames), onAir: Int(onAir))
        var best: [MediumBenchmark.Variant: BenchmarkFigure] = [:]
        for _ in 0..<repeats {
            for v in MediumBenchmark.Variant.allCases {
                let f = bench.run(v)
                if best[v].map({ f.seconds < $0.seconds }) ?? true { best[v] = f }
            }
        }
        guard let row = best[.row] else { return ExitStatus.success }  // `--repeat` is at least 1
        for v in MediumBenchmark.Variant.allCases {
            guard let f = best[v] else { continue }
            let ns = f.seconds * 1e9 / Double(Swift.max(f.events, 1))
            say(
                "variant=\(v.rawValue) ns_per_receiver=\(NumberText.fixed(ns, decimals: 2)) ratio_to_row=\(NumberText.fixed(f.seconds / row.seconds, decimals: 3)) receiver_visits=\(f.events) frames=\(frames) on_air=\(onAir) best_of=\(repeats) checksum=\(f.checksum)"
            )
        }
        return ExitStatus.success
    }
}

/// What `read` makes of `file`, or `nil` after printing the file's problems (the caller exits
/// with status 2).
func reading<T>(_ file: String, _ read: () throws -> T) -> T? {
    do {
        return try read()
    } catch let e as ScenarioError {
        printError(e.description)
        return nil
    } catch {
        printError("\(file): \(error)")
        return nil
    }
}

/// The scenario in `file` with `overrides`, or `nil` after printing its problems.
func loadScenario(_ file: String, overrides: [String]) -> Scenario? {
    reading(file) { try ScenarioDecoder.load(path: file, overrides: overrides) }
}

/// `--overrides FILE` (a calibrated overrides file, applied first) and then every `--set`;
/// `nil` after printing the file's problems.
///
/// The file's overrides are tried on `scenario` by themselves first, so a value the scenario
/// refuses is blamed on the overrides file (`--overrides cal.json host.sendUs=-5`), not on a
/// `--set` the user never typed.
func overrideArguments(_ a: Arguments, scenario: String) -> [String]? {
    var list: [String] = []
    if let file = a.value("--overrides") {
        guard let read = reading(file, { try OverrideFile.read(file) }) else { return nil }
        guard
            reading(
                scenario,
                {
                    try ScenarioDecoder.load(
                        path: scenario, overrides: read, overrideSource: "--overrides \(file):")
                }) != nil
        else {
            printError(
                "the overrides in \(Diagnostic.excerpt(file)) do not fit \(Diagnostic.excerpt(scenario)); nothing was run or written."
            )
            return nil
        }
        list = read
    }
    return list + a.all("--set")
}

/// The one updating line of `run`'s progress: simulated time, events per second and an ETA,
/// rewritten in place at most ten times a second once the run has taken a second.
final class ProgressLine: @unchecked Sendable {
    private var lastShown = -1.0
    private var shown = false

    func show(_ p: ScenarioRunner.RunProgress) {
        guard p.wallSeconds >= 1, p.wallSeconds - lastShown >= 0.1 || p.simulated >= p.duration else { return }
        lastShown = p.wallSeconds
        shown = true
        let done = p.duration.nanoseconds > 0 ? Double(p.simulated.nanoseconds) / Double(p.duration.nanoseconds) : 1
        let eta = done > 0 ? p.wallSeconds * (1 - done) / done : 0
        let rate = Double(p.events) / p.wallSeconds
        let text =
            "\r\u{1b}[K  simulated \(NumberText.fixed(p.simulated.inSeconds, decimals: 1)) of "
            + "\(NumberText.fixed(p.duration.inSeconds, decimals: 1)) s (\(NumberText.fixed(done * 100, decimals: 0)) %), "
            + "\(NumberText.fixed(rate / 1e6, decimals: 2)) M events/s, ETA \(NumberText.fixed(eta, decimals: 0)) s"
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Clears the line, if one was shown.
    func finish() {
        if shown { FileHandle.standardError.write(Data("\r\u{1b}[K".utf8)) }
    }
}
