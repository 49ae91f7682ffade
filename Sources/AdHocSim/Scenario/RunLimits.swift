// The `limits` section: what stops a run that would otherwise not end in reasonable time.

/// Run guards.
public struct RunLimits: Sendable, Equatable {
    /// The most handler calls a run may make before it is stopped (`limits.maxEvents`).
    /// Default 10^10: about ten minutes of a saturated core on the development machine
    /// (assumption, chosen so that no sensible scenario meets it).
    public var maxEvents: UInt64 = 10_000_000_000
}

/// The `limits` section's keys, each declared once; the table is in
/// `docs/models/core.md`.
enum RunLimitParameters {
    static let section = ParameterSection<RunLimits>(
        "limits",
        [
            Parameter(
                "maxEvents", .integer(1...1_000_000_000_000_000, unit: "events", set: { $0.maxEvents = UInt64($1) }),
                default: "\(RunLimits().maxEvents)", help: "the most handler calls a run may make before it is stopped",
                expected: "an event budget, a whole number in {range}",
                source: .assumption("about ten minutes of a saturated core, so no sensible scenario meets it"))
        ])
}

extension ScenarioDecoder {
    /// Decodes the `limits` object by its declarations.
    func decodeLimits(_ node: JSONNode, _ path: JSONPath) -> RunLimits? {
        decode(RunLimitParameters.section, node, path, into: RunLimits(), perNode: false)
    }
}
