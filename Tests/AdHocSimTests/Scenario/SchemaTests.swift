import Foundation
import Testing
@testable import AdHocSim

/// The scenario format's JSON Schema (`adhocsim schema`, `topologies/scenario.schema.json`) and
/// the decoder agree: the same keys in every object, and the schema's bad inputs are the
/// decoder's too. (That the schema accepts every shipped topology and rejects those bad inputs
/// is checked with Python's jsonschema in CI, `.ci/schema-check.py`.)
struct SchemaTests {
    static let root = Repository.root

    static var shippedTopologies: [URL] {
        let base = root.appendingPathComponent("topologies")
        let all = FileManager.default.enumerator(atPath: base.path)!.compactMap { $0 as? String }
        return all.filter { $0.hasSuffix(".json") && !$0.hasSuffix("scenario.schema.json") }.sorted()
            .map { base.appendingPathComponent($0) }
    }

    /// Objects no shipped topology has, so that every object of the format is read at least once.
    static let corpus = [
        """
        {"name": "c", "seed": 1, "duration_s": 5,
         "environment": {"preset": "city", "blockage": {"ratePerS": 0.1, "dwellS": 1, "penaltyDb": 10}},
         "mac": {"aggregation": true, "queuePackets": 100}, "limits": {"maxEvents": 1000000},
         "transport": {"quic": {"coalesce": true}},
         "nodes": [{"id": "a", "position": [0, 0, 1.2], "host": {"sendUs": 10}}, {"id": "b", "position": [5, 0, 1.2]}],
         "ble": {"estimator": {"exponent": 2}, "advertisers": [{"node": "a"}], "scanners": [{"node": "b"}]},
         "flows": [{"id": "f", "from": "a", "to": "b", "protocol": "udp", "workload": {"kind": "cbr", "rateMbps": 1, "size": 100}}]}
        """
    ]

    /// Every key the schema lists, by the pattern of its object's path (`JSONPath.pattern`);
    /// `matrix` is a map from JSON paths to value lists, not a fixed set of keys.
    static func schemaKeys() throws -> [String: Set<String>] {
        let schema = try require(
            try JSONSerialization.jsonObject(with: Data(ScenarioSchema.text.utf8)) as? [String: Any])
        var keys: [String: Set<String>] = [:]
        let defs = schema["$defs"] as? [String: Any] ?? [:]
        func walk(_ node: [String: Any], _ pattern: String) {
            // A reference to a shared definition stands for that definition.
            if let ref = node["$ref"] as? String, ref.hasPrefix("#/$defs/"),
                let def = defs[String(ref.dropFirst("#/$defs/".count))] as? [String: Any]
            {
                walk(def, pattern)
            }
            if let properties = node["properties"] as? [String: Any] {
                keys[pattern, default: []].formUnion(properties.keys)
                for (key, child) in properties where !(pattern.isEmpty && key == "matrix") {
                    if let child = child as? [String: Any] { walk(child, pattern.isEmpty ? key : pattern + "." + key) }
                }
            }
            if let items = node["items"] as? [String: Any] { walk(items, pattern + "[]") }
            for branch in (node["anyOf"] as? [[String: Any]]) ?? [] { walk(branch, pattern) }
        }
        walk(schema, "")
        return keys
    }

    @Test func theShippedSchemaIsTheCommandsOutput() throws {
        let shipped = try String(
            contentsOf: Self.root.appendingPathComponent("topologies/scenario.schema.json"), encoding: .utf8)
        expectEqual(shipped, ScenarioSchema.text)
        let dir = try temporaryFolder()
        let printed = try CLI.run(["schema"], in: dir)
        expectEqual(printed.status, 0)
        expectEqual(printed.stdout, ScenarioSchema.text)
    }

    /// The expectation metrics are declared once (`ExpectationMetric`): the schema offers
    /// exactly those, and `check --help` shows every one with its form.
    @Test func theExpectationMetricsAreTheDeclaredOnes() throws {
        let root = try require(
            try JSONSerialization.jsonObject(with: Data(ScenarioSchema.text.utf8)) as? [String: Any])
        let properties = root["properties"] as? [String: Any]
        let items = (properties?["expectations"] as? [String: Any])?["items"] as? [String: Any]
        // One closed branch per form; the metric branches name the metrics in declaration order.
        let branches = (items?["anyOf"] as? [[String: Any]]) ?? []
        let metrics = branches.compactMap { branch -> [String]? in
            let metric = (branch["properties"] as? [String: Any])?["metric"] as? [String: Any]
            return metric?["enum"] as? [String]
        }
        expectEqual(metrics.flatMap { $0 }, ExpectationMetric.allCases.map(\.rawValue))
        expectEqual(branches.count, ExpectationMetric.allCases.count + 3)  // and by_s, at_s, fingerprint
        let help = try CLI.run(["check", "--help"], in: try temporaryFolder())
        for m in ExpectationMetric.allCases { expect(help.stdout.contains(m.form), "\(m.rawValue)") }
        expect(help.stdout.contains("--seed N"))
    }

