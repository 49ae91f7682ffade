// A scenario file parsed once, for the many decodes of a sweep or a calibration.

/// A scenario file's bytes and their parsed document, for decoding again and again with
/// different overrides (a sweep's cells, a calibration's runs): each decode starts from the
/// parsed document instead of parsing the bytes again (`ScenarioDecoder.decode(_:overrides:)`).
/// A decode from the document gives what a decode from the bytes gives: the same scenario, or
/// the same problems.
public struct ScenarioDocument: Sendable {
    /// The name used in messages.
    public let file: String
    /// The file's bytes.
    public let bytes: [UInt8]
    /// Line and column of each byte offset, for messages.
    let lineMap: LineMap
    /// The parsed document, or `nil` when parsing reported a problem (a decode then reads the
    /// bytes again, so the problem is reported with the decode's own).
    let root: JSONNode?

    /// Parses `bytes`; `file` is the name used in messages.
    public init(bytes: [UInt8], file: String) {
        (self.bytes, self.file) = (bytes, file)
        lineMap = LineMap(bytes)
        let sink = DiagnosticSink(file: file, lineMap: lineMap)
        var parser = JSONParser(bytes: bytes, sink: sink)
        let root = parser.parseDocument()
        self.root = sink.hasErrors ? nil : root
    }
}
