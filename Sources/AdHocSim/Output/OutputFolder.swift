import Foundation

/// The `--out` rule: AdHocSim writes only into a folder that is missing, empty, or one it
/// wrote before, and refuses anything else before it touches a file.
///
/// A folder AdHocSim wrote before is recognised by its `metadata.json` whose top-level `"tool"`
/// is `"adhocsim"` (every run, sweep and merge writes one). A chart folder (`plots/`) holds
/// no metadata; it is recognised by holding nothing but `index.html` and `.svg` files.
public enum OutputFolder {
    /// How a folder that already exists is recognised as one of ours.
    public enum Owner: Sendable {
        /// A run, sweep or merge folder: `metadata.json` with `"tool": "adhocsim"`.
        case resultFolder
        /// A `plots/` folder: only `index.html` and `*.svg`.
        case chartFolder
    }

    /// Why a folder may not be written.
    public struct Refusal: Error, CustomStringConvertible {
        /// What is wrong and what to do instead, naming the path.
        public var description: String
    }

    /// The largest `metadata.json` read to recognise a folder: 1 MiB (assumption: ours are a
    /// few kilobytes; the bound keeps a huge foreign file from being read).
    static let metadataByteLimit = 1 << 20

    /// Throws `Refusal` unless `directory` is missing, an empty folder, or a folder `owner`
    /// recognises. Reads, never writes.
    public static func checkWritable(_ directory: URL, owner: Owner) throws {
        let fm = FileManager.default
        let path = directory.path
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else {
            throw Refusal(
                description: "\(path) exists and is not a folder; refusing to replace it (choose a new or empty folder)"
            )
        }
        let entries: [String]
        do {
            entries = try fm.contentsOfDirectory(atPath: path)
        } catch {
            throw Refusal(description: "\(path): cannot list the folder (\(ErrorText.reason(error)))")
        }
        if entries.isEmpty { return }
        switch owner {
        case .resultFolder:
            if isResultFolder(directory) { return }
            throw Refusal(
                description: "\(path) is not empty and holds no adhocsim metadata.json (\(entries.count) entr"
                    + "\(entries.count == 1 ? "y" : "ies")); refusing to write there, since its files would be lost. "
                    + "Choose a new or empty folder, or an earlier adhocsim result folder.")
        case .chartFolder:
            if entries.allSatisfy({ $0 == "index.html" || ($0.hasSuffix(".svg") && !$0.hasPrefix(".")) }) { return }
            throw Refusal(
                description: "\(path) holds files other than adhocsim charts; refusing to replace it. "
                    + "Move them away and plot again.")
        }
    }

    /// Throws `Refusal` when any of `names` inside `directory` is a symbolic link (checked with
    /// `lstat`, never following it): adhocsim never writes through a link inside a result
    /// folder, since emptying `cells/` through a link would empty the link's target (issue #27,
    /// class 1). A missing name is fine.
    public static func refuseLinks(in directory: URL, names: [String]) throws {
        for name in names {
            let path = directory.appendingPathComponent(name).path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeSymbolicLink
            else { continue }
            throw Refusal(
                description: "\(path) is a symbolic link; adhocsim never writes through a link inside a result folder "
                    + "(it could change or empty what the link points to). Replace it with a folder or file, or "
                    + "choose another --out.")
        }
    }

    /// Whether `directory` holds a `metadata.json` written by adhocsim.
    public static func isResultFolder(_ directory: URL) -> Bool {
        let url = directory.appendingPathComponent("metadata.json")
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return false }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: metadataByteLimit + 1), data.count <= metadataByteLimit else {
            return false
        }
        let bytes = Array(data)
        let sink = DiagnosticSink(file: url.path, lineMap: LineMap(bytes))
        var parser = JSONParser(bytes: bytes, sink: sink)
        guard let root = parser.parseDocument(), case .string(let tool)? = root["tool"]?.value else { return false }
        return tool == "adhocsim"
    }
}

/// Short, single-line reasons for file-system errors, instead of Foundation's
/// `Error Domain=… UserInfo={…}` dumps.
public enum ErrorText {
    /// The most specific human-readable reason `error` carries.
    public static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        switch ns.code {
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "no such file or folder"
        case NSFileWriteNoPermissionError, NSFileReadNoPermissionError: return "permission denied"
        case NSFileWriteOutOfSpaceError: return "no space left on the device"
        case NSFileWriteFileExistsError: return "a file of that name exists"
        case NSFileWriteVolumeReadOnlyError: return "the volume is read-only"
        default: return ns.localizedDescription.split(separator: "\n").first.map(String.init) ?? "unknown error"
        }
    }
}
