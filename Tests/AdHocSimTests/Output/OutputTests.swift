import Foundation
import Testing
@testable import AdHocSim

@Suite("Output")
struct OutputTests {
    @Test func fixedPointNumbersAreExactText() {
        expectEqual(NumberText.fixed(0.5, decimals: 3), "0.500")
        expectEqual(NumberText.fixed(-1.25, decimals: 3), "-1.250")
        expectEqual(NumberText.fixed(2, decimals: 0), "2")
        expectEqual(NumberText.fixed(1e-10, decimals: 3), "0.000")
        expectEqual(NumberText.fixed(-0.0001, decimals: 3), "0.000")
        expectEqual(NumberText.fixed(1234.5678, decimals: 2), "1234.57")
        expectEqual(NumberText.fixed(0.001, decimals: 6), "0.001000")
    }

    @Test func csvQuotesOnlyWhatNeedsIt() {
        var t = CSVTable(header: ["a", "b"])
        t.append(["plain", "with,comma"])
        t.append(["say \"hi\"", ""])
        expectEqual(t.text, "a,b\nplain,\"with,comma\"\n\"say \"\"hi\"\"\",\n")
        // A line break inside a field is quoted, CR LF (one Character in Swift) included.
        var u = CSVTable(header: ["x"])
        u.append(["two\r\nlines"])
        u.append(["one\nbreak"])
        expectEqual(u.text, "x\n\"two\r\nlines\"\n\"one\nbreak\"\n")
        expectEqual(CSVTable.records(u.text).rows, [["x"], ["two\r\nlines"], ["one\nbreak"]])
    }

    /// RFC 4180 §2 read by hand: CRLF and LF end records (rule 1), a last record may lack its
    /// break (rule 2), a doubled quote inside quotes is one (rule 7), a lone CR and multi-byte
    /// UTF-8 are text, a trailing comma is an empty last field, and text ending inside quotes
    /// is not closed.
    @Test func csvRecordsFollowRfc4180() {
        let (rows, closed) = CSVTable.records("a,b\r\nc\rd,\"e\"\"f\"\nÄ€😀,\n\"x,\ny\"")
        expectEqual(rows, [["a", "b"], ["c\rd", "e\"f"], ["Ä€😀", ""], ["x,\ny"]])
        expect(closed)
        let open = CSVTable.records("a\n\"b,c")
        expectEqual(open.rows, [["a"], ["b,c"]])
        expect(!open.closed)
        expectEqual(CSVTable.records("").rows, [])
    }

    /// The row-by-row writer (`CSVText`, for tables of millions of rows) writes the same bytes,
    /// the quoting written out by hand here as above.
    /// A text a spreadsheet would run as a formula gets a leading apostrophe (OWASP, "CSV
    /// Injection"); numbers, negative and signed ones included, are written as they are.
    @Test func csvTextThatLooksLikeAFormulaIsWrittenAsText() {
        for (field, written) in [
            ("=1+2", "'=1+2"), ("@SUM(A1:A9)", "'@SUM(A1:A9)"), ("+cmd", "'+cmd"), ("-x", "'-x"), ("\tab", "'\tab"),
            ("=a,b", "\"'=a,b\""), ("-3.5", "-3.5"), ("+1e5", "+1e5"), ("-2.5E-3", "-2.5E-3"), ("-inf", "-inf"),
            ("-", "'-"), ("a=b", "a=b"), ("", "")
        ] {
            expectEqual(CSVTable.field(field), written, "\(field)")
        }
    }

    @Test func csvWrittenRowByRowIsTheSameText() {
        var t = CSVText(header: ["a", "b"])
        t.append(["plain", "with,comma"])
        t.append(["say \"hi\"", ""])
        expectEqual(t.text, "a,b\nplain,\"with,comma\"\n\"say \"\"hi\"\"\",\n")
    }

    /// The files adhocsim wrote (its manifest names them) are replaced whole; b.txt, written
    /// by the first commit only, is gone.
    @Test func commitReplacesItsOwnFilesOfAnEarlierRun() throws {
        let dir = try temporaryFolder()
        let target = dir.appendingPathComponent("run")
        let meta = ResultFile(name: "metadata.json", contents: "{\"tool\": \"adhocsim\"}\n")
        try ResultDirectory.commit(
            [meta, ResultFile(name: "a.txt", contents: "1"), ResultFile(name: "b.txt", contents: "2")], to: target)
        try ResultDirectory.commit([meta, ResultFile(name: "a.txt", contents: "3")], to: target)
        expectEqual(try listing(target), [ResultDirectory.manifestName, "a.txt", "metadata.json"])
        expectEqual(try String(contentsOf: target.appendingPathComponent("a.txt"), encoding: .utf8), "3")
        expectEqual(try listing(dir), ["run"])
        // A folder without adhocsim's metadata.json is not replaced (the --out rule).
        let foreign = dir.appendingPathComponent("foreign")
        try ResultDirectory.commit([ResultFile(name: "a.txt", contents: "1")], to: foreign)
        #expect(throws: ResultDirectory.WriteError.self) {
            try ResultDirectory.commit([ResultFile(name: "a.txt", contents: "2")], to: foreign)
        }
        expectEqual(try String(contentsOf: foreign.appendingPathComponent("a.txt"), encoding: .utf8), "1")
    }

    @Test func commitRefusesNamesThatLeaveTheFolder() throws {
        let dir = try temporaryFolder()
        for bad in ["../x", "a/b", "..", ".hidden", ""] {
            #expect(throws: ResultDirectory.WriteError.self) {
                try ResultDirectory.commit(
                    [ResultFile(name: bad, contents: "x")], to: dir.appendingPathComponent("run"))
            }
        }
        expect(try listing(dir).isEmpty)
    }

    @Test func jsonTextEscapesAndKeepsOrder() {
        let node = JSONNode(
            .object([
                JSONMember(key: "b", value: JSONNode(.string("line\n\"q\"\u{01}"))),
                JSONMember(key: "a", value: JSONNode(.array([JSONNode(.number(JSONNumber(1.5))), JSONNode(.null)])))
            ]))
        expectEqual(JSONText.render(node, pretty: false), "{\"b\":\"line\\n\\\"q\\\"\\u0001\",\"a\":[1.5,null]}")
        expectEqual(
            JSONText.render(node, pretty: false, sortKeys: true), "{\"a\":[1.5,null],\"b\":\"line\\n\\\"q\\\"\\u0001\"}"
        )
    }
}
