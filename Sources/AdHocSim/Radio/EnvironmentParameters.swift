/// The `environment` section's keys, each declared once: the decoder's checks and
/// messages, the schema's `environment` object and the table in `docs/models/radio.md` come
/// from here. Every default but the preset's own comes from the place (`PlaceParameters`,
/// docs/places.md). The bounds reject nonsense, not unusual places: Rappaport (Table 4.2) and
/// Matolak et al. (street-level NLoS up to 7.3) bound the exponent well inside 1...8;
/// radio.md's σ of 2...12 dB fits under 20. The bounds themselves are assumptions.
enum EnvironmentParameters {
    static let perPlace = "per place"
    static let placeSource = Parameter<EnvironmentSpec>.Source.cited(
        "radio.md per place (`PlaceParameters`, docs/places.md)")

    static let section = ParameterSection<EnvironmentSpec>(
        "environment",
        [
            Parameter(
                "preset",
                .choice(
                    Place.allCases.map(\.rawValue), set: { spec, word in spec.place = Place(rawValue: word) ?? .field }),
                default: "required",
                help: "the place: its propagation, noise, fading and blockage (`custom`: all given here)",
                expected: "a place preset", source: .cited("seed 000, Table 5: the places the thesis measured in"),
                required: "one of \(Place.allCases.map(\.rawValue).joined(separator: ", "))"),
            number("pathLossExponent", 1...8, "", "path-loss exponent n beyond 1 m", "a path-loss exponent in {range}")
            {
                $0.pathLossExponent = $1
            },
            number(
                "referenceLossDb", 0...120, "dB",
                "loss at the 1 m reference distance (default: free space at the carrier)",
                "a loss at 1 m in dB in {range}"
            ) {
                $0.referenceLossDb = $1
            },
            number(
                "shadowingSigmaDb", 0...20, "dB", "log-normal shadowing standard deviation",
                "a shadowing standard deviation in dB in {range}"
            ) {
                $0.shadowingSigmaDb = $1
            },
            number("noiseFigureDb", 0...30, "dB", "receiver noise figure", "a noise figure in dB in {range}") {
                $0.noiseFigureDb = $1
            },
            number(
                "interferenceDb", 0...60, "dB", "rise of the noise floor by other radios",
                "an interference rise in dB in {range}"
            ) {
                $0.interferenceDb = $1
            },
            Parameter(
                "fadingK",
                .custom(
                    schema: .anyOf([.number.minimum(0).maximum(1000), .null]),
                    value: "0 … 1000, or `null` (no fast fading)",
                    decode: { values, v, at, what, spec in
                        if v.value == .null { spec.fadingK = .off; return true }
                        guard let k = values.number(v, at, what, in: 0...1000) else { return false }
                        spec.fadingK = .value(k)
                        return true
                    }),
                default: perPlace, help: "Rician K factor, linear (0: Rayleigh)",
                expected: "a Rician K factor (linear, 0 = Rayleigh) in 0...1000, or null for no fast fading",
                source: placeSource),
            Parameter(
                "twoRayBreakpoint", .bool(set: { $0.twoRayBreakpoint = $1 }), default: perPlace,
                help: "beyond the two-ray breakpoint the exponent becomes 4", expected: "true or false",
                source: placeSource),
            Parameter(
                "foliageModel",
                .custom(
                    schema: .anyOf([.oneOf(words: ["weissberger", "itu-p833"]), .null]),
                    value: "`\"weissberger\"`, `\"itu-p833\"`, or `null` (none)",
                    decode: { values, v, at, what, spec in
                        if v.value == .null { spec.foliage = .off; return true }
                        guard let name = values.choice(v, at, what, from: EnvironmentSpec.foliageModels) else {
                            return false
                        }
                        spec.foliage = .value(name)
                        return true
                    }),
                default: perPlace, help: "excess loss through vegetation", expected: "a foliage model",
                source: placeSource),
            number(
                "vegetatedFraction", 0...1, "", "the vegetated fraction of every path",
                "the vegetated fraction of the path in {range}"
            ) {
                $0.vegetatedFraction = $1
            },
            number(
                "shadowingCorrelationM", 0.1...10_000, "m", "shadowing decorrelation distance",
                "a shadowing correlation distance in metres in {range}"
            ) {
                $0.shadowingCorrelationM = $1
            },
            Parameter(
                "blockage",
                .custom(
                    schema: .anyOf([
                        JSONSchema.object.properties([
                            "ratePerS": .number.minimum(0).maximum(100),
                            "dwellS": .number.minimum(0.001).maximum(3600),
                            "penaltyDb": .number.minimum(0).maximum(60)
                        ]).closed().required(["ratePerS", "dwellS", "penaltyDb"]),
                        .null
                    ]),
                    value:
                        "`{\"ratePerS\": 0 … 100, \"dwellS\": 0.001 … 3600 s, \"penaltyDb\": 0 … 60}`, or `null` (none)",
                    decode: { values, v, at, _, spec in
                        if v.value == .null { spec.blockage = .off; return true }
                        guard let b = blockage(values, v, at) else { return false }
                        spec.blockage = .value(b)
                        return true
                    }),
                default: perPlace, help: "people blocking the path: events per second per link, mean dwell, extra loss",
                expected: "an object {\"ratePerS\", \"dwellS\", \"penaltyDb\"} or null",
                source: .cited("radio.md, \"Bodies and crowds\" (`PlaceParameters`)"))
        ], objectExpected: "an object describing the place (\"preset\" and overrides)", description: "the place")

