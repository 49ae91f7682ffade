import Testing
@testable import AdHocSim

/// `JSONSchema` writes each keyword as JSON Schema 2020-12 spells it, in the order written, with
/// numbers as exact literals; the expected texts are written out by hand from the keywords.
struct JSONSchemaTests {
    /// The compact text of `schema`.
    func text(_ schema: JSONSchema) -> String { JSONText.render(schema.node, pretty: false) }

    @Test func formsSpellTheirKeywords() {
        #expect(text(.string) == #"{"type":"string"}"#)
        #expect(text(.anything) == "{}")
        #expect(text(.ref("nodeId")) == ##"{"$ref":"#/$defs/nodeId"}"##)
        #expect(text(.oneOf(words: ["a", "b"])) == #"{"enum":["a","b"]}"#)
        #expect(text(.oneOf(numbers: [37, 39])) == #"{"enum":[37,39]}"#)
        #expect(text(.const("auto")) == #"{"const":"auto"}"#)
        #expect(text(.types(["string", "null"])) == #"{"type":["string","null"]}"#)
        #expect(text(.anyOf([.null, .boolean])) == #"{"anyOf":[{"type":"null"},{"type":"boolean"}]}"#)
    }

    @Test func keywordsFollowInTheOrderWritten() {
        #expect(
            text(.array(of: .integer.minimum(0).maximum(15)).count(2))
                == #"{"type":"array","items":{"type":"integer","minimum":0,"maximum":15},"minItems":2,"maxItems":2}"#)
        // The same keywords in another order print in that order.
        #expect(
            text(JSONSchema.array.minItems(1).uniqueItems().items(.string))
                == #"{"type":"array","minItems":1,"uniqueItems":true,"items":{"type":"string"}}"#)
        #expect(
            text(JSONSchema.object.properties(["b": .number, "a": .string]).closed().required(["b"]))
                == #"{"type":"object","properties":{"b":{"type":"number"},"a":{"type":"string"}},"additionalProperties":false,"required":["b"]}"#
        )
        #expect(
            text(JSONSchema.array.prefixItems([.number, .string]).noMoreItems())
                == #"{"type":"array","prefixItems":[{"type":"number"},{"type":"string"}],"items":false}"#)
    }

    @Test func aDocumentNamesItsDialectBeforeItsType() {
        #expect(
            text(JSONSchema().dialect("d").id("i").title("t").description("x").ofType("object").closed())
                == #"{"$schema":"d","$id":"i","title":"t","description":"x","type":"object","additionalProperties":false}"#
        )
    }

    @Test func numbersAreExactLiterals() {
        // Whole numbers without a fraction, fractions in their shortest form, and 2^64 − 1,
        // which no Double holds, written digit for digit.
        #expect(
            text(.number.exclusiveMinimum(0).exclusiveMaximum(1.048576))
                == #"{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1.048576}"#)
        #expect(
            text(.number.minimum(-1_000_000).multipleOf(0.625))
                == #"{"type":"number","minimum":-1000000,"multipleOf":0.625}"#)
        #expect(
            text(.integer.minimum(exactly: 0).maximum(exactly: UInt64.max))
                == #"{"type":"integer","minimum":0,"maximum":18446744073709551615}"#)
    }

    @Test func aBuiltObjectTakesMoreKeywords() {
        let section = JSONSchema.object.properties(["min": .number]).closed()
        let rebuilt = section.anyOf([.requiring(["min"])]).description("a bound")
        #expect(
            text(rebuilt)
                == #"{"type":"object","properties":{"min":{"type":"number"}},"additionalProperties":false,"anyOf":[{"required":["min"]}],"description":"a bound"}"#
        )
    }
}
