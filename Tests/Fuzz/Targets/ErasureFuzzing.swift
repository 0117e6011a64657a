import FaultlineLogReading
import FaultlineRecords
import FaultlineTriage
import Foundation

/// What `faultline forget` reads from anyone's logs: a log file, plain or gzip, whose selected lines are blanked, and a
/// user's identity found in an event line however its JSON is escaped. The input's first byte chooses the file's form
/// (bit 0: gzip; bit 1: the bytes are the gzip file as they are, not compressed first); the rest is the file's
/// content, and is also read as one event line.
enum ErasureFuzzing {
    /// Where the files are written: one directory per process, whose two files each input overwrites, removed with
    /// them when the process exits (a directory made for each input would cost nine inputs in ten). It is in memory
    /// where the system has a tmpfs at `/dev/shm`: the rewrite's two `fsync`s per input on a disk made the target
    /// four times slower.
    private static let directory: URL = {
        let memory = "/dev/shm"
        let base =
            access(memory, W_OK) == 0
            ? URL(fileURLWithPath: memory, isDirectory: true) : FileManager.default.temporaryDirectory
        let url = base.appendingPathComponent("faultline-fuzz-erasure-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ErasureFuzzing.directory) }
        return url
    }()

    static func run(_ data: Data) throws(Disagreement) {
        guard let form = data.first else { return }
        let content = Data(data.dropFirst())
        try checkBlanking(content, isCompressed: form & 1 == 1, isRawGzip: form & 2 == 2)
        try checkIdentities(content)
    }

    /// Blanking the lines whose first byte is odd leaves every other byte as it was, each of those lines as spaces of
    /// its length, and a last line without a newline untouched; a gzip file that cannot be read whole is refused and
    /// left as it was.
    private static func checkBlanking(_ content: Data, isCompressed: Bool, isRawGzip: Bool) throws(Disagreement) {
        let file = directory.appendingPathComponent(isCompressed ? "events.jsonl.gz" : "events.jsonl")
        let stored = isCompressed && !isRawGzip ? Gzip.compress(content) : content
        try? stored.write(to: file)
        let isSelected = { (line: UnsafeBufferPointer<UInt8>) in (line.first ?? 0) & 1 == 1 }
        let erased: Int
        do {
            erased = try LogFileErasure.blankLines(in: file, isCompressed: isCompressed, where: isSelected)
        } catch {
            try Disagreement.check(isRawGzip && isCompressed, "a file forget wrote could not be read: \(error)")
            try Disagreement.check(read(file) == stored, "a file forget refused was changed")
            return
        }
        guard let written = read(file),
            let after = isCompressed ? try? Gzip.decompress(written, maximumSize: 1 << 26) : written
        else { throw Disagreement(description: "the rewritten file cannot be read") }
        let before =
            isCompressed && isRawGzip ? (try? Gzip.decompress(stored, maximumSize: 1 << 26)) ?? Data() : content
        var expected = Data()
        var count = 0
        var lines = before.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let last = lines.removeLast()
        for line in lines {
            let isBlank = line.isEmpty || (line.first == 0x20 && line.last == 0x20)
            if !isBlank, (line.first ?? 0) & 1 == 1 {
                expected.append(contentsOf: repeatElement(UInt8(0x20), count: line.count))
                count += 1
            } else {
                expected.append(contentsOf: line)
            }
            expected.append(UInt8(ascii: "\n"))
        }
        expected.append(contentsOf: last)
        try Disagreement.check(after == expected, "the blanked file is not the file with its selected lines blanked")
        try Disagreement.check(erased == count, "\(erased) lines said blanked, \(count) were")
    }

    /// The bytes of `file`, read with a file handle: `Data(contentsOf:)` leaks a buffer when the file is empty
    /// (LeakSanitizer found it here).
    private static func read(_ file: URL) -> Data? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            return nil
        }
    }

    /// An event's user id, email and username each find the event, whatever the line escapes in them.
    private static func checkIdentities(_ line: Data) throws(Disagreement) {
        let record = line.withUnsafeBytes { try? EventRecord(line: $0.bindMemory(to: UInt8.self)) }
        guard let record else { return }
        for identity in [record.user, record.userEmail, record.userName].compactMap({ $0 }) {
            let found = line.withUnsafeBytes {
                UserErasure(users: [identity]).isUsersEvent($0.bindMemory(to: UInt8.self))
            }
            try Disagreement.check(found, "the event of '\(identity)' was not found by it")
        }
    }
}
