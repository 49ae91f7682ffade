/// The JSON Schema (draft 2020-12) of the scenario format, version 1: what `adhocsim schema`
/// prints and `topologies/scenario.schema.json` holds, so editors complete and check scenario
/// files. The decoder stays the judge: it also checks what a schema cannot say (node ids that
/// must exist, ranges that depend on other keys, sizes). `SchemaTests` keeps the two in step:
/// the keys every object of the schema lists must be exactly the keys the decoder asks for
/// there (`ScenarioDecoder.keyCensus`), and every shipped topology must validate.
public enum ScenarioSchema {
    /// The schema's text (pretty-printed JSON, ending in a newline): the template below with
    /// every declared section's objects generated into it (`DeclaredSection.all`), so the
    /// schema says what the decoder checks there.
    public static let text: String = {
        let bytes = Array(template.utf8)
        let sink = DiagnosticSink(file: "scenario.schema.json", lineMap: LineMap(bytes))
        var parser = JSONParser(bytes: bytes, sink: sink)
        guard var root = parser.parseDocument() else { return template }
        // The registered layers' sections and definitions, in registration order, where the
        // template holds their markers.
        insert(LayerSpecs.schemaSections, replacing: "@layers", in: "properties", of: &root)
        insert(LayerSpecs.schemaDefinitions, replacing: "@layerDefinitions", in: "$defs", of: &root)
        // Positions, mobility and placements carry the decoder's bounds (arrays a parameter cannot declare).
        replace(&root, at: ["$defs", "position"], with: ScenarioDecoder.positionSchema)
        replace(&root, at: ["$defs", "mobility"], with: MobilitySpec.schema)
        replace(&root, at: ["properties", "nodes", "anyOf", "1"], with: ScenarioDecoder.placementSchema)
        replace(&root, at: ["properties", "matrix"], with: Matrix.schema)
        for section in DeclaredSection.all {
            for (path, object) in section.schemaObjects {
                replace(&root, at: path[...], with: object, keepingUndeclared: true)
            }
        }
        return JSONText.render(root)
    }()

    /// Replaces the member `marker` of the object `container` of `root` with `members`.
    static func insert(_ members: [JSONMember], replacing marker: String, in container: String, of root: inout JSONNode)
    {
        guard case .object(var top) = root.value, let c = top.firstIndex(where: { $0.key == container }),
            case .object(var list) = top[c].value.value, let m = list.firstIndex(where: { $0.key == marker })
        else { preconditionFailure("the schema template has no \(container).\(marker)") }
        list.replaceSubrange(m...m, with: members)
        top[c].value.value = .object(list)
        root.value = .object(top)
    }

    /// The JSON object `text` (a layer's part of the schema); a layer's own text, so it parses.
    static func object(_ text: String) -> JSONNode {
        let bytes = Array(text.utf8)
        var parser = JSONParser(bytes: bytes, sink: DiagnosticSink(file: "layer schema", lineMap: LineMap(bytes)))
        guard let node = parser.parseDocument(), case .object = node.value else {
            preconditionFailure("a layer's schema text is not a JSON object: \(text)")
        }
        return node
    }

    /// Replaces the node at `path` (object keys, or array indices as digits) when it exists;
    /// `keepingUndeclared` keeps the template's properties the new object lacks (a section's
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

    /// The hand-written part of the schema; `text` generates the declared sections into it
    /// (the empty objects of `host`, `nodes[].host` and `transport` below), and puts the
    /// optional layers' sections and definitions (`LayerSection.schemaStub`,
    /// `schemaDefinitions`) where it holds `"@layers"` and `"@layerDefinitions"`: it names no layer.
    static let template = #"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "$id": "https://adhocsim.invalid/scenario.schema.json",
          "title": "AdHocSim scenario (version 1)",
          "description": "Generated by `adhocsim schema`; the decoder stays the judge (it also checks references between keys, ranges that depend on other keys and sizes). SchemaTests keeps its keys equal to the decoder's.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "name",
            "seed",
            "duration_s",
            "environment",
            "nodes"
          ],
          "$defs": {
            "nodeId": {
              "type": "string",
              "description": "the id of one of the scenario's nodes"
            },
            "position": {
              "type": "array",
              "items": {
                "type": "number"
              },
              "minItems": 3,
              "maxItems": 3,
              "description": "[x, y, z] in metres"
            },
            "awdlSlots": {
              "type": "array",
              "items": {
                "type": "integer",
                "minimum": 0,
                "maximum": 15
              },
              "description": "AWDL slots (0…15)"
            },
            "mobility": {
              "type": "object",
              "properties": {
                "waypoints": {
                  "type": "array",
                  "items": {
                    "type": "array",
                    "items": {
                      "type": "number"
                    },
                    "minItems": 4,
                    "maxItems": 4
                  },
                  "minItems": 1,
                  "description": "[[t, x, y, z], ...]"
                },
                "model": {
                  "enum": [
                    "random-waypoint"
                  ]
                },
                "speedMps": {
                  "type": "array",
                  "items": {
                    "type": "number",
                    "minimum": 0
                  },
                  "minItems": 2,
                  "maxItems": 2
                },
                "pauseS": {
                  "type": "array",
                  "items": {
                    "type": "number",
                    "minimum": 0
                  },
                  "minItems": 2,
                  "maxItems": 2
                },
                "area": {
                  "type": "array",
                  "items": {
                    "type": "array",
                    "items": {
                      "type": "number"
                    },
                    "minItems": 2,
                    "maxItems": 2
                  },
                  "minItems": 2,
                  "maxItems": 2
                }
              },
              "additionalProperties": false,
              "description": "waypoints, or the random-waypoint model"
            },
            "@layerDefinitions": {}
          },
          "properties": {
            "$schema": {},
            "version": {},
            "name": {},
            "seed": {},
            "duration_s": {},
            "environment": {},
            "radio": {},
            "link": {},
            "mac": {},
            "host": {},
            "nodes": {
              "anyOf": [
                {
                  "type": "array",
                  "items": {},
                  "minItems": 1
                },
                {
                  "type": "object",
                  "properties": {
                    "count": {
                      "type": "integer",
                      "minimum": 1,
                      "maximum": 20000
                    },
                    "density_per_km2": {
                      "type": "number",
                      "exclusiveMinimum": 0
                    },
                    "area_m": {
                      "type": "array",
                      "items": {
                        "type": "number",
                        "exclusiveMinimum": 0
                      },
                      "minItems": 2,
                      "maxItems": 2
                    },
                    "z_m": {
                      "type": "number"
                    }
                  },
                  "additionalProperties": false,
                  "required": [
                    "count"
                  ],
                  "description": "phones placed uniformly at random"
                }
              ]
            },
            "distance_m": {},
            "flows": {
              "type": "array",
              "items": {}
            },
            "traffic": {
              "type": "array",
              "items": {}
            },
            "transport": {},
            "@layers": {},
            "expectations": {
              "type": "array",
              "items": {}
            },
            "events": {
              "type": "array",
              "items": {}
            },
            "limits": {},
            "matrix": {}
          }
        }
        """#
}