    /// The decoder asks for every key it knows whenever it reads an object, present or not, so
    /// reading every shipped topology and the corpus lists the format's keys. A key the decoder
    /// takes that the schema lacks, or one the schema lists that the decoder would call unknown,
    /// fails here with its object's path.
    @Test func theSchemaHasExactlyTheDecodersKeys() throws {
        var census: [String: Set<String>] = [:]
        for url in Self.shippedTopologies {
            for (k, v) in ScenarioDecoder.keyCensus(
                bytes: Array(try Data(contentsOf: url)), file: url.lastPathComponent)
            {
                census[k, default: []].formUnion(v)
            }
        }
        for text in Self.corpus {
            for (k, v) in ScenarioDecoder.keyCensus(bytes: Array(text.utf8), file: "corpus") {
                census[k, default: []].formUnion(v)
            }
        }
        let schema = try Self.schemaKeys()
        for pattern in Set(census.keys).union(schema.keys).sorted() {
            let decoder = census[pattern] ?? [], listed = schema[pattern] ?? []
            expect(
                decoder.subtracting(listed).isEmpty,
                "\(pattern): the schema lacks \(decoder.subtracting(listed).sorted())")
            expect(
                listed.subtracting(decoder).isEmpty,
                "\(pattern): the decoder does not take \(listed.subtracting(decoder).sorted())")
        }
        expect(schema.count >= 30)  // the walk reached the nested objects
    }

    /// The top level's parts read each of its keys once: the keys they name are the schema's
    /// top-level properties, none named twice.
    @Test func theTopLevelPartsNameEachTopLevelKeyOnce() throws {
        let named = TopLevel.parts.flatMap(\.keys)
        expectEqual(named.count, Set(named).count)
        let schema = try Self.schemaKeys()
        expectEqual(Set(named), schema[""] ?? [])
    }

    /// Every structural bad input the schema must reject is one the decoder rejects too.
    @Test func theSchemasBadInputsAreTheDecoders() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("Tests/SchemaCases/bad-inputs.json"))
        let cases = try require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        expect(cases.count >= 20)
        for c in cases {
            let text = String(decoding: try JSONSerialization.data(withJSONObject: c["scenario"]!), as: UTF8.self)
            expect(!diagnostics(text).isEmpty, "the decoder accepts: \(c["why"] as? String ?? "")")
        }
    }

    /// "$schema" guides editors only: it changes neither the effective input nor its hash.
    @Test func theSchemaAddressIsNoInput() throws {
        let plain =
            #"{"name": "t", "seed": 1, "duration_s": 5, "environment": {"preset": "field"}, "nodes": [{"id": "a", "position": [0, 0, 1]}]}"#
        let marked = plain.replacingOccurrences(of: #"{"name""#, with: #"{"$schema": "scenario.schema.json", "name""#)
        let a = try decode(plain).get(), b = try decode(marked).get()
        expectEqual(a.inputHash, b.inputHash)
        expectEqual(JSONText.render(a.effectiveInput), JSONText.render(b.effectiveInput))
        expectEqual(
            diagnostics(
                #"{"$schema": 3, "name": "t", "seed": 1, "duration_s": 5, "environment": {"preset": "field"}, "nodes": [{"id": "a", "position": [0, 0, 1]}]}"#
            ).map(\.path), ["$schema"])
    }
}

/// A key declared once gives the decoder's check, the schema's entry and the docs'
/// table; the committed table and schema are what the declarations generate now.
@Suite("Parameter declarations")
struct ParameterDeclarationTests {
    static let root = Repository.root

    /// Every declared section's model page, docs/models/PAGE.md, holds exactly `adhocsim schema
    /// --table SECTION` between its markers.
    @Test(arguments: DeclaredSection.all.map { ($0.name, $0.page, $0.markdownTable) })
    func theModelPagesHoldTheGeneratedTables(_ name: String, _ pageName: String, _ table: String) throws {
        let page = try String(
            contentsOf: Self.root.appendingPathComponent("docs/models/\(pageName).md"), encoding: .utf8)
        let start = "<!-- generated: adhocsim schema --table \(name) -->\n"
        guard let a = page.range(of: start),
            let b = page.range(of: "<!-- end generated -->", range: a.upperBound..<page.endIndex)
        else {
            Issue.record("docs/models/\(pageName).md lacks the generated-table markers for \(name)")
            return
        }
        expectEqual(
            String(page[a.upperBound..<b.lowerBound]), table,
            "docs/models/\(pageName).md is stale: run scripts/refresh-model-tables.py")
    }

