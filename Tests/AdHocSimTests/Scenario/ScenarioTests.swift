import Testing
@testable import AdHocSim

let validScenario = """
    {
      "name": "two-phones",
      "seed": 42,
      "duration_s": 60,
      "environment": { "preset": "city" },
      "nodes": [
        { "id": "A", "position": [0, 0, 1.2] },
        { "id": "B", "position": [10, 0, 1.2] }
      ],
      "flows": []
    }
    """

/// `validScenario` with one substring replaced (the replacement must happen).
func mutated(_ old: String, _ new: String) -> String {
    precondition(validScenario.contains(old), "fixture does not contain \(old)")
    return validScenario.replacingOccurrences(of: old, with: new)
}

@Suite("Scenario decoding")
struct ScenarioTests {
    @Test func aValidFileDecodes() throws {
        let s = try decode(validScenario).get()
        expectEqual(s.name, "two-phones")
        expectEqual(s.seed, 42)
        expectEqual(s.duration, .seconds(60))
        expectEqual(s.environment.place, .city)
        expectEqual(s.nodes.map(\.id), ["A", "B"])
        expectEqual(s.nodes[1].position, Position(x: 10, y: 0, z: 1.2))
        expectEqual(s.nodes[0].position.distance(to: s.nodes[1].position), 10)
        expect(s.flows.isEmpty)
        expectEqual(s.limits.maxEvents, 10_000_000_000)
    }

    @Test func seedsUpTo2To64Minus1AreExact() throws {
        let s = try decode(mutated("\"seed\": 42", "\"seed\": 18446744073709551615")).get()
        expectEqual(s.seed, UInt64.max)
        let d = diagnostics(mutated("\"seed\": 42", "\"seed\": 18446744073709551616"))
        expect(d.count == 1 && d[0].path == "seed")
        expectEqual(diagnostics(mutated("\"seed\": 42", "\"seed\": 4.5"))[0].path, "seed")
        expectEqual(diagnostics(mutated("\"seed\": 42", "\"seed\": -1"))[0].path, "seed")
    }

    @Test func unknownKeySuggestsTheClosestKnownKey() {
        let d = diagnostics(mutated("{ \"preset\": \"city\" }", "{ \"preset\": \"city\", \"pathlossExponent\": 3 }"))
        expectEqual(d.count, 1)
        expectEqual(d[0].path, "environment.pathlossExponent")
        expectEqual(d[0].message, "unknown key \"pathlossExponent\"; did you mean \"pathLossExponent\"?")
        expectEqual(d[0].line, 5)
        expectEqual(d[0].column, 38)  // 2 spaces + `"environment": { "preset": "city", ` = 37 characters
    }

    @Test func unknownTopLevelKeyWithoutACloseMatchListsTheKnownKeys() {
        let d = diagnostics(mutated("\"flows\": []", "\"flows\": [], \"zzzzzz\": 1"))
        expect(d.count == 1 && d[0].path == "zzzzzz")
        expect(d[0].message.hasPrefix("unknown key \"zzzzzz\"; known keys here: \"$schema\", \"version\", \"name\""))
        // Each known key once, though the decoder looks some up twice.
        expectEqual(d[0].message.components(separatedBy: "\"flows\"").count, 2)
    }

    @Test func duplicateNodeIdsAreAnError() {
        let d = diagnostics(mutated("\"id\": \"B\"", "\"id\": \"A\""))
        expectEqual(d.count, 1)
        expectEqual(d[0].path, "nodes[1].id")
        expectEqual(d[0].message, "duplicate node id \"A\" (also nodes[0])")
        expectEqual(d[0].line, 8)
    }

    @Test func idsAreNamesOfAllowedCharacters() {
        // A space is none of the letters, digits, ".", "_", ":" or "-" an id may hold.
        let d = diagnostics(mutated("\"id\": \"B\"", "\"id\": \"B 2\""))
        expectEqual(d.count, 1)
        expectEqual(d[0].path, "nodes[1].id")
        expectEqual(d[0].message, "expected a node id of 1 to 64 letters, digits, '.', '_', ':' or '-'; found \"B 2\"")
        let long = diagnostics(mutated("\"id\": \"B\"", "\"id\": \"\(String(repeating: "b", count: 65))\""))
        expectEqual(long.count, 1)
        expectEqual(long[0].path, "nodes[1].id")
    }

