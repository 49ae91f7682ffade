/// The JSON Schema (draft 2020-12) of the scenario format, version 1: what `adhocsim schema`
/// prints and `topologies/scenario.schema.json` holds, so editors complete and check scenario
/// files. The decoder stays the judge: it also checks what a schema cannot say (node ids that
/// must exist, ranges that depend on other keys, sizes). `SchemaTests` keeps the two in step:
/// the keys every object of the schema lists must be exactly the keys the decoder asks for
/// there (`ScenarioDecoder.keyCensus`), and every shipped topology must validate.
public enum ScenarioSchema {
    /// The schema's text (pretty-printed JSON, ending in a newline): the frame below with every
    /// declared section's objects generated into it (`DeclaredSection.all`), so the schema says
    /// what the decoder checks there.
    public static let text: String = {
        var root = frame.node
        for section in DeclaredSection.all {
            for (path, object) in section.schemaObjects {
                replace(&root, at: path[...], with: object.node, keepingUndeclared: true)
            }
        }
        return JSONText.render(root)
    }()

    /// Replaces the node at `path` (object keys, or array indices as digits) when it exists;
    /// `keepingUndeclared` keeps the frame's properties the new object lacks (a section's
    /// lists written by hand beside its declared settings, such as `mesh.messages`), after the
    /// declared ones.
    static func replace(
        _ node: inout JSONNode, at path: ArraySlice<String>, with new: JSONNode, keepingUndeclared: Bool = false
    ) {
        guard let step = path.first else {
            node = keepingUndeclared ? merged(new, keeping: node) : new
            return
        }
        switch node.value {
        case .object(var members):
            guard let i = members.firstIndex(where: { $0.key == step }) else { return }
            replace(&members[i].value, at: path.dropFirst(), with: new, keepingUndeclared: keepingUndeclared)
            node.value = .object(members)
        case .array(var elements):
            guard let i = Int(step), i < elements.count else { return }
            replace(&elements[i], at: path.dropFirst(), with: new, keepingUndeclared: keepingUndeclared)
            node.value = .array(elements)
        default: return
        }
    }

    /// `new` with the `properties` of `old` that `new` does not declare appended to its own.
    static func merged(_ new: JSONNode, keeping old: JSONNode) -> JSONNode {
        func properties(_ n: JSONNode) -> [JSONMember] {
            guard case .object(let m) = n.value, let p = m.first(where: { $0.key == "properties" }),
                case .object(let list) = p.value.value
            else { return [] }
            return list
        }
        let declared = properties(new)
        let kept = properties(old).filter { o in !declared.contains { $0.key == o.key } }
        guard !kept.isEmpty, case .object(var members) = new.value,
            let i = members.firstIndex(where: { $0.key == "properties" })
        else { return new }
        members[i].value = JSONNode(.object(declared + kept))
        return JSONNode(.object(members))
    }

    /// The part of the schema no declaration states: the top-level object's order of keys, the
    /// shared definitions, and the lists whose items are declared. `text` generates the declared
    /// sections into its empty objects (`host`, `transport`, each flow); the optional layers'
    /// sections and definitions (`LayerSection.schemaStub`, `schemaDefinitions`) come from
    /// `LayerSpecs`, in registration order, so it names no layer. Positions, mobility and
    /// placements carry the decoder's bounds (arrays a parameter cannot declare).
    static var frame: JSONSchema {
        let declared = JSONSchema.anything
        let list = JSONSchema.array(of: .anything)
        func member(_ key: String, _ schema: JSONSchema) -> JSONMember { JSONMember(key: key, value: schema.node) }
        let definitions =
            [
                member("nodeId", .string.description("the id of one of the scenario's nodes")),
                member("position", ScenarioDecoder.positionSchema),
                member("awdlSlots", .array(of: .integer.minimum(0).maximum(15)).description("AWDL slots (0…15)")),
                member("mobility", MobilitySpec.schema)
            ] + LayerSpecs.schemaDefinitions
        let before = ["$schema", "version", "name", "seed", "duration_s", "environment", "radio", "link", "mac", "host"]
        let nodes = JSONSchema.anyOf([list.minItems(1), ScenarioDecoder.placementSchema])
        let properties =
            before.map { member($0, declared) }
            + [
                member("nodes", nodes), member("distance_m", declared), member("flows", list),
                member("traffic", list), member("transport", declared)
            ] + LayerSpecs.schemaSections
            + [
                member("expectations", list), member("events", list), member("limits", declared),
                member("matrix", Matrix.schema)
            ]
        return JSONSchema()
            .dialect("https://json-schema.org/draft/2020-12/schema")
            .id("https://adhocsim.invalid/scenario.schema.json")
            .title("AdHocSim scenario (version 1)")
            .description(
                "Generated by `adhocsim schema`; the decoder stays the judge (it also checks references between keys, ranges that depend on other keys and sizes). SchemaTests keeps its keys equal to the decoder's."
            )
            .ofType("object").closed()
            .required(["name", "seed", "duration_s", "environment", "nodes"])
            .definitions(definitions)
            .properties(members: properties)
    }
}
