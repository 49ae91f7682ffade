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

    /// The destination of the symbolic link at `url` (read with `lstat`, never followed), or
    /// `nil` when `url` is not a link or does not exist.
    public static func linkDestination(_ url: URL) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            attributes[.type] as? FileAttributeType == .typeSymbolicLink
        else { return nil }
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) ?? "?"
    }

    /// Throws `Refusal` when any of `names` inside `directory` is a symbolic link (checked with
    /// `lstat`, never following it): adhocsim never writes through a link inside a result
    /// folder, since emptying `cells/` through a link would empty the link's target. A missing name is fine.
    public static func refuseLinks(in directory: URL, names: [String]) throws {
        for name in names {
            let path = directory.appendingPathComponent(name).path
            guard linkDestination(URL(fileURLWithPath: path)) != nil else { continue }
            throw Refusal(
                description: "\(path) is a symbolic link; adhocsim never writes through a link inside a result folder "
                    + "(it could change or empty what the link points to). Replace it with a folder or file, or "
                    + "choose another --out.")
        }
    }

    /// The largest file read back from a result folder: 1 GiB (assumption: a cells.csv of the
    /// 10⁶-unit matrix limit is a few hundred megabytes).
    public static let readByteLimit = 1 << 30

    /// The bytes of the regular file at `url`, at most `limit` of them; `nil` when it is
    /// missing, a link, a FIFO, a socket or a device, or larger. Every file adhocsim reads back
    /// from a result folder goes through here, so a FIFO put in place of `metadata.json` or
    /// `timeline.jsonl` is refused instead of blocking forever (found by
    /// adhocfuzz's result-folder cases).
    public static func readRegularFile(_ url: URL, limit: Int = readByteLimit) -> Data? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        guard let data = try? handle.read(upToCount: limit + 1), data.count <= limit else { return nil }
        return data
    }

    /// `readText`'s reason for a file that does not exist.
    public static let missingMessage = "no such file"

    /// The text of the regular UTF-8 file at `url` (as `readRegularFile` reads it), or the
    /// reason it cannot be read, in words a user can act on: missing, not a regular file, larger
    /// than `limit`, or not UTF-8.
    public static func readText(_ url: URL, limit: Int = readByteLimit) -> Result<String, ScenarioFile.Failure> {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard let attributes else { return .failure(ScenarioFile.Failure(message: missingMessage)) }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            return .failure(ScenarioFile.Failure(message: "is not a regular file (a folder, link, FIFO or device)"))
        }
        if let size = (attributes[.size] as? NSNumber)?.intValue, size > limit {
            return .failure(
                ScenarioFile.Failure(message: "is larger than \(ByteText.size(limit)), the most adhocsim reads"))
        }
        guard let data = readRegularFile(url, limit: limit) else {
            return .failure(
                ScenarioFile.Failure(message: "cannot be read, or grew past \(ByteText.size(limit)) while read"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(ScenarioFile.Failure(message: "is not UTF-8 text"))
        }
        return .success(text)
    }

    /// The text of the regular UTF-8 file at `url` (see `readRegularFile`).
    public static func readRegularText(_ url: URL, limit: Int = readByteLimit) -> String? {
        readRegularFile(url, limit: limit).flatMap { String(data: $0, encoding: .utf8) }
    }

    /// Whether `directory` holds a `metadata.json` written by adhocsim.
    public static func isResultFolder(_ directory: URL) -> Bool {
        let url = directory.appendingPathComponent("metadata.json")
        guard let data = readRegularFile(url, limit: metadataByteLimit) else { return false }
        let bytes = Array(data)
        let sink = DiagnosticSink(file: url.path, lineMap: LineMap(bytes))
        var parser = JSONParser(bytes: bytes, sink: sink)
        guard let root = parser.parseDocument(), case .string(let tool)? = root["tool"]?.value else { return false }
        return tool == "adhocsim"
    }
}

/// A result folder held by one writer: an exclusive `flock` on its hidden `.adhocsim-lock`
/// for as long as this value lives (two sweeps into one `--out` at once
/// interleaved their files and one died with a raw Foundation error). The lock goes with the
/// process, so a killed writer never leaves the folder locked.
public final class FolderLock {
    private var fd: Int32

    /// Locks `directory` (which must exist), or throws `OutputFolder.Refusal` naming it when
    /// another process holds it.
    public init(_ directory: URL) throws {
        let path = directory.appendingPathComponent(".adhocsim-lock").path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            throw OutputFolder.Refusal(
                description: "\(directory.path): cannot open its lock file (\(String(cString: strerror(errno))))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw OutputFolder.Refusal(
                description: "\(directory.path): another adhocsim is writing into this folder now; wait for it to "
                    + "finish or choose another --out")
        }
    }

    /// Lets the folder go (closing the lock file drops the lock); a second call does nothing.
    public func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    deinit { release() }
}

/// Short, single-line reasons for file-system errors, instead of Foundation's
/// `Error Domain=… UserInfo={…}` dumps.
public enum ErrorText {
    /// The most specific human-readable reason `error` carries.
    public static func describe(_ error: Error) -> String {
        let ns = error as NSError
        return ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain ? reason(error) : "\(error)"
    }

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