    @Test func nonFiniteNumbersAreRejected() {
        let big = diagnostics(mutated("[10, 0, 1.2]", "[1e999, 0, 1.2]"))
        expectEqual(big.count, 1)
        expect(big[0].message.contains("1e999 is too large"))
        expectEqual(big[0].line, 8)
        let nan = diagnostics(mutated("\"duration_s\": 60", "\"duration_s\": NaN"))
        expect(nan.count == 1 && nan[0].message.contains("NaN and Infinity are not JSON numbers"))
        expect(nan[0].line == 4 && nan[0].column == 17)
    }

    @Test func negativeAndZeroDurationsAreRejected() {
        for bad in ["-5", "0"] {
            let d = diagnostics(mutated("\"duration_s\": 60", "\"duration_s\": \(bad)"))
            expectEqual(d.count, 1)
            expectEqual(d[0].path, "duration_s")
            expectEqual(d[0].message, "expected a duration in seconds, > 0 and ≤ 1000000, found \(bad) (out of range)")
        }
    }

    @Test func outOfRangeValuesNameTheirRange() {
        let d = diagnostics(mutated("{ \"preset\": \"city\" }", "{ \"preset\": \"city\", \"pathLossExponent\": 12 }"))
        expectEqual(d.count, 1)
        expectEqual(d[0].path, "environment.pathLossExponent")
        expectEqual(d[0].message, "expected a path-loss exponent in 1...8, found 12 (out of range)")
    }

    @Test func wrongShapesSayWhatWasExpectedAndFound() {
        let d = diagnostics(mutated("[10, 0, 1.2]", "[10, 0]"))
        expectEqual(d.count, 1)
        expectEqual(d[0].path, "nodes[1].position")
        expect(d[0].message.hasPrefix("expected [x, y, z]: three finite numbers in metres"))
        expect(d[0].message.hasSuffix("found an array of 2 elements"))
        let s = diagnostics(mutated("\"name\": \"two-phones\"", "\"name\": 5"))
        expectEqual(s[0].message, "expected a name, found the number 5")
    }

    @Test func unknownPresetSuggestsTheNearestPlace() {
        let d = diagnostics(mutated("\"city\"", "\"citty\""))
        expect(d.count == 1 && d[0].path == "environment.preset")
        expect(d[0].message.hasSuffix("found \"citty\"; did you mean \"city\"?"))
    }

    @Test func customPlaceNeedsEveryValue() {
        let d = diagnostics(
            mutated("{ \"preset\": \"city\" }", "{ \"preset\": \"custom\", \"pathLossExponent\": 2.5 }"))
        expect(d.count == 1 && d[0].path == "environment")
        expectEqual(
            d[0].message,
            "a \"custom\" place has no preset defaults; missing \"referenceLossDb\", \"shadowingSigmaDb\", \"noiseFigureDb\", \"interferenceDb\""
        )
    }

    @Test func missingRequiredKeysAreNamed() {
        let d = diagnostics(mutated("\"seed\": 42,\n", ""))
        expect(d.count == 1 && d[0].path == "")
        expectEqual(d[0].message, "missing required key \"seed\" (the run seed, a whole number)")
        expect(d[0].line == 1 && d[0].column == 1)
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        let d = diagnostics(mutated("\"seed\": 42,", "\"seed\": 42,,"))
        expectEqual(d.count, 1)
        expect(d[0].line == 3 && d[0].column == 14)
        expectEqual(d[0].message, "invalid JSON: expected a quoted key, found character ','")
        expectEqual(d[0].description, "test.json:3:14: error: invalid JSON: expected a quoted key, found character ','")
    }

    @Test func duplicateJSONKeysAreReported() {
        let d = diagnostics(mutated("\"seed\": 42,", "\"seed\": 42, \"seed\": 43,"))
        expect(d.count == 1 && d[0].path == "seed")
        expectEqual(d[0].message, "duplicate key \"seed\" (first at line 3)")
    }

