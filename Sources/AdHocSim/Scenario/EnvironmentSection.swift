/// The places the thesis measured in (seed 000, Table 5), plus fully custom parameters.
public enum Place: String, Sendable, CaseIterable {
    case underground, city, field, forest, custom
}

/// A value that a preset supplies unless the file sets it, or switches off with `null`.
public enum PresetOverride<Value: Sendable & Equatable>: Sendable, Equatable {
    /// Not in the file: the preset's default applies.
    case preset
    /// `null` in the file: the effect is off.
    case off
    /// Set in the file.
    case value(Value)
}

/// The `blockage` object: a two-state clear/blocked process per link (radio.md, "Bodies and
/// crowds").
public struct BlockageSpec: Sendable, Equatable {
    /// Blockage events per second per link.
    public var ratePerSecond: Double
    /// Mean time a link stays blocked, seconds.
    public var meanDwellSeconds: Double
    /// Extra loss while blocked, dB.
    public var penaltyDb: Double
}

/// The `environment` section: a place preset and the values the file overrides.
/// The radio layer resolves the preset's cited defaults; here only the user's input lives.
public struct EnvironmentSpec: Sendable, Equatable {
    /// The place preset.
    public var place: Place
    /// Path-loss exponent n (`environment.pathLossExponent`).
    public var pathLossExponent: Double?
    /// Loss at the 1 m reference distance, dB (`environment.referenceLossDb`).
    public var referenceLossDb: Double?
    /// Log-normal shadowing σ, dB (`environment.shadowingSigmaDb`).
    public var shadowingSigmaDb: Double?
    /// Receiver noise figure, dB (`environment.noiseFigureDb`).
    public var noiseFigureDb: Double?
    /// Interference rise over thermal noise, dB (`environment.interferenceDb`).
    public var interferenceDb: Double?
    /// Rician K factor (linear; 0 = Rayleigh); `null` = no fast fading.
    public var fadingK: PresetOverride<Double>
    /// People blocking the path; `null` = none.
    public var blockage: PresetOverride<BlockageSpec>
    /// Whether the two-ray breakpoint applies (`environment.twoRayBreakpoint`).
    public var twoRayBreakpoint: Bool?
    /// Foliage loss model name (`environment.foliageModel`: "weissberger", "itu-p833"; null = none).
    public var foliage: PresetOverride<String>
    /// The vegetated fraction of every path, 0...1 (`environment.vegetatedFraction`).
    public var vegetatedFraction: Double?
    /// Shadowing correlation distance, m (`environment.shadowingCorrelationM`).
    public var shadowingCorrelationM: Double?

    /// A preset with nothing overridden.
    public init(place: Place) {
        self.place = place
        fadingK = .preset
        blockage = .preset
        foliage = .preset
    }

    /// The foliage models `environment.foliageModel` accepts.
    public static let foliageModels = ["weissberger", "itu-p833"]
}

/// Validation bounds for environment values. They reject nonsense, not unusual places:
/// Rappaport (Table 4.2) and Matolak et al. (street-level NLoS up to 7.3) bound the exponent
/// well inside 1...8; radio.md's σ of 2...12 dB fits under 20. The bounds themselves are
/// assumptions.
enum EnvironmentBounds {
    static let pathLossExponent: ClosedRange<Double> = 1...8
    static let referenceLossDb: ClosedRange<Double> = 0...120
    static let shadowingSigmaDb: ClosedRange<Double> = 0...20
    static let noiseFigureDb: ClosedRange<Double> = 0...30
    static let interferenceDb: ClosedRange<Double> = 0...60
    static let fadingK: ClosedRange<Double> = 0...1000
    static let blockageRate: ClosedRange<Double> = 0...100
    static let blockageDwell: ClosedRange<Double> = 0.001...3600
    static let blockagePenaltyDb: ClosedRange<Double> = 0...60
    static let vegetatedFraction: ClosedRange<Double> = 0...1
    static let shadowingCorrelationM: ClosedRange<Double> = 0.1...10_000
}

