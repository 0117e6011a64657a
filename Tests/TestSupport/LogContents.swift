import FaultlineRecords
import Foundation

/// The lines of an event log's files, read back as a reader would.
package enum LogContents {
    /// The lines of `file`, decompressed when it is a `.gz` file; fails when the file does not end with a newline.
    package static func lines(of file: URL) throws -> [String] {
        var data = try Data(contentsOf: file)
        if file.pathExtension == "gz" { data = try Gzip.decompress(data, maximumSize: 256 * 1024 * 1024) }
        guard !data.isEmpty else { return [] }
        guard data.last == UInt8(ascii: "\n") else { throw Incomplete(file: file) }
        return data.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The lines of every file of the log in `directory`, oldest file first.
    package static func lines(in directory: URL) throws -> [String] {
        try EventLog.files(in: directory).flatMap(lines(of:))
    }

    package struct Incomplete: Error, CustomStringConvertible {
        package let file: URL
        package var description: String { "\(file.lastPathComponent) does not end with a newline" }
    }
}
