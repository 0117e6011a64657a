import Foundation

/// Counts kept across runs as one small JSON file in a directory (`delivery-stats.json` beside an outbox,
/// `ingest-stats.json` in serve's log directory), read by `faultline stats`: written whole and atomically, stamped
/// with the time, and read back as empty counts when the file is missing or cannot be read.
package protocol StatisticsFile: Codable {
    /// The file's name in its directory.
    static var fileName: String { get }
    /// When the statistics were last written.
    var updated: Date? { get set }
    /// Empty counts.
    init()
}

extension StatisticsFile {
    /// Reads the statistics stored in `directory`; empty ones when there are none or they cannot be read.
    package static func storedFile(in directory: URL) -> Self {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(fileName, isDirectory: false)),
            let statistics = try? decoder.decode(Self.self, from: data)
        else { return Self() }
        return statistics
    }

    /// Writes the statistics to `directory` as of `date`, replacing the file atomically.
    package func storeFile(in directory: URL, at date: Date) throws {
        var stamped = self
        stamped.updated = date
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(stamped).write(
            to: directory.appendingPathComponent(Self.fileName, isDirectory: false), options: .atomic)
    }
}
