import Foundation
import Testing
@testable import AdHocSim

@Suite("Determinism")
struct DeterminismTests {
    static func files(_ scenario: Scenario) throws -> [String] {
        let report = try ScenarioRunner.run(scenario)
        return RunFiles.files(for: report).map { "\($0.name)\n" + deterministicPart($0.contents) }
    }

    @Test func aScenarioGivesTheSameBytesTwiceAndInParallel() throws {
        let scenario = try decode(validScenario).get()
        let first = try DeterminismTests.files(scenario)
        let second = try DeterminismTests.files(scenario)
        expectEqual(first, second)
        let results = ParallelResults(count: 4)
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            results.set(i, (try? DeterminismTests.files(scenario)) ?? [])
        }
        for r in results.values { expectEqual(r, first) }
    }

    @Test func theRadixQueueExecutesExactlyTheHeapsEventSequence() {
        // The hold model through Simulation (radix heap, dispatch) and as a bare 4-ary heap
        // loop draw the same random numbers only if they execute the same events in the same
        // order; the checksum is the sum of executed event times.
        for population in [1, 10, 1000, 20_000] {
            let bench = CoreBenchmark(population: population, events: 200_000, seed: UInt64(population))
            let sim = bench.runSimulation()
            let heap = bench.runBareHeap(QuaternaryEager.self)
            expectEqual(sim.checksum, heap.checksum, "population \(population)")
            expectEqual(sim.events, 200_000)
        }
    }

    @Test func parallelSimulationsDoNotDisturbEachOther() {
        let bench = CoreBenchmark(population: 500, events: 100_000, seed: 11)
        let reference = bench.runSimulation().checksum
        let results = ParallelResults(count: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            results.set(i, ["\(bench.runSimulation().checksum)"])
        }
        for r in results.values { expectEqual(r, ["\(reference)"]) }
    }
}

/// Thread-safe slots for results computed in parallel.
final class ParallelResults: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [[String]]
    init(count: Int) { storage = Array(repeating: [], count: count) }
    func set(_ i: Int, _ v: [String]) { lock.lock(); storage[i] = v; lock.unlock() }
    var values: [[String]] { lock.lock(); defer { lock.unlock() }; return storage }
}

@Suite("Determinism of full runs")
struct FullRunDeterminismTests {
    /// The result files of the shipped topology `file`, after checking that a second run and
    /// `parallel` concurrent runs give the same bytes.
    func stableFiles(_ file: String, parallel: Int) throws -> [String] {
        let url = Repository.root.appendingPathComponent(file)
        let scenario = try ScenarioDecoder.load(path: url.path)
        let first = try DeterminismTests.files(scenario)
        expectEqual(first, (try DeterminismTests.files(scenario)))
        let results = ParallelResults(count: parallel)
        DispatchQueue.concurrentPerform(iterations: parallel) { i in
            results.set(i, (try? DeterminismTests.files(scenario)) ?? [])
        }
        for r in results.values { expectEqual(r, first) }
        return first
    }

    @Test func theShippedExampleGivesTheSameBytesTwiceAndInParallel() throws {
        let files = try stableFiles("topologies/two-phones.json", parallel: 3)
        // The run did real work: every probe echoed, every byte delivered.
        expect(files.contains { $0.hasPrefix("summary.csv") && $0.contains(",ok,") })
    }

    @Test(ScaleCheck.trait) func theMeshExampleGivesTheSameBytesTwiceAndInParallel() throws {
        let files = try stableFiles("topologies/examples/mesh-chat.json", parallel: 2)
        expect(files.contains { $0.hasPrefix("mesh_messages.csv") })
        expect(files.contains { $0.hasPrefix("mesh_keys.csv") })
    }
}

@Suite("Event fingerprint")
struct FingerprintTests {
    @Test func theFingerprintIsStableAndSensitive() throws {
        var t = TestScenario(name: "fp", seed: 5, environment: ["preset": "city"], radio: ["technology": "wifi"])
        t.place("a", 0, 0)
        t.place("b", 20, 0)
        t["flows"] = [[
            "id": "f", "from": "a", "to": "b", "protocol": "tcp",
            "workload": ["kind": "thesis", "probes": 10, "packets": 50, "size": 1000]
        ]]
        func fingerprint(_ extra: [String]) throws -> String {
            try ScenarioRunner.run(try t.decoded(overrides: extra)).fingerprint
        }
        let a = try fingerprint([])
        expectEqual(a.count, 16)
        expectEqual(try fingerprint([]), a)
        expect(try fingerprint(["seed=6"]) != a)  // other random draws
        expect(try fingerprint(["transport.tcp.noDelay=true"]) != a)  // other behaviour
    }
}
