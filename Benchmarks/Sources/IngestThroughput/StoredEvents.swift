import BenchmarkSupport
import FaultlineRecords
import FaultlineReporting
import Foundation

/// What an ingest stored, read back after a run: the event id of every stored event, so that a run checks that each
/// event answered 200 was stored, and stored once.
enum StoredEvents {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The ids of the events in the log at `directory` (`serve`'s), one per line of its active and rotated files, in
    /// the order written; a line without an `event_id` gives an empty id.
    static func ids(inLog directory: URL) throws -> [String] {
        var ids: [String] = []
        for file in EventLog.files(in: directory) {
            var bytes = try Data(contentsOf: file)
            if file.pathExtension == "gz" {
                do {
                    bytes = try Gzip.decompress(bytes, maximumSize: 1 << 30)
                } catch {
                    throw Failure(description: "\(file.path) could not be decompressed: \(error)")
                }
            }
            ids += eventIDs(inLines: bytes)
        }
        return ids
    }

    /// The ids of the events Bugsink stored in the data folder `data`, read by `Tests/peers/bugsink_peer.py events`.
    static func ids(inBugsink data: URL) throws -> [String] {
        struct Stored: Decodable {
            struct Event: Decodable {
                let eventID: String

                enum CodingKeys: String, CodingKey {
                    case eventID = "event_id"
                }
            }

            let event: Event
        }
        let output = try ChildRun.run([
            IngestPeer.repository.appendingPathComponent(".venv/bin/python").path,
            IngestPeer.repository.appendingPathComponent("Tests/peers/bugsink_peer.py").path, "events", data.path,
        ]).output
        return try JSONDecoder().decode([Stored].self, from: output).map {
            $0.event.eventID.replacingOccurrences(of: "-", with: "").lowercased()
        }
    }

    /// The value of the first `"event_id":"…"` of each line of JSON Lines: the event's own, since the encoder
    /// writes no other member of that name.
    private static func eventIDs(inLines bytes: Data) -> [String] {
        let key = Array(#""event_id":""#.utf8)
        return bytes.split(separator: UInt8(ascii: "\n")).map { line in
            guard let start = line.firstRange(of: key)?.upperBound,
                let end = line[start...].firstIndex(of: UInt8(ascii: "\""))
            else { return "" }
            return String(decoding: line[start..<end], as: UTF8.self)
        }
    }
}
