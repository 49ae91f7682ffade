import Foundation

/// Real per-test results in the layout of `../shared/reference/field-data/dev-tests.csv`
/// (MatthiasBart/evaluation_notebook: one row per test file of the executed study; the folder's
/// README defines every column). `MeasuredTable` reads this layout as it is, so a user can hand
/// `adhocsim calibrate` and `adhocsim compare` the published tests, or their own in the same
/// layout, without converting them.
///
/// What a row becomes:
/// - `side=client`: one probe test: `rtt_mean_ms` and the app's sample SD `rtt_sd_sample_ms`.
///   The probe phase comes before the transfer and does not depend on it, so the row is
///   simulated with the scenario's own packet count and size (`packets`, `size_bytes` = 0).
/// - `side=server`: one transfer of `N` writes of `S` bytes: `rate_mbps`, and `loss_pct` for
///   UDP only (TCP and QUIC deliver everything; the simulator's loss for them is the link's).
/// - `failed=1`: skipped (the app recorded no figures).
/// - Places: `Field` → `field`, `Forest` → `forest`, `Inner City`/`City` → `city`,
///   `Underground` → `underground`; a place with no preset (the pilot's `Home`) is skipped.
/// Every skip is reported (`MeasuredTable.notes`), never silent.
enum FieldTestTable {
    /// The columns that mark the layout.
    static let signature = ["side", "protocol", "place", "distance_m", "source_file"]
    /// Columns it needs.
    static let required = [
        "side", "protocol", "place", "distance_m", "N", "S", "rtt_mean_ms", "rtt_sd_sample_ms", "rate_mbps",
        "loss_pct", "failed"
    ]

    /// Whether `header` is this layout.
    static func matches(_ header: [String]) -> Bool { signature.allSatisfy(header.contains) }

    /// The place preset of a place label, if it has one.
    static func place(_ label: String) -> Place? {
        switch label.lowercased() {
        case "field", "free field", "open field": return .field
        case "forest": return .forest
        case "inner city", "city": return .city
        case "underground": return .underground
        default: return nil
        }
    }

    /// The rows of `records` (header first), and a note per kind of row skipped.
    static func rows(_ records: [[String]], file: String) throws -> (rows: [MeasuredRow], notes: [String]) {
        let header = records[0].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        func fail(_ line: Int, _ message: String) -> CalibrationError {
            CalibrationError(description: "\(file):\(line): error: \(message)")
        }
        var index: [String: Int] = [:]
        for (c, name) in header.enumerated() {
            // A column named twice would be read from its first place only: refused, as the
            // per-cell layout refuses it.
            if let first = index[name] {
                throw fail(
                    1, "column \(c + 1) \"\(Diagnostic.excerpt(name))\" repeats column \(first + 1); each column once")
            }
            index[name] = c
        }
        for name in required where index[name] == nil {
            throw fail(1, "missing column \"\(name)\" of the per-test layout (field-data/README.md)")
        }
        var rows: [MeasuredRow] = []
        var failed = 0
        var noPreset: [String: Int] = [:]
        var noPresetOrder: [String] = []
        for (r, record) in records.enumerated().dropFirst() {
            let line = r + 1
            if record.count == 1 && record[0].isEmpty { continue }
            guard record.count == header.count else {
                throw fail(line, "\(record.count) fields for \(header.count) columns")
            }
            func field(_ name: String) -> String {
                index[name].map { record[$0].trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
            }
            func bad(_ name: String, _ expected: String) -> CalibrationError {
                fail(line, "column \(name): expected \(expected), found \"\(Diagnostic.excerpt(field(name)))\"")
            }
            func number(_ name: String, upTo upper: Double = .greatestFiniteMagnitude) throws -> Double? {
                let text = field(name)
                if text.isEmpty { return nil }
                guard let v = DecimalText.parse(text), MeasuredTable.plausible(v, loss: upper == 100) else {
                    throw bad(name, upper == 100 ? "a percentage in 0...100" : MeasuredTable.magnitudes)
                }
                return v
            }
            if field("failed") == "1" {
                failed += 1
                continue
            }
            guard let transport = TransportProtocol(rawValue: field("protocol").lowercased()) else {
                throw bad("protocol", "TCP, UDP or QUIC")
            }
            guard let place = FieldTestTable.place(field("place")) else {
                let label = field("place")
                if noPreset[label] == nil { noPresetOrder.append(label) }
                noPreset[label, default: 0] += 1
                continue
            }
            guard let d = DecimalText.parse(field("distance_m")), d > 0 else {
                throw bad("distance_m", "a distance in metres > 0")
            }
            var values = [Double?](repeating: nil, count: CalibrationMetric.allCases.count)
            func set(_ metric: CalibrationMetric, _ v: Double?) {
                if let k = CalibrationMetric.allCases.firstIndex(of: metric) { values[k] = v }
            }
            var packets = 0, size = 0
            switch field("side") {
            case "client":
                set(.rttMean, try number("rtt_mean_ms"))
                set(.rttSdSample, try number("rtt_sd_sample_ms"))
            case "server":
                guard let n = Int(field("N")), n >= 1 else { throw bad("N", "a whole number ≥ 1") }
                guard let s = Int(field("S")), s >= 1 else { throw bad("S", "a whole number ≥ 1") }
                packets = n
                size = s
                set(.dataRate, try number("rate_mbps"))
                if transport == .udp { set(.loss, try number("loss_pct", upTo: 100)) }
            default:
                throw bad("side", "client or server")
            }
            guard values.contains(where: { $0 != nil }) else { continue }
            rows.append(
                MeasuredRow(
                    line: line, place: place, transport: transport, distance: JSONNumber(d).literal,
                    packets: packets, size: size, values: values))
        }
        var notes: [String] = []
        if failed > 0 { notes.append("\(failed) failed test\(failed == 1 ? "" : "s") skipped (failed=1: no figures)") }
        for label in noPresetOrder {
            // The label is the table's text: escaped (controls, bidi) and bounded before it is shown.
            let count = noPreset[label, default: 0]
            notes.append(
                "\(count) test\(count == 1 ? "" : "s") of place \"\(Diagnostic.excerpt(label, limit: 80))\" skipped (no place preset)"
            )
        }
        return (rows, notes)
    }
}
