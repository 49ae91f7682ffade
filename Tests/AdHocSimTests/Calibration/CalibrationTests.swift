import Foundation
import Testing

@testable import AdHocSim

/// `adhocsim calibrate`: the search, the loss, parameter recovery from measurements the
/// simulator made with known values, and bad input.
@Suite("Calibration")
struct CalibrationTests {
    /// A thesis UDP test on the ideal link: probe RTT ≈ 2·delay + (k + 2)·sendUs, data rate ≈
    /// 8·S / sendUs (the awaited writes are paced by the send cost, above the 1000 Mbit/s link's
    /// serialisation), so RTT and rate together pin both parameters.
    static let scenario: String = {
        var t = TestScenario.twoPhones(
            name: "cal", seed: 5, duration: 60, environment: ["preset": "city"], radio: ["technology": "ideal"],
            protocol: "udp", workload: ["kind": "thesis", "probes": 20, "packets": 200, "size": 1000])
        t["link"] = ["rateMbps": 1000, "delayMs": 5]
        t["host"] = ["sendUs": 50, "receiveUs": 0, "packetUs": 0, "spread": 0, "coldFactor": 1]
        return t.text
    }()

    /// Writes the scenario to a folder and returns its path.
    static func scenarioFile(_ dir: URL) throws -> String {
        let url = dir.appendingPathComponent("cal.json")
        try scenario.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Measured rows made by the simulator itself with `truth` set, for the given places and sizes.
    static func measured(
        _ file: String, truth: [String], places: [String], sizes: [Int], metrics: [CalibrationMetric]
    )
        throws -> String
    {
        var lines = ["place,protocol,distance_m,packets,size_bytes," + metrics.map(\.rawValue).joined(separator: ",")]
        for place in places {
            for size in sizes {
                let s = try ScenarioDecoder.load(
                    path: file, overrides: truth + ["environment.preset=\(place)", "flows[0].workload.size=\(size)"])
                let m = try ScenarioRunner.run(s).flows[0]
                let values = metrics.map { NumberText.fixed($0.value(of: m)!, decimals: 4) }
                lines.append("\(place),udp,10,200,\(size)," + values.joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Nelder–Mead on (x − 0.3)² + 2(y − 0.8)² finds the minimum; with the minimum outside the
    /// cube (x = 1.2) it stops on the bound.
    @Test func theSearchFindsAMinimumAndRespectsTheBounds() {
        let inside = NelderMead(maxEvaluations: 400).minimise(dimensions: 2) { p in
            (p[0] - 0.3) * (p[0] - 0.3) + 2 * (p[1] - 0.8) * (p[1] - 0.8)
        }
        expect(abs(inside.point[0] - 0.3) < 1e-3 && abs(inside.point[1] - 0.8) < 1e-3)
        expect(inside.evaluations <= 400)
        let edge = NelderMead(maxEvaluations: 400).minimise(dimensions: 1) { p in (p[0] - 1.2) * (p[0] - 1.2) }
        expect(abs(edge.point[0] - 1) < 1e-3)
    }

    /// The search names the call that first reached its result. On (p − 0.75)² in one
    /// dimension the centre 0.5 is call 1 and the first step, 0.5 + 0.25 = 0.75, is call 2 with
    /// the value 0, which nothing can beat; on (p − 0.5)² the centre itself is the minimum.
    /// The search is deterministic, so a limit of that many calls gives the same point.
    @Test func theSearchNamesTheCallThatFoundItsResult() {
        let step = NelderMead(maxEvaluations: 50).minimise(dimensions: 1) { p in (p[0] - 0.75) * (p[0] - 0.75) }
        expectEqual(step.bestEvaluation, 2)
        expectEqual(step.value, 0)
        expect(step.evaluations > 2)
        let centre = NelderMead(maxEvaluations: 50).minimise(dimensions: 1) { p in (p[0] - 0.5) * (p[0] - 0.5) }
        expectEqual(centre.bestEvaluation, 1)
        func f(_ p: [Double]) -> Double { (p[0] - 0.3) * (p[0] - 0.3) + 2 * (p[1] - 0.8) * (p[1] - 0.8) }
        let full = NelderMead(maxEvaluations: 60).minimise(dimensions: 2, f)
        let cut = NelderMead(maxEvaluations: full.bestEvaluation).minimise(dimensions: 2, f)
        expect(full.bestEvaluation > 3 && full.bestEvaluation <= full.evaluations)
        expectEqual(cut.point, full.point)
        expectEqual(cut.value, full.value)
    }

    /// A stall limit stops the search that many calls after its best: on (p − 0.75)² the best
    /// is call 2 (value 0), so a limit of 5 stops after call 7 with the same point; a limit
    /// larger than the calls the search makes changes nothing.
    @Test func aStallLimitStopsAfterThatManyCallsWithoutABetterValue() {
        func f(_ p: [Double]) -> Double { (p[0] - 0.75) * (p[0] - 0.75) }
        let free = NelderMead(maxEvaluations: 50).minimise(dimensions: 1, f)
        var stalling = NelderMead(maxEvaluations: 50)
        stalling.stallLimit = 5
        let stalled = stalling.minimise(dimensions: 1, f)
        expect(free.evaluations > 7)
        expectEqual(stalled.evaluations, 7)
        expectEqual(stalled.point, free.point)
        expectEqual(stalled.bestEvaluation, 2)
        stalling.stallLimit = 50
        expectEqual(stalling.minimise(dimensions: 1, f), free)
    }

    /// A key of whole numbers is fitted in whole numbers: the scenario refuses 100.5 datagrams,
    /// so every point of `host.udpReceiveBufferDatagrams=100:200` is an integer and the overrides
    /// file is one `run --overrides` accepts. A run that cannot be made (a send cost of −200 µs,
    /// outside the bounds) is an error naming the value, not a large loss.
    @Test func wholeNumberKeysAndFailingRunsAreHandled() throws {
        let dir = try temporaryFolder()
        let file = try CalibrationTests.scenarioFile(dir)
        let table = try MeasuredTable(
            text: "place,protocol,distance_m,packets,size_bytes,data_rate_mbps\ncity,udp,10,200,1000,150\n",
            file: "m.csv")
        let problem = try CalibrationProblem(
            scenarioPath: file, overrides: [],
            parameters: [FitParameter(argument: "host.udpReceiveBufferDatagrams=100:200")],
            measured: table, repeats: 1)
        expect(problem.parameters[0].wholeNumbers)
        expectEqual(problem.parameters[0].value(at: 0.503), 150)
        let r = try Calibration.run(problem, measured: table, holdout: [], workers: 1, maxEvaluations: 6)
        let v = r.values[0].value
        expect(v == v.rounded() && v >= 100 && v <= 200, "\(v)")
        let overrides = dir.appendingPathComponent("o.json")
        try r.overridesJSON.write(to: overrides, atomically: true, encoding: .utf8)
        expectEqual(
            try CLI.run(["run", file, "--overrides", overrides.path, "--out", "r", "--quiet"], in: dir).status, 0)
        let cost = try CalibrationProblem(
            scenarioPath: file, overrides: [], parameters: [FitParameter(argument: "host.sendUs=0:200")],
            measured: table, repeats: 1)
        expect(!cost.parameters[0].wholeNumbers)
        let cells = MeasuredCell.group(table.rows, table.aggregation)
        #expect {
            _ = try cost.simulate(cells, at: [-1], workers: 1)
        } throws: { error in
            "\(error)".contains("a run of the fit failed") && "\(error)".contains("host.sendUs=-200")
        }
    }

    /// A spreadsheet's byte order mark is not part of the first column's name; a per-test table
    /// naming a column twice is refused at line 1 with both places.
    @Test func aByteOrderMarkIsSkippedAndARepeatedColumnRefused() throws {
        let bom = try MeasuredTable(
            text: "\u{FEFF}place,protocol,distance_m,packets,size_bytes,rtt_mean_ms\ncity,udp,10,200,1000,15\n",
            file: "m.csv")
        expectEqual(bom.rows.count, 1)
        let header = FieldDataTests.header + ",rate_mbps"
        #expect {
            _ = try MeasuredTable(text: header + "\n", file: "t.csv")
        } throws: { error in
            "\(error)".contains("t.csv:1: error: column 26 \"rate_mbps\" repeats column 22")
        }
    }

    /// Absurd magnitudes are refused with the line and column, in both layouts: 1.8e308 ms and a
    /// subnormal rate would make a ratio or its logarithm infinite; 0 and ordinary figures pass.
    @Test func absurdMagnitudesAreRefused() throws {
        let head = "place,protocol,distance_m,packets,size_bytes,rtt_mean_ms\n"
        for bad in ["1.8e308", "4e-320", "1e10"] {
            #expect {
                _ = try MeasuredTable(text: head + "city,udp,10,200,1000,\(bad)\n", file: "m.csv")
            } throws: { error in
                "\(error)".contains(
                    "m.csv:2: error: column rtt_mean_ms: expected 0 or a number in 0.000001...1000000000")
            }
        }
        expectEqual(try MeasuredTable(text: head + "city,udp,10,200,1000,0\n", file: "m.csv").rows.count, 1)
        let perTest =
            FieldDataTests.header + "\n"
            + FieldDataTests.row(
                side: "server", proto: "UDP", place: "Field", d: 5, n: "100", s: "128", rate: "5e-324", loss: "0")
            + "\n"
        #expect {
            _ = try MeasuredTable(text: perTest, file: "t.csv")
        } throws: { error in
            "\(error)".contains("t.csv:2: error: column rate_mbps: expected 0 or a number")
        }
    }

    /// A measured table's text reaches the report and the terminal as text: a place label with
    /// a heading mark, a tag, a link and an escape sequence is escaped in the note (controls
    /// shown as `\u{1B}`) and backslash-escaped in Markdown.
    @Test func measuredLabelsCannotInjectMarkupOrControls() throws {
        let label = "# Evil <script>[x](javascript:alert(1))\u{1B}[31m"
        let text =
            FieldDataTests.header + "\n"
            + FieldDataTests.row(side: "client", proto: "UDP", place: "Field", d: 5, rtt: "300", sd: "12") + "\n"
            + FieldDataTests.row(side: "client", proto: "UDP", place: label, d: 5, rtt: "300", sd: "12") + "\n"
        let table = try MeasuredTable(text: text, file: "t.csv")
        let note = try require(table.notes.first { $0.contains("skipped (no place preset)") })
        expect(!note.unicodeScalars.contains { $0.value == 0x1B } && note.contains("\\u{1B}"), "\(note)")
        let md = FieldComparison.markdownText(note)
        expect(md.contains("\\# Evil \\<script\\>\\[x\\](javascript:alert(1))"), "\(md)")
    }

    /// The evaluation limit holds exactly, also inside the first simplex and inside a step: with
    /// four parameters, a limit of 1 calls the objective once (the centre), a limit of 7 seven
    /// times (the simplex's five and two more), never more; the result is the best point called.
    @Test func theEvaluationLimitIsKeptExactly() {
        for limit in [1, 3, 5, 7, 23] {
            var calls = 0
            let r = NelderMead(maxEvaluations: limit).minimise(dimensions: 4) { p in
                calls += 1
                return p.reduce(0) { $0 + ($1 - 0.1) * ($1 - 0.1) }
            }
            expectEqual(calls, limit)
            expectEqual(r.evaluations, limit)
            expect(r.value.isFinite)
        }
    }

    /// The loss terms, by hand: a factor 2 in RTT costs (ln(20.01/10.01))² = 0.4797; 10
    /// percentage points of loss cost 1; a metric the run did not produce costs 4.
    @Test func theLossTermsAreTheDocumentedOnes() {
        expect(abs(CalibrationProblem.term(.rttMean, measured: 10, simulated: 20) - 0.47971) < 1e-4)
        expectEqual(CalibrationProblem.term(.loss, measured: 5, simulated: 15), 1)
        expectEqual(CalibrationProblem.term(.dataRate, measured: 5, simulated: nil), 4)
        expectEqual(CalibrationProblem.term(.rttSd, measured: 3, simulated: 3), 0)
    }

    /// Measurements made with sendUs = 80 µs and delay = 7 ms are fitted back within 2 µs and
    /// 0.1 ms from the bounds' centre (100 µs, 10.5 ms), fitting on the city rows only; the
    /// held-out field rows are then predicted within 1 % (the ideal link ignores the place).
    /// The fit is the same for one worker and two.
    @Test(ScaleCheck.trait) func knownParametersAreRecoveredAndTheHoldoutIsPredicted() throws {
        let dir = try temporaryFolder()
        let file = try CalibrationTests.scenarioFile(dir)
        let csv = try CalibrationTests.measured(
            file, truth: ["host.sendUs=80", "link.delayMs=7"], places: ["city", "field"], sizes: [500, 1000],
            metrics: [.rttMean, .dataRate])
        let table = try MeasuredTable(text: csv, file: "m.csv")
        let problem = try CalibrationProblem(
            scenarioPath: file, overrides: [],
            parameters: [FitParameter(argument: "host.sendUs=0:200"), FitParameter(argument: "link.delayMs=1:20")],
            measured: table, repeats: 1)
        let one = try Calibration.run(problem, measured: table, holdout: [.field], workers: 1, maxEvaluations: 100)
        expect(abs(one.values[0].value - 80) < 2, "sendUs \(one.values[0].value)")
        expect(abs(one.values[1].value - 7) < 0.1, "delayMs \(one.values[1].value)")
        expect(one.fitted.count == 2 && one.heldOut.count == 2 && one.loss < one.startLoss)
        for r in CalibrationProblem.residuals(one.heldOut, one.simulatedHeldOut) {
            expect(r.rms < 0.01, "\(r.metric.rawValue): \(r.rms)")
        }
        let two = try Calibration.run(problem, measured: table, holdout: [.field], workers: 2, maxEvaluations: 100)
        expectEqual(two.values.map(\.value), one.values.map(\.value))
        expect(one.overridesJSON.contains("\"host.sendUs\": ") && one.overridesJSON.contains("\"link.delayMs\": "))
    }

    /// The receive cost alone, from the probes' RTT mean and SD (sendUs known): 120 µs is
    /// recovered within 5 µs.
    @Test func theReceiveCostIsRecoveredFromTheProbeRtts() throws {
        let dir = try temporaryFolder()
        let file = try CalibrationTests.scenarioFile(dir)
        let csv = try CalibrationTests.measured(
            file, truth: ["host.receiveUs=120"], places: ["city"], sizes: [1000], metrics: [.rttMean, .rttSd])
        let table = try MeasuredTable(text: csv, file: "m.csv")
        let problem = try CalibrationProblem(
            scenarioPath: file, overrides: [], parameters: [FitParameter(argument: "host.receiveUs=0:400")],
            measured: table, repeats: 1)
        let r = try Calibration.run(problem, measured: table, holdout: [], workers: 2, maxEvaluations: 60)
        expect(abs(r.values[0].value - 120) < 5, "receiveUs \(r.values[0].value)")
    }

    /// Bad tables and arguments exit 2 naming the file, the line and the column.
    @Test(arguments: [
        (
            "place,protocol,distance_m,packets,rtt_mean_ms\ncity,udp,10,200,3\n",
            "m.csv:1: error: missing column \"size_bytes\""
        ),
        (
            "place,protocol,distance_m,packets,size_bytes,rtt_mean_ms\nmars,udp,10,200,500,3\n",
            "m.csv:2: error: column place"
        ),
        (
            "place,protocol,distance_m,packets,size_bytes,rtt_mean_ms\ncity,udp,10,200,500,fast\n",
            "m.csv:2: error: column rtt_mean_ms"
        ),
        (
            "place,protocol,distance_m,packets,size_bytes,rtt_mean\ncity,udp,10,200,500,3\n",
            "did you mean \"rtt_mean_ms\""
        ),
        (
            "place,protocol,distance_m,packets,size_bytes,rtt_mean_ms\ncity,udp,10,200,500,\n",
            "m.csv:2: error: no measured value"
        ),
        (
            "place,protocol,distance_m,packets,size_bytes,loss_pct\ncity,udp,10,200,500,140\n",
            "m.csv:2: error: column loss_pct"
        )
    ])
    func aBadTableIsReportedWithItsLineAndColumn(_ table: String, _ expected: String) throws {
        let dir = try temporaryFolder()
        let file = try CalibrationTests.scenarioFile(dir)
        try table.write(to: dir.appendingPathComponent("m.csv"), atomically: true, encoding: .utf8)
        let r = try CLI.run(
            ["calibrate", file, "--measured", "m.csv", "--fit", "host.sendUs=0:200", "--out", "o.json"], in: dir)
        expectEqual(r.status, 2)
        expect(r.stderr.contains(expected), "\(r.stderr)")
        expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.json").path))
    }

    /// A row that is not a cell of the scenario's matrix is refused with its line.
    @Test func aRowOffTheMatrixIsRefused() throws {
        let dir = try temporaryFolder()
        let csv = "place,protocol,distance_m,packets,size_bytes,rtt_mean_ms\ncity,udp,30,100,128,3\n"
        try csv.write(to: dir.appendingPathComponent("m.csv"), atomically: true, encoding: .utf8)
        let root = Repository.root
        let r = try CLI.run(
            [
                "calibrate", root.appendingPathComponent("topologies/thesis-2025.json").path, "--measured",
                dir.appendingPathComponent("m.csv").path, "--fit", "host.sendUs=0:200"
            ], in: dir)
        expectEqual(r.status, 2)
        expect(r.stderr.contains("m.csv:2: error: column distance_m: 30 matches no cell of the matrix"), "\(r.stderr)")
    }

    /// `--metrics` names metrics; a wrong one is bad usage (exit 2, naming what it found), and
    /// a table left without any value of the metrics given is refused; compare refuses a folder
    /// without a sweep table.
    @Test func badMetricsAndFoldersAreRefused() throws {
        let dir = try temporaryFolder()
        let file = try CalibrationTests.scenarioFile(dir)
        let csv = "place,protocol,distance_m,packets,size_bytes,rtt_mean_ms\ncity,udp,10,200,500,15\n"
        try csv.write(to: dir.appendingPathComponent("m.csv"), atomically: true, encoding: .utf8)
        let bad = try CLI.run(
            ["calibrate", file, "--measured", "m.csv", "--fit", "host.sendUs=0:200", "--metrics", "rtt_mean_ms,jitter"],
            in: dir)
        expect(bad.status == 2 && bad.stderr.contains("found \"jitter\""), "\(bad.stderr)")
        let none = try CLI.run(
            ["calibrate", file, "--measured", "m.csv", "--fit", "host.sendUs=0:200", "--metrics", "loss_pct"], in: dir)
        expect(none.status == 2 && none.stderr.contains("no measured value"), "\(none.stderr)")
        let compare = try CLI.run(["compare", dir.path, "--measured", "m.csv"], in: dir)
        expect(compare.status == 2 && compare.stderr.contains("cells.csv"), "\(compare.stderr)")
        expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("compare").path))
    }

    /// The calibrated overrides file is what `run --overrides` applies, before any `--set`.
    @Test func runAppliesTheCalibratedOverrides() throws {
        let dir = try temporaryFolder()
        let file = try CalibrationTests.scenarioFile(dir)
        try "{\n  \"host.sendUs\": 80,\n  \"link.delayMs\": 7\n}\n".write(
            to: dir.appendingPathComponent("o.json"), atomically: true, encoding: .utf8)
        expectEqual(
            try OverrideFile.read(dir.appendingPathComponent("o.json").path), ["host.sendUs=80", "link.delayMs=7"])
        let r = try CLI.run(["run", file, "--overrides", "o.json", "--set", "link.delayMs=9", "--out", "r"], in: dir)
        expectEqual(r.status, 0, "\(r.stderr)")
        let scenario = try String(contentsOf: dir.appendingPathComponent("r/scenario.json"), encoding: .utf8)
        expect(scenario.contains("\"sendUs\": 80") && scenario.contains("\"delayMs\": 9"))
        try "{\"host.sendUs\": [80]}".write(
            to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let bad = try CLI.run(["run", file, "--overrides", "bad.json"], in: dir)
        // Column 17: the "[" after `{"host.sendUs": `.
        expect(bad.status == 2 && bad.stderr.contains("bad.json:1:17: error: host.sendUs"), "\(bad.stderr)")
    }

    /// Rounds of one cell are averaged per metric (over the rows that measured it); "5" and
    /// "5.0" m are the same cell; cells keep the order they first appear in.
    @Test func roundsOfOneCellAreAveraged() throws {
        let csv = """
            place,protocol,distance_m,packets,size_bytes,rtt_mean_ms,data_rate_mbps
            city,udp,5,100,128,100,
            field,udp,5,100,128,40,2
            city,udp,5.0,100,128,300,8
            """
        let cells = MeasuredCell.group(try MeasuredTable(text: csv, file: "m.csv").rows)
        expectEqual(cells.map(\.label), ["city udp 5 m, 100 × 128 B", "field udp 5 m, 100 × 128 B"])
        expect(cells[0].lines == [2, 4] && cells[0].means[0] == 200 && cells[0].counts[0] == 2)
        expect(cells[0].means[2] == 8 && cells[0].counts[2] == 1 && cells[0].means[1] == nil)
        // The loss weighs a cell's term by its rows: simulated 200 and 8 match the city cell.
        let loss = CalibrationProblem.loss(cells, [[200, nil, 8, nil], [40, nil, 2, nil]])
        expectEqual(loss, 0)
    }

    /// `--out` never replaces a folder or a file that is not an overrides file.
    @Test func outNeverReplacesAFolderOrAForeignFile() throws {
        let dir = try temporaryFolder()
        let file = try CalibrationTests.scenarioFile(dir)
        try "place,protocol,distance_m,packets,size_bytes,rtt_mean_ms\ncity,udp,10,200,500,15\n".write(
            to: dir.appendingPathComponent("m.csv"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("keep"), withIntermediateDirectories: true)
        try "x".write(to: dir.appendingPathComponent("keep/data.txt"), atomically: true, encoding: .utf8)
        let args = ["calibrate", file, "--measured", "m.csv", "--fit", "host.sendUs=0:200", "--max-evals", "3"]
        let folder = try CLI.run(args + ["--out", "keep"], in: dir)
        expect(folder.status == 2 && folder.stderr.contains("is a folder"))
        expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("keep/data.txt").path))
        let underFile = try CLI.run(args + ["--out", "keep/data.txt/o.json"], in: dir)
        expect(underFile.status == 2 && underFile.stderr.contains("is a file, not a folder"), "\(underFile.stderr)")
        expect(!underFile.stderr.contains("NSCocoaErrorDomain"))
        let foreign = try CLI.run(args + ["--out", "cal.json"], in: dir)
        expect(foreign.status == 2 && foreign.stderr.contains("not an overrides file"))
        expectEqual(try String(contentsOfFile: file, encoding: .utf8), CalibrationTests.scenario)
        let ok = try CLI.run(args + ["--out", "o.json"], in: dir)
        let again = try CLI.run(args + ["--out", "o.json"], in: dir)
        expect(ok.status == 0 && again.status == 0, "\(again.stderr)")
        // A stall limit of 0 would stop before the search starts: refused, with the option named.
        let badStall = try CLI.run(args + ["--stall", "0", "--out", "o2.json"], in: dir)
        expect(badStall.status == 2 && badStall.stderr.contains("--stall"), "\(badStall.stderr)")
        expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o2.json").path))
    }
}
