import FaultlineRecords
import Foundation

/// Follows the active log as the app appends to it, for `faultline tail -f`: each ``readNew(_:)`` reads what was
/// appended since the last one. A line still being written waits for its `\n`.
///
/// The file read stays open, so that when the log rotates (the file is renamed away and a new one started), the
/// lines appended to it before the rotation are read to its end first; then reading starts at the top of the new
/// file. A file that rotated out entirely between two reads (more than a whole file, 8 MiB by default, appended in
/// between) is not shown.
package struct LogFollower {
    package let url: URL
    /// The file being read, its identity, and how far it was read.
    private var file: FileHandle?
    private var fileNumber: UInt64?
    private var offset: UInt64 = 0
    private var splitter = LineSplitter()
    private var reader = LogReader()

    /// Starts following `url` from its current end, so that only new events are read.
    package init(url: URL) {
        self.url = url
        if let file = try? FileHandle(forReadingFrom: url) {
            self.file = file
            fileNumber = Self.fileNumber(of: file)
            offset = (try? file.seekToEnd()) ?? 0
        }
    }

    /// Reads the events appended since the last call and hands each to `event` with its line: the rest of the file
    /// being read, then, when the log rotated, the new file from its top.
    package mutating func readNew(_ event: (EventRecord, UnsafeBufferPointer<UInt8>) -> Void) {
        readRest(event)
        var status = stat()
        guard stat(url.path, &status) == 0,
            UInt64(status.st_ino) != fileNumber || UInt64(status.st_size) < offset,
            let current = try? FileHandle(forReadingFrom: url)
        else { return }
        try? file?.close()
        file = current
        fileNumber = Self.fileNumber(of: current)
        offset = 0
        splitter = LineSplitter()
        readRest(event)
    }

    /// Reads the open file from where the last read stopped to its end.
    private mutating func readRest(_ event: (EventRecord, UnsafeBufferPointer<UInt8>) -> Void) {
        guard let file, (try? file.seek(toOffset: offset)) != nil, let data = try? file.readToEnd(), !data.isEmpty
        else { return }
        offset += UInt64(data.count)
        var reader = self.reader
        data.withUnsafeBytes { bytes in
            splitter.split(bytes) { line in reader.record(line, event) }
        }
        self.reader = reader
    }

    /// The inode of the open `file`, which tells a new log file from the one being read.
    private static func fileNumber(of file: FileHandle) -> UInt64? {
        var status = stat()
        guard fstat(file.fileDescriptor, &status) == 0 else { return nil }
        return UInt64(status.st_ino)
    }
}
