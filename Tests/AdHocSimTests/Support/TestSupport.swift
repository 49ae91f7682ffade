// Shared test support: running the CLI, temporary folders, scenario decoding helpers and the
// idealised link scenario used by the MAC tests. Test files keep only their own tests.
import Foundation
import Testing
@testable import AdHocSim

/// The repository's root: the folder holding Package.swift, found upwards from this file, so a
/// test file's depth under `Tests/` does not matter.
enum Repository {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            let up = url.deletingLastPathComponent()
            precondition(up.path != url.path, "no Package.swift above \(#filePath)")
            url = up
        }
        return url
    }()
}

/// Runs the built `adhocsim` binary as a subprocess.
struct CLI {
    static let binary: URL = {
        let fm = FileManager.default
        // Beside the test bundle (swift test on Linux), else in the package's debug build.
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("adhocsim")
        if fm.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return Repository.root.appendingPathComponent(".build/debug/adhocsim")
    }()

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ args: [String], in directory: URL) throws -> Outcome {
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        p.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Both pipes are drained at once (a child filling one while we block on the other would
        // deadlock), with reads that survive signals.
        final class Box: @unchecked Sendable { var data = Data() }
        let e = Box()
        let group = DispatchGroup()
        let errHandle = err.fileHandleForReading
        DispatchQueue.global().async(group: group) { e.data = readToEnd(errHandle) }
        let o = readToEnd(out.fileHandleForReading)
        group.wait()
        p.waitUntilExit()
        return Outcome(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e.data, as: UTF8.self))
    }
}

/// Reads a pipe to its end with read(2), retrying a read that a signal interrupted (EINTR).
/// Foundation's `readDataToEndOfFile` traps on EINTR, which the SIGCHLD of another test's
/// finished child process can cause when tests run in parallel.
func readToEnd(_ handle: FileHandle) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    let fd = handle.fileDescriptor
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n > 0 {
            data.append(contentsOf: buffer[0..<n])
        } else if n < 0 && errno == EINTR {
            continue
        } else {
            return data
        }
    }
}

/// The folders the tests made (`temporaryFolder`), removed when the test process exits: a run of
/// the suite used to leave some hundred behind in the system's temporary folder.
final class TemporaryFolders: @unchecked Sendable {
    static let shared = TemporaryFolders()
    private let lock = NSLock()
    private var paths: [String] = []

    private init() {
        atexit { TemporaryFolders.shared.removeAll() }
    }

    func add(_ url: URL) {
        lock.lock()
        paths.append(url.path)
        lock.unlock()
    }

    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        for p in paths { try? FileManager.default.removeItem(atPath: p) }
        paths = []
    }
}

/// A fresh temporary folder holding `files`, removed when the tests end.
func temporaryFolder(_ files: [String: String] = [:]) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("adhocsim-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    TemporaryFolders.shared.add(dir)
    for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
    return dir
}

func listing(_ dir: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
}

/// The file's lines without the one wall-clock field.
func deterministicPart(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("\"wall_time_s\"") }.joined(
        separator: "\n")
}

/// Decodes `text`, returning the scenario or the diagnostics.
func decode(_ text: String, overrides: [String] = []) -> Result<Scenario, ScenarioError> {
    do {
        return .success(try ScenarioDecoder.decode(bytes: Array(text.utf8), file: "test.json", overrides: overrides))
    } catch let e as ScenarioError {
        return .failure(e)
    } catch {
        Issue.record("unexpected error \(error)")
        return .failure(ScenarioError(diagnostics: []))
    }
}

func diagnostics(_ text: String, overrides: [String] = []) -> [Diagnostic] {
    switch decode(text, overrides: overrides) {
    case .success: return []
    case .failure(let e): return e.diagnostics
    }
}

/// A scenario on an idealised channel: free-space loss (n = 2, 47.6 dB at 1 m), no shadowing,
/// fading or blockage; `nodes` at 1.2 m, `radio`, link `traffic`, and `extra` top-level keys.
func linkScenario(
    nodes: [(String, Double, Double)], radio: JSON, traffic: JSON = [], duration: Double = 10, extra: JSON = [:]
) throws -> Scenario {
    var t = TestScenario(
        duration: duration,
        environment: [
            "preset": "custom", "pathLossExponent": 2, "referenceLossDb": 47.6, "shadowingSigmaDb": 0,
            "noiseFigureDb": 7, "interferenceDb": 0
        ],
        radio: radio)
    if case .object(let pairs) = extra { for p in pairs { t[p.key] = p.value } }
    for n in nodes { t.place(n.0, n.1, n.2) }
    t["traffic"] = traffic
    return try t.decoded()
}

/// Whether `a` and `b` differ by at most `tolerance`.
func close(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool { abs(a - b) <= tolerance }

/// End-to-end runs of large scenarios (thousands of seeds, long bulk transfers, whole mesh
/// examples): checked in CI against the release build (`ADHOCSIM_SCALE_CHECKS=1 swift test -c
/// release`, `.ci/run`), skipped by the quick `swift test` (unit tests stay fast;
/// the same assertions run where the optimiser makes them cheap).
enum ScaleCheck {
    static let enabled = ProcessInfo.processInfo.environment["ADHOCSIM_SCALE_CHECKS"] == "1"
    /// The trait: runs only when `ADHOCSIM_SCALE_CHECKS=1`.
    static var trait: ConditionTrait {
        .enabled(if: enabled, "a scale check: ADHOCSIM_SCALE_CHECKS=1 swift test -c release (run by .ci/run)")
    }
}