    /// A number key whose default is the place's.
    static func number(
        _ key: String, _ range: ClosedRange<Double>, _ unit: String, _ help: String, _ expected: String,
        _ set: @escaping @Sendable (inout EnvironmentSpec, Double) -> Void
    ) -> Parameter<EnvironmentSpec> {
        Parameter(
            key, .number(range, unit: unit, set: set), default: perPlace, help: help, expected: expected,
            source: placeSource)
    }

    /// A `blockage` object: all three keys required.
    static func blockage(_ values: ValueReader, _ node: JSONNode, _ path: JSONPath) -> BlockageSpec? {
        guard
            let r = ObjectReader(
                node, path: path, sink: values.sink,
                expected: "an object {\"ratePerS\", \"dwellS\", \"penaltyDb\"} or null")
        else {
            return nil
        }
        defer { r.finish() }
        let rate = r.required("ratePerS", "blockage events per second").flatMap {
            values.number($0, path.appending("ratePerS"), "blockage events per second in 0...100", in: 0...100)
        }
        let dwell = r.required("dwellS", "mean blocked time in seconds").flatMap {
            values.number(
                $0, path.appending("dwellS"), "a mean blocked time in seconds in 0.001...3600", in: 0.001...3600)
        }
        let penalty = r.required("penaltyDb", "extra loss while blocked, dB").flatMap {
            values.number($0, path.appending("penaltyDb"), "a blockage penalty in dB in 0...60", in: 0...60)
        }
        guard let rate, let dwell, let penalty else { return nil }
        return BlockageSpec(ratePerSecond: rate, meanDwellSeconds: dwell, penaltyDb: penalty)
    }
}

extension ScenarioDecoder {
    /// Decodes the `environment` object by its declarations; a `custom` place must then give
    /// every value a preset would.
    func decodeEnvironment(_ node: JSONNode, _ path: JSONPath) -> EnvironmentSpec? {
        guard
            let spec = decode(
                EnvironmentParameters.section, node, path, into: EnvironmentSpec(place: .field), perNode: false)
        else { return nil }
        if spec.place == .custom {
            let given: [(String, Double?)] = [
                ("pathLossExponent", spec.pathLossExponent), ("referenceLossDb", spec.referenceLossDb),
                ("shadowingSigmaDb", spec.shadowingSigmaDb), ("noiseFigureDb", spec.noiseFigureDb),
                ("interferenceDb", spec.interferenceDb)
            ]
            let missing = given.filter { $0.1 == nil }.map(\.0)
            if !missing.isEmpty {
                sink.report(
                    "a \"custom\" place has no preset defaults; missing "
                        + missing.map { "\"\($0)\"" }.joined(separator: ", "),
                    path: path, at: node.origin)
                return nil
            }
        }
        return spec
    }
}
