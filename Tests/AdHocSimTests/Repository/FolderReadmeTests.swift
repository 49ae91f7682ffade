import Foundation
import Testing

/// Each source folder's README lists exactly the folder's files (what
/// `scripts/refresh-folder-readmes.py` writes), so the map of the code stays true.
@Suite("Folder READMEs")
struct FolderReadmeTests {
    static let sources = Repository.root.appendingPathComponent("Sources/AdHocSim")

    @Test func everyFolderListsExactlyItsFiles() throws {
        let fm = FileManager.default
        let folders = try fm.contentsOfDirectory(atPath: Self.sources.path).sorted()
            .filter { !$0.hasSuffix(".md") }
        expect(folders.count >= 15)
        for folder in folders {
            let dir = Self.sources.appendingPathComponent(folder)
            let readme = try String(contentsOf: dir.appendingPathComponent("README.md"), encoding: .utf8)
            let files = Set(try fm.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".swift") })
            let listed = Set(
                readme.split(separator: "\n").compactMap { line -> String? in
                    guard line.hasPrefix("- `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
                    let name = String(line[line.index(line.startIndex, offsetBy: 3)..<end])
                    return name.hasSuffix(".swift") ? name : nil
                })
            expectEqual(
                files, listed,
                "\(folder)/README.md: unlisted \(files.subtracting(listed).sorted()), gone \(listed.subtracting(files).sorted()); run scripts/refresh-folder-readmes.py"
            )
        }
    }
}
