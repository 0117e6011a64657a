import Foundation

/// Follows the active log as the app appends to it, for `faultline tail -f`: each ``readNew(_:)`` reads what was
/// appended since the last one. A line still being written waits for its `\n`. When the log rotates (the file is
/// replaced or shorter than what was read), reading starts over at the top of the new file.
public struct LogFollower {
    public let url: URL
    private var offset: UInt64
    private var fileNumber: Int?
    private var splitter = LineSplitter()
    private var reader = LogReader()

    /// Starts following `url` from its current end, so that only new events are read.
    public init(url: URL) {
        self.url = url
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        offset = (attributes?[.size] as? NSNumber)?.uint64Value ?? 0
        fileNumber = (attributes?[.systemFileNumber] as? NSNumber)?.intValue
    }

    /// Reads the events appended since the last call and hands each to `event`.
    public mutating func readNew(_ event: (EventRecord) -> Void) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return }
        let size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        let number = (attributes[.systemFileNumber] as? NSNumber)?.intValue
        if number != fileNumber || size < offset {
            fileNumber = number
            offset = 0
            splitter = LineSplitter()
        }
        guard size > offset, let handle = try? FileHandle(forReadingFrom: url) else { return }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.readToEnd() else { return }
        offset += UInt64(data.count)
        var reader = self.reader
        data.withUnsafeBytes { bytes in
            splitter.split(bytes) { line in reader.record(line) { record, _ in event(record) } }
        }
        self.reader = reader
    }
}