extension ScenarioDecoder {
    /// Decodes the `environment` object.
    func decodeEnvironment(_ node: JSONNode, _ path: JSONPath) -> EnvironmentSpec? {
        guard
            let r = ObjectReader(
                node, path: path, sink: sink, expected: "an object describing the place (\"preset\" and overrides)")
        else {
            return nil
        }
        defer { r.finish() }
        var ok = true
        var spec = EnvironmentSpec(place: .field)
        if let p = r.required("preset", "one of \(Place.allCases.map(\.rawValue).joined(separator: ", "))") {
            if let name = values.choice(
                p, path.appending("preset"), "a place preset", from: Place.allCases.map(\.rawValue))
            {
                spec.place = Place(rawValue: name)!
            } else {
                ok = false
            }
        } else {
            ok = false
        }

        func number(_ key: String, _ what: String, _ range: ClosedRange<Double>) -> Double? {
            guard let v = r.value(key) else { return nil }
            let value = values.number(
                v, path.appending(key),
                "\(what) in \(JSONNumber(range.lowerBound).literal)...\(JSONNumber(range.upperBound).literal)",
                in: range)
            if value == nil { ok = false }
            return value
        }
        spec.pathLossExponent = number("pathLossExponent", "a path-loss exponent", EnvironmentBounds.pathLossExponent)
        spec.referenceLossDb = number("referenceLossDb", "a loss at 1 m in dB", EnvironmentBounds.referenceLossDb)
        spec.shadowingSigmaDb = number(
            "shadowingSigmaDb", "a shadowing standard deviation in dB", EnvironmentBounds.shadowingSigmaDb)
        spec.noiseFigureDb = number("noiseFigureDb", "a noise figure in dB", EnvironmentBounds.noiseFigureDb)
        spec.interferenceDb = number("interferenceDb", "an interference rise in dB", EnvironmentBounds.interferenceDb)

        if let k = r.value("fadingK") {
            if k.value == .null {
                spec.fadingK = .off
            } else if let v = values.number(
                k, path.appending("fadingK"),
                "a Rician K factor (linear, 0 = Rayleigh) in 0...1000, or null for no fast fading",
                in: EnvironmentBounds.fadingK)
            {
                spec.fadingK = .value(v)
            } else {
                ok = false
            }
        }
        if let t = r.value("twoRayBreakpoint") {
            if let v = values.bool(t, path.appending("twoRayBreakpoint"), "true or false") {
                spec.twoRayBreakpoint = v
            } else {
                ok = false
            }
        }
        if let f = r.value("foliageModel") {
            if f.value == .null {
                spec.foliage = .off
            } else if let name = values.choice(
                f, path.appending("foliageModel"), "a foliage model", from: EnvironmentSpec.foliageModels)
            {
                spec.foliage = .value(name)
            } else {
                ok = false
            }
        }
        spec.vegetatedFraction = number(
            "vegetatedFraction", "the vegetated fraction of the path", EnvironmentBounds.vegetatedFraction)
        spec.shadowingCorrelationM = number(
            "shadowingCorrelationM", "a shadowing correlation distance in metres",
            EnvironmentBounds.shadowingCorrelationM)
        if let b = r.value("blockage") {
            if b.value == .null {
                spec.blockage = .off
            } else if let blockage = decodeBlockage(b, path.appending("blockage")) {
                spec.blockage = .value(blockage)
            } else {
                ok = false
            }
        }
        if spec.place == .custom {
            let missing = [
                ("pathLossExponent", spec.pathLossExponent), ("referenceLossDb", spec.referenceLossDb),
                ("shadowingSigmaDb", spec.shadowingSigmaDb), ("noiseFigureDb", spec.noiseFigureDb),
                ("interferenceDb", spec.interferenceDb)
            ].filter { $0.1 == nil }.map(\.0)
            if !missing.isEmpty && ok {
                sink.report(
                    "a \"custom\" place has no preset defaults; missing "
                        + missing.map { "\"\($0)\"" }.joined(separator: ", "),
                    path: path, at: node.origin)
                ok = false
            }
        }
        return ok ? spec : nil
    }

    private func decodeBlockage(_ node: JSONNode, _ path: JSONPath) -> BlockageSpec? {
        guard
            let r = ObjectReader(
                node, path: path, sink: sink, expected: "an object {\"ratePerS\", \"dwellS\", \"penaltyDb\"} or null")
        else {
            return nil
        }
        defer { r.finish() }
        let rate = r.required("ratePerS", "blockage events per second").flatMap {
            values.number(
                $0, path.appending("ratePerS"), "blockage events per second in 0...100",
                in: EnvironmentBounds.blockageRate)
        }
        let dwell = r.required("dwellS", "mean blocked time in seconds").flatMap {
            values.number(
                $0, path.appending("dwellS"), "a mean blocked time in seconds in 0.001...3600",
                in: EnvironmentBounds.blockageDwell)
        }
        let penalty = r.required("penaltyDb", "extra loss while blocked, dB").flatMap {
            values.number(
                $0, path.appending("penaltyDb"), "a blockage penalty in dB in 0...60",
                in: EnvironmentBounds.blockagePenaltyDb)
        }
        guard let rate, let dwell, let penalty else { return nil }
        return BlockageSpec(ratePerSecond: rate, meanDwellSeconds: dwell, penaltyDb: penalty)
    }
}