    /// The transport's nested objects: a QUIC certificate of 0 bytes is valid for the decoder
    /// and now for the schema too (it said minimum 1); a TCP keepalive of null turns it off.
    @Test func theTransportDeclarationsDecodeAsBefore() throws {
        var t = TestScenario(name: "s", seed: 1, duration: 1, radio: nil)
        t.place("a", 0, 0)
        t.place("b", 5, 0)
        let base = t.text
        let s = try decode(
            base,
            overrides: [
                "transport.quic.certificateBytes=0", "transport.tcp.keepaliveIdleS=null",
                "transport.tcp.sendBufferBytes=4096",
                "transport.tcp.delayedAckMs=40"
            ]
        ).get()
        // Each key sets the endpoints' own setting, in their units; the send buffer both TCP's and QUIC's.
        expect(s.transport.quic.certificateBytes == 0 && s.transport.tcp.keepaliveIdle == nil)
        expect(s.transport.tcp.sendBuffer == 4096 && s.transport.quic.sendBuffer == 4096)
        expectEqual(s.transport.tcp.delayedAck, .milliseconds(40))
        expectEqual(try decode(base).get().transport, TransportSpec())
        let bad = diagnostics(base, overrides: ["transport.tcp.delayedAckMs=501"])
        expectEqual(bad.first?.path, "transport.tcp.delayedAckMs")
        expect(bad.first?.message.contains("a delayed-ACK timer in ms in 0...500 (RFC 1122 limit)") == true)
        let keep = diagnostics(base, overrides: ["transport.tcp.keepaliveIdleS=0"])
        expect(keep.first?.message.contains("a keepalive idle time in seconds, > 0 and ≤ 7200, or null") == true)
    }

    /// The schema's host objects say what the decoder checks: every declared number's range,
    /// the choices; the per-node object lacks the scenario-wide key.
    @Test func theSchemaCarriesTheDeclaredRanges() throws {
        let bytes = Array(ScenarioSchema.text.utf8)
        let sink = DiagnosticSink(file: "schema", lineMap: LineMap(bytes))
        var parser = JSONParser(bytes: bytes, sink: sink)
        let parsed = parser.parseDocument()
        let root = try require(parsed)
        let found = root["properties"]?["host"]?["properties"]
        let host = try require(found)
        guard case .number(let max)? = host["warmUpMs"]?["maximum"]?.value else {
            Issue.record("host.warmUpMs has no maximum")
            return
        }
        expectEqual(max.value, 60_000)
        guard case .number(let sendMax)? = host["sendUs"]?["maximum"]?.value else {
            Issue.record("host.sendUs has no maximum")
            return
        }
        expectEqual(sendMax.value, 1_000_000)
        expect(host["interfaceQueue"]?["enum"] != nil)
        guard case .array(let nodes)? = root["properties"]?["nodes"]?["anyOf"]?.value else {
            Issue.record("nodes.anyOf missing")
            return
        }
        let perNodeFound = nodes.first?["items"]?["properties"]?["host"]?["properties"]
        let perNode = try require(perNodeFound)
        expect(perNode["interfaceQueue"] == nil && perNode["sendUs"] != nil)
    }

    /// The decoder checks a declared key against its declaration: a value out of the declared
    /// range is refused at its path with the declared phrase and range; per node, the
    /// scenario-wide key is unknown.
    @Test func theDecoderChecksTheDeclarations() {
        var t = TestScenario(name: "s", seed: 1, duration: 1, radio: nil)
        t.place("a", 0, 0)
        t.place("b", 5, 0)
        let base = t.text
        let d = diagnostics(base, overrides: ["host.warmUpMs=70000"])
        expectEqual(d.first?.path, "host.warmUpMs")
        expect(d.first?.message.contains("a warm-up time constant in milliseconds, 0.001...60000") == true)
        expect(diagnostics(base, overrides: ["host.warmUpMs=60000"]).isEmpty)
        expectEqual(
            diagnostics(base, overrides: ["nodes[0].host.interfaceQueue=blocking"]).first?.path,
            "nodes[0].host.interfaceQueue")
        // The model runs with the declared defaults, in its own units (23.3 µs, 38 ms, 2 s, 8 MiB).
        let q = ConnectionQueue(HostSpec(), stream: RandomStream(seed: 1, name: "test"))
        expectEqual(q.sendCost, .nanoseconds(23_300))
        expectEqual(q.warmUpSeconds, 0.038)
        expectEqual(q.coolDownSeconds, 2.0)
        expectEqual(q.udpReceiveBuffer, 8 * 1_048_576)
        expectEqual(q.udpReceiveDatagrams, 3_200)
        expectEqual(q.udpSendBuffer, 5_000_000)
        expectEqual(q.spread, 0.61)
        expectEqual(q.coldFactor, 15)
    }
}
