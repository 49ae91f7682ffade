// The suite's checks as plain functions, not Swift Testing's `#expect` and `#require` macros
//: each macro expansion cost about 18 ms of a debug build, and the suite's
// 1 670 of them were a third of the test build. A failed check records an issue at the
// caller's line, as the macros do; `expectEqual` says both values.
import Testing

/// The caller's place in its file, from the magic literals (no macro expansion per call).
private func place(_ fileID: String, _ filePath: String, _ line: Int, _ column: Int) -> SourceLocation {
    SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Records an issue when `condition` is false.
func expect(
    _ condition: Bool, _ comment: Comment? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) {
    guard !condition else { return }
    Issue.record(comment ?? "Expectation failed", sourceLocation: place(fileID, filePath, line, column))
}

/// Records an issue when `actual` is not `expected`, saying both.
func expectEqual<T: Equatable>(
    _ actual: T, _ expected: T, _ comment: Comment? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) {
    guard actual != expected else { return }
    let what = "\(actual) is not \(expected)" + (comment.map { ": \($0.rawValue)" } ?? "")
    Issue.record(Comment(rawValue: what), sourceLocation: place(fileID, filePath, line, column))
}

/// A `require` that failed: the test stops (its issue is recorded where it failed).
struct RequirementFailed: Error, CustomStringConvertible {
    var description: String { "a requirement failed (its issue says where)" }
}

/// `value`, or an issue and a thrown `RequirementFailed` when it is `nil`.
func require<T>(
    _ value: T?, _ comment: Comment? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) throws -> T {
    guard let value else {
        Issue.record(comment ?? "Required value was nil", sourceLocation: place(fileID, filePath, line, column))
        throw RequirementFailed()
    }
    return value
}

/// An issue and a thrown `RequirementFailed` when `condition` is false.
func require(
    _ condition: Bool, _ comment: Comment? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) throws {
    guard condition else {
        Issue.record(comment ?? "Requirement failed", sourceLocation: place(fileID, filePath, line, column))
        throw RequirementFailed()
    }
}
