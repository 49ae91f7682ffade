/// The top level's own keys (`$schema`, `version`, `name`, `seed`, `duration_s`), each declared
/// once; the sections after them are read by their layers. The table is in
/// `docs/models/core.md`.
enum ScenarioParameters {
    /// What the top level's own keys hold.
    struct Item {
        var name: String?
        var seed: UInt64?
        var duration: Double?
    }

    /// What `distance_m` holds.
    struct DistanceItem {
        var distance: DistanceSpec?
    }

    /// `distance_m`, read after the nodes, flows and traffic (its rule needs the nodes: it
    /// places the second of exactly two, checked right after in `decodeRoot`).
    static let distance = ParameterSection<DistanceItem>(
        "",
        [
            Parameter(
                "distance_m",
                .custom(
                    schema: .anyOf([.number.exclusiveMinimum(0).maximum(100000), .const("max")]),
                    value: "> 0 … 100000 m, or `\"max\"`",
                    decode: { values, v, at, what, item in
                        if case .string("max") = v.value {
                            item.distance = .max
                            return true
                        }
                        guard case .number = v.value else {
                            values.sink.report("expected \(what), found \(v.value.summary)", path: at, at: v.origin)
                            return false
                        }
                        guard let m = values.positive(v, at, what, above: 0, upTo: 100_000) else { return false }
                        item.distance = .metres(m)
                        return true
                    }),
                default: "none (the file's positions)",
                help:
                    "moves the second of two nodes this far from the first along x; `\"max\"`: to the place's maximum range (`adhocsim range`)",
                expected: "a distance in metres, > 0 and ≤ 100000, or \"max\"",
                source: .assumption("the thesis's matrices vary the distance between two phones"))
        ])

    static let section = ParameterSection<Item>(
        "",
        [
            Parameter(
                "$schema",
                .string(.any, set: { _, _ in }),
                default: "none",
                help: "the file's JSON Schema, for editors; not input (it changes neither the run nor its hash)",
                expected: "a schema address", source: .cited("JSON Schema 2020-12, `$schema`")),
            Parameter(
                "version", .integer(1...1, unit: "", set: { _, _ in }), default: "1",
                help: "the scenario format's version",
                expected: "a scenario format version (this build reads version 1)",
                source: .cited("this build's format")),
            Parameter(
                "name",
                .custom(
                    schema: .string.pattern("^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$"),
                    value: "1 to 100 letters, digits, `.`, `_`, `-`, not starting with `.` or `-`",
                    decode: { values, v, at, _, item in
                        guard let s = ScenarioDecoder(sink: values.sink).decodeName(v, at) else { return false }
                        item.name = s
                        return true
                    }),
                default: "required", help: "the scenario's name; it names the results folder", expected: "a name",
                source: .required, required: "the scenario's name"),
            Parameter(
                "seed",
                .custom(
                    schema: .integer.minimum(0).maximum(exactly: 18446744073709551615),
                    value: "0 … 2^64 − 1",
                    decode: { values, v, at, what, item in
                        guard let s = values.integer(v, at, what, in: 0...UInt64.max) else { return false }
                        item.seed = s
                        return true
                    }),
                default: "required", help: "the root of every random stream",
                expected: "a seed, a whole number in 0...18446744073709551615",
                source: .required, required: "the run seed, a whole number"),
            Parameter(
                "duration_s",
                .duration(
                    upTo: ScenarioBounds.maxDurationSeconds, unit: "s", scale: 1, allowZero: false, nullable: false,
                    set: { $0.duration = $1 }),
                default: "required", help: "simulated seconds", expected: "a duration in seconds, {range}",
                source: .required,
                required: "simulated seconds")
        ])
}