    @Test func everyProblemIsReportedAtOnce() {
        let text = """
            {
              "name": "bad",
              "seed": 1.5,
              "duration_s": -1,
              "environment": { "preset": "forrest", "shadowingSigmaDb": -2 },
              "nodes": [ { "id": "A", "position": [0, 0] }, { "id": "B", "positon": [1, 2, 3] } ]
            }
            """
        let d = diagnostics(text)
        expectEqual(
            d.map(\.path),
            [
                "seed", "duration_s", "environment.preset", "environment.shadowingSigmaDb",
                "nodes[0].position", "nodes[1]", "nodes[1].positon"
            ])
        expectEqual(d.last?.message, "unknown key \"positon\"; did you mean \"position\"?")
    }

    @Test func namesThatCouldEscapeTheResultsFolderAreRejected() {
        for bad in ["../evil", "a/b", ".hidden", "", "-x"] {
            let d = diagnostics(mutated("\"name\": \"two-phones\"", "\"name\": \"\(bad)\""))
            expect(d.count == 1 && d[0].path == "name", "name \(bad)")
        }
    }

    @Test func flowsAreCheckedAgainstTheNodes() throws {
        let flow = """
            "flows": [ { "id": "f", "from": "A", "to": "C", "protocol": "quic",
                         "workload": { "kind": "thesis", "packets": 100, "size": 128 } } ]
            """
        let d = diagnostics(mutated("\"flows\": []", flow))
        expect(d.count == 1 && d[0].path == "flows[0].to")
        expectEqual(d[0].message, "no node has the id \"C\"")
        let ok = try decode(mutated("\"flows\": []", flow.replacingOccurrences(of: "\"C\"", with: "\"B\""))).get()
        expectEqual(
            ok.flows,
            [
                FlowSpec(
                    id: "f", from: 0, to: 1, transport: .quic,
                    workload: .thesis(probes: 100, packets: 100, size: 128), start: .zero)
            ])
    }
}

@Suite("--set overrides")
struct OverrideTests {
    @Test func overridesAnExistingScalar() throws {
        let s = try decode(validScenario, overrides: ["nodes[1].position[0]=30", "seed=7", "environment.preset=forest"])
            .get()
        expectEqual(s.nodes[1].position.x, 30)
        expectEqual(s.seed, 7)
        expectEqual(s.environment.place, .forest)
    }

    /// A file parsed once (`ScenarioDocument`, as a sweep and a calibration hold it) decodes
    /// as its bytes do: with overrides, the same effective input and hash, and the overrides'
    /// values; when the file or an override is wrong, the same problems, with their lines and
    /// the override they came from, including problems the parse itself reports (a duplicate
    /// key, text that is not JSON).
    @Test func aParsedDocumentDecodesAsItsBytes() throws {
        let file = "s.json"
        let document = ScenarioDocument(bytes: Array(validScenario.utf8), file: file)
        let overrides = ["seed=7", "environment.preset=forest"]
        let fromBytes = try ScenarioDecoder.decode(bytes: Array(validScenario.utf8), file: file, overrides: overrides)
        let fromDocument = try ScenarioDecoder.decode(document, overrides: overrides)
        expectEqual(fromDocument.canonicalInput, fromBytes.canonicalInput)
        expectEqual(fromDocument.inputHash, fromBytes.inputHash)
        expectEqual(fromDocument.seed, 7)
        expectEqual(fromDocument.environment.place, .forest)
        let wrong: [(String, [String])] = [
            (validScenario, ["seed=-1"]),
            (mutated("\"seed\": 42", "\"seed\": \"x\""), []),
            (mutated("\"seed\": 42", "\"seed\": 42, \"seed\": 43"), []),
            ("{", [])
        ]
        for (text, overrides) in wrong {
            func problems(_ decode: () throws -> Scenario) -> [Diagnostic] {
                do {
                    _ = try decode()
                    return []
                } catch let e as ScenarioError {
                    return e.diagnostics
                } catch {
                    return []
                }
            }
            let bytes = Array(text.utf8)
            let a = problems { try ScenarioDecoder.decode(bytes: bytes, file: file, overrides: overrides) }
            let b = problems {
                try ScenarioDecoder.decode(ScenarioDocument(bytes: bytes, file: file), overrides: overrides)
            }
            expect(!a.isEmpty, "\(text.prefix(20)) \(overrides)")
            expectEqual(b, a)
        }
    }

