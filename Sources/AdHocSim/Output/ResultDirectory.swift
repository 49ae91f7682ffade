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
public enum ResultDirectory {
    /// Why results could not be written.
    public struct WriteError: Error, CustomStringConvertible {
        /// What went wrong, naming the path.
        public var description: String
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
        do {
            try OutputFolder.checkWritable(target, owner: owner)
        } catch let refusal as OutputFolder.Refusal {
            throw WriteError(description: refusal.description)
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
        do {
            try fm.createDirectory(at: staging, withIntermediateDirectories: false)
            for f in files {
                try (f.bytes.map { Data($0) } ?? Data(f.contents.utf8)).write(
                    to: staging.appendingPathComponent(f.name))
            }
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: target.path, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else {
                    throw WriteError(description: "\(target.path) exists and is not a folder")
                }
                try fm.moveItem(at: target, to: retired)
            }
            try fm.moveItem(at: staging, to: target)
            try? fm.removeItem(at: retired)
        } catch let e as WriteError {
            try? fm.removeItem(at: staging)
            throw e
        } catch {
            try? fm.removeItem(at: staging)
            if fm.fileExists(atPath: retired.path) && !fm.fileExists(atPath: target.path) {
                try? fm.moveItem(at: retired, to: target)
            }
            throw WriteError(description: "\(target.path): cannot write results (\(ErrorText.reason(error)))")
        }
    }
}
