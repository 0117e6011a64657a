import FaultlineLogReading
import FaultlineRecords
import Foundation

/// Finding events by their id, as `faultline show` does when it is given an event id rather than an issue's.
package enum EventLookup {
    /// An event found, with its line exactly as stored.
    package struct Found: Sendable {
        package let record: EventRecord
        package let line: Data
    }

    /// The events of `files` whose `event_id` starts with `prefix` (any case, dashes aside, as a UUID is sometimes
    /// written), each id once: the first copy read, so a log's before an outbox envelope's. The read stops at a second
    /// id, which makes the prefix ambiguous.
    package static func events(withIDPrefix prefix: String, in files: [LogFile]) -> [Found] {
        let wanted = Self.normalized(prefix)
        guard !wanted.isEmpty else { return [] }
        var reader = LogReader()
        var found: [Found] = []
        for file in files where found.count < 2 {
            reader.read(file) { record, line in
                guard found.count < 2, Self.normalized(record.eventID).hasPrefix(wanted),
                    !found.contains(where: { $0.record.eventID == record.eventID })
                else { return }
                found.append(Found(record: record, line: Data(buffer: line)))
            }
        }
        return found
    }

    private static func normalized(_ id: String) -> String {
        id.lowercased().filter { $0 != "-" }
    }
}
