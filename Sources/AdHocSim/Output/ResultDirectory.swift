import Foundation

/// One file of a result set: a plain name (no folders) and its bytes.
public struct ResultFile: Sendable {
    /// The file name inside the result folder.
    public var name: String
    /// The contents.
    public var contents: String
    /// Binary contents (pcap); used instead of `contents` when set.
    public var bytes: [UInt8]?

    /// A text result file.
    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }

    /// A binary result file.
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        contents = ""
        self.bytes = bytes
    }
}

/// Writes a run's files into its folder atomically: all of them or none.
///
/// The files are written into a hidden staging folder beside the target
/// (`.<name>.partial-<pid>`), then the staging folder replaces the target by rename. A run that
/// is killed halfway leaves at most a hidden staging folder, never a half-written result.
///
/// Never deleting what adhocsim did not write: a result folder records the
/// names it wrote in a hidden manifest (`.adhocsim-files`). When an earlier result folder is
/// replaced, every entry of it that the manifest does not name (a notebook, a `figures/` folder
/// a user added) is moved into the staging folder first, so it is still there afterwards; a
/// folder written before manifests existed keeps every entry the new results do not replace.
public enum ResultDirectory {
    /// Why results could not be written.
    public struct WriteError: Error, CustomStringConvertible {
        /// What went wrong, naming the path.
        public var description: String
    }

    /// The hidden manifest of the names adhocsim wrote into a result folder.
    public static let manifestName = ".adhocsim-files"

    /// The entries of the existing folder `target` that adhocsim did not write and `names` does
    /// not replace (see the type's comment).
    static func foreignEntries(of target: URL, replacing names: Set<String>) -> [String] {
        let fm = FileManager.default
        guard let entries = try? fm.contentsOfDirectory(atPath: target.path) else { return [] }
        let manifest = OutputFolder.readRegularText(target.appendingPathComponent(manifestName))
            .map { Set($0.split(separator: "\n").map(String.init)) }
        return entries.sorted().filter { e in
            e != manifestName && !names.contains(e) && !(manifest?.contains(e) ?? false)
        }
    }

    /// Whether `name` is a plain file name that stays inside its folder.
    public static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\\")
            && !name.contains("\0") && !name.hasPrefix(".")
    }

    /// Replaces the folder at `directory` with exactly `files`.
    ///
    /// Only a folder that is missing, empty or recognised by `owner` is replaced
    /// (`OutputFolder`); anything else is refused before a file is touched.
    public static func commit(
        _ files: [ResultFile], to directory: URL, owner: OutputFolder.Owner = .resultFolder
    ) throws {
        let fm = FileManager.default
        for f in files where !isPlainFileName(f.name) {
            throw WriteError(
                description:
                    "refusing to write \"\(f.name)\": result files must be plain names inside \(directory.path)")
        }
        let target = directory.standardizedFileURL
        let parent = target.deletingLastPathComponent()
        let base = target.lastPathComponent
        guard isPlainFileName(base) else {
            throw WriteError(description: "\(target.path): not a usable output folder name")
        }
        // A link in place of the folder is refused, never followed: replacing the folder renames
        // it aside, which would move the link's target's own files (checked with `lstat`).
        if let destination = OutputFolder.linkDestination(target) {
            throw WriteError(
                description:
                    "\(Diagnostic.escaped(target.path)) is a symbolic link (to \(Diagnostic.escaped(destination))); "
                    + "adhocsim replaces a result folder by renaming it, which would move what the link points to. "
                    + "Give the real folder as --out, or remove the link.")
        }
        do {
            try OutputFolder.checkWritable(target, owner: owner)
        } catch let refusal as OutputFolder.Refusal {
            throw WriteError(description: refusal.description)
        }
        // An earlier folder is replaced by renaming it aside and removing it: both need write
        // access to it. Refused before anything moves, so a read-only earlier result stays as it
        // was and no hidden `.<name>.old-<pid>` is left behind.
        var isFolder: ObjCBool = false
        if fm.fileExists(atPath: target.path, isDirectory: &isFolder), isFolder.boolValue,
            access(target.path, W_OK | X_OK) != 0
        {
            throw WriteError(
                description: "\(target.path): the earlier result folder is read-only; adhocsim cannot replace it. "
                    + "Make it writable or choose another --out.")
        }
        do {
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw WriteError(
                description: "\(parent.path): cannot create the output folder (\(ErrorText.reason(error)))")
        }
        let pid = ProcessInfo.processInfo.processIdentifier
        let staging = parent.appendingPathComponent(".\(base).partial-\(pid)")
        let retired = parent.appendingPathComponent(".\(base).old-\(pid)")
        try? fm.removeItem(at: staging)
        try? fm.removeItem(at: retired)
        // Entries of the user's carried over into the staging folder (moved back on failure).
        var carried: [String] = []
        func restoreCarried() {
            guard fm.fileExists(atPath: target.path) else { return }
            carried = carried.filter { e in
                (try? fm.moveItem(at: staging.appendingPathComponent(e), to: target.appendingPathComponent(e))) == nil
            }
        }
        /// The staging folder goes unless it still holds an entry of the user's.
        func dropStaging() { if carried.isEmpty { try? fm.removeItem(at: staging) } }
        do {
            try fm.createDirectory(at: staging, withIntermediateDirectories: false)
            for f in files {
                try (f.bytes.map { Data($0) } ?? Data(f.contents.utf8)).write(
                    to: staging.appendingPathComponent(f.name))
            }
            if owner == .resultFolder {
                try (files.map(\.name).joined(separator: "\n") + "\n").write(
                    to: staging.appendingPathComponent(manifestName), atomically: false, encoding: .utf8)
            }
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: target.path, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else {
                    throw WriteError(description: "\(target.path) exists and is not a folder")
                }
                if owner == .resultFolder {
                    for e in foreignEntries(of: target, replacing: Set(files.map(\.name))) {
                        try fm.moveItem(at: target.appendingPathComponent(e), to: staging.appendingPathComponent(e))
                        carried.append(e)
                    }
                }
                try fm.moveItem(at: target, to: retired)
            }
            try fm.moveItem(at: staging, to: target)
            try? fm.removeItem(at: retired)
        } catch let e as WriteError {
            restoreCarried()
            dropStaging()
            throw e
        } catch {
            // The earlier folder back first, then the user's entries into it, then the staging
            // folder away: a failed write loses nothing.
            if fm.fileExists(atPath: retired.path) && !fm.fileExists(atPath: target.path) {
                try? fm.moveItem(at: retired, to: target)
            }
            restoreCarried()
            dropStaging()
            throw WriteError(description: "\(target.path): cannot write results (\(ErrorText.reason(error)))")
        }
    }
}
