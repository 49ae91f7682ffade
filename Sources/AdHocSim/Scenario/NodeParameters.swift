// A node's keys (`nodes[i]` when the nodes are a list), each declared once.

/// A node's keys: the decoder's checks and messages, the schema's node object and the table in
/// `docs/models/core.md` come from here. A node's `host` keys are the host's own, per node
/// (`HostParameters`); its `mobility` is decoded by `MobilitySpec.swift`.
enum NodeParameters {
    /// One node being read.
    struct Item {
        var id: String?
        var position = Position(x: 0, y: 0, z: 0)
        var awdlSlots: UInt16?
        var mobility: MobilitySpec?
        var host: HostSpec?
    }

    static let section = ParameterSection<Item>(
        "nodes[i]",
        [
            Parameter(
                "id",
                .string(.identifier, set: { $0.id = $1 }),
                default: "required",
                help: "the node's name, unique among nodes (it names the node in every result file)",
                expected: "a node id", source: .required, required: "the node's name"),
            Parameter(
                "position",
                .custom(
                    schema: .ref("position"), value: "`[x, y, z]`, metres, each within ±1000000",
                    decode: { values, v, at, _, item in
                        guard let p = ScenarioDecoder(sink: values.sink).decodePosition(v, at) else { return false }
                        item.position = p
                        return true
                    }),
                default: "required", help: "where the phone stands (z: its height above the ground)",
                expected: "a position",
                source: .required, required: "[x, y, z] in metres"),
            Parameter(
                "mobility",
                .custom(
                    schema: .ref("mobility"),
                    value: "`{\"waypoints\": …}` or `{\"model\": \"random-waypoint\", …}`",
                    decode: { values, v, at, _, item in
                        guard let m = ScenarioDecoder(sink: values.sink).decodeMobility(v, at) else { return false }
                        item.mobility = m
                        return true
                    }),
                default: "null (it stands still)",
                help: "how the node moves: timed waypoints, or the random-waypoint model",
                expected: "a mobility", source: .assumption("phones stand where they are put")),
            Parameter(
                "awdlSlots",
                .custom(
                    schema: .ref("awdlSlots"), value: "distinct slot indices 0 … 15",
                    decode: { values, v, at, _, item in
                        guard let mask = values.slots(v, at) else { return false }
                        item.awdlSlots = mask
                        return true
                    }),
                default: "`radio.awdlSlots`", help: "this node's AWDL slots, fixing its presence",
                expected: "an array of AWDL slot indices 0...15", source: .cited("as `radio.awdlSlots`")),
            Parameter(
                "host",
                .custom(
                    schema: HostParameters.section.schema(perNode: true),
                    value: "the `host` keys marked per node",
                    decode: { values, v, at, _, item in
                        guard let h = ScenarioDecoder(sink: values.sink).decodeHost(v, at, perNode: true) else {
                            return false
                        }
                        item.host = h
                        return true
                    }),
                default: "the scenario's `host`",
                help: "this phone's processing costs, where they differ ([host model](host.md))",
                expected: "a host object", source: .cited("as `host`"))
        ], objectExpected: "a node object {\"id\", \"position\": [x, y, z]}")
}