    @Test func addsAKeyTheFileLeftOut() throws {
        let s = try decode(validScenario, overrides: ["environment.pathLossExponent=3", "limits.maxEvents=1000"]).get()
        expectEqual(s.environment.pathLossExponent, 3)
        expectEqual(s.limits.maxEvents, 1000)
    }

    @Test func overriddenValuesAreValidatedAndNameTheArgument() {
        let d = diagnostics(validScenario, overrides: ["environment.pathLossExponent=abc"])
        expectEqual(d.count, 1)
        expectEqual(d[0].override, "--set environment.pathLossExponent=abc")
        expectEqual(d[0].path, "environment.pathLossExponent")
        expectEqual(d[0].message, "expected a path-loss exponent in 1...8, found a string \"abc\"")
        expectEqual(
            d[0].description,
            "test.json: --set environment.pathLossExponent=abc: error: environment.pathLossExponent: expected a path-loss exponent in 1...8, found a string \"abc\""
        )
    }

    @Test func anUnknownOverrideKeyIsAnUnknownKey() {
        let d = diagnostics(validScenario, overrides: ["environment.pathLossExponant=3"])
        expect(d.count == 1 && d[0].message == "unknown key \"pathLossExponant\"; did you mean \"pathLossExponent\"?")
    }

    @Test func badPathsAndIndexesAreErrors() {
        expectEqual(
            diagnostics(validScenario, overrides: ["nodes[5].position[0]=1"])[0].message,
            "index [5] is out of range (the array has 2 elements)")
        expectEqual(
            diagnostics(validScenario, overrides: ["environment=3"])[0].message,
            "--set replaces single values only; this is an object")
        expectEqual(
            diagnostics(validScenario, overrides: ["seed"])[0].message,
            "expected PATH=VALUE, for example environment.pathLossExponent=3")
        expect(diagnostics(validScenario, overrides: ["a..b=1"])[0].message.hasPrefix("\"a..b\" is not a JSON path"))
    }

    @Test func theInputHashFollowsTheEffectiveInput() throws {
        let a = try decode(validScenario).get()
        let reordered = try decode(
            mutated("\"seed\": 42,\n  \"duration_s\": 60,", "\"duration_s\": 60.0,\n  \"seed\": 42,")
        ).get()
        expectEqual(a.inputHash, reordered.inputHash)
        let changed = try decode(validScenario, overrides: ["seed=43"]).get()
        expect(changed.inputHash != a.inputHash)
        let same = try decode(validScenario, overrides: ["seed=42"]).get()
        expectEqual(same.inputHash, a.inputHash)
    }
}

@Suite("JSON paths")
struct JSONPathTests {
    @Test func parsesAndPrints() {
        expectEqual(JSONPath.parse("nodes[3].position")?.description, "nodes[3].position")
        expectEqual(JSONPath.parse("a.b.c")?.components, [.key("a"), .key("b"), .key("c")])
        expectEqual(JSONPath.parse("m[0][1]")?.components, [.key("m"), .index(0), .index(1)])
        for bad in ["", "a.", ".a", "a[", "a[x]", "a b", "a[1]b"] { expect(JSONPath.parse(bad) == nil, "\(bad)") }
    }
}

@Suite("Rates that would overflow the clock")
struct RateBoundsTests {
    @Test func vanishingRatesAreRefused() {
        let flow = """
            "flows": [ { "id": "f", "from": "A", "to": "B", "protocol": "udp", "workload": { "kind": "cbr", "rateMbps": 1e-300, "size": 1000 } } ]
            """
        let d = diagnostics(mutated("\"flows\": []", flow))
        expect(d.count == 1 && d[0].path == "flows[0].workload.rateMbps")
        let link = diagnostics(validScenario, overrides: ["link.rateMbps=1e-300"])
        expect(
            link.count == 1
                && link[0].message == "expected a rate in Mbit/s in 0.001...100000, found 1e-300 (out of range)")
    }
}
