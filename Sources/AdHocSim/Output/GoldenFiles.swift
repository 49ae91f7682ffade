import Foundation

/// The golden route change logs of `check --update-golden`, written as one set: every file or
/// none.
///
/// Each log is written to a hidden temporary file beside its place first; only when all of them
/// are written are they renamed into place, so a failure (a full disk, a folder where a log
/// should go) leaves every earlier golden as it was.
public enum GoldenFiles {
    /// Why the set could not be written.
    public struct WriteError: Error, CustomStringConvertible {
        /// What went wrong, naming the path.
        public var description: String
    }

    /// The largest golden log read back: 64 MiB (assumption: a 1 000-phone mesh's route
    /// changes over an hour are a few megabytes).
    public static let maxBytes = 64 << 20

    /// Writes each `(path, text)` into `folder` (created when missing), all or none.
    public static func write(_ files: [(path: String, text: String)], into folder: String) throws {
        let fm = FileManager.default
        do {
            try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw WriteError(
                description:
                    "\(Diagnostic.escaped(folder)): cannot create the golden folder (\(ErrorText.reason(error)))")
        }
        for f in files {
            var isFolder: ObjCBool = false
            if OutputFolder.linkDestination(URL(fileURLWithPath: f.path)) == nil,
                fm.fileExists(atPath: f.path, isDirectory: &isFolder), isFolder.boolValue
            {
                throw WriteError(description: "\(Diagnostic.escaped(f.path)) is a folder, not a golden log")
            }
        }
        let pid = ProcessInfo.processInfo.processIdentifier
        var staged: [(temporary: String, path: String)] = []
        func dropStaged() { for s in staged { try? fm.removeItem(atPath: s.temporary) } }
        for (k, f) in files.enumerated() {
            let url = URL(fileURLWithPath: f.path)
            let temporary = url.deletingLastPathComponent().appendingPathComponent(
                ".\(url.lastPathComponent).tmp-\(pid)-\(k)"
            ).path
            do {
                try Data(f.text.utf8).write(to: URL(fileURLWithPath: temporary))
            } catch {
                try? fm.removeItem(atPath: temporary)
                dropStaged()
                throw WriteError(
                    description:
                        "\(Diagnostic.escaped(f.path)): cannot write the golden route change log (\(ErrorText.reason(error)))"
                )
            }
            staged.append((temporary, f.path))
        }
        for s in staged where rename(s.temporary, s.path) != 0 {
            let reason = String(cString: strerror(errno))
            dropStaged()
            throw WriteError(
                description:
                    "\(Diagnostic.escaped(s.path)): cannot put the golden route change log in place (\(reason))")
        }
    }
}
