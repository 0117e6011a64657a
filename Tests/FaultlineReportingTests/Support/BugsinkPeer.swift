import FaultlineLogReading
import FaultlineReporting
import FaultlineTestServer
import Foundation
import TestSupport

/// A real Bugsink from PyPI on 127.0.0.1 (``Bugsink``), with what it stored decoded.
enum BugsinkPeer {
    /// An event as Bugsink stored it, and the issue it grouped it into.
    struct StoredEvent {
        let issue: String
        let event: SentryEvent
    }

    /// Bugsink's export is not the list of `{"issue": …, "event": …}` it should be.
    struct UnreadableExport: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts Bugsink, runs `body` with its DSN, stops it, and returns what it stored with what `body` returned.
    static func run<T: Sendable>(_ body: (DSN) async throws -> T) async throws -> (stored: [StoredEvent], result: T) {
        let (stored, result) = try await Bugsink.run { try await body(try DSN($0)) }
        return (try events(in: stored), result)
    }

    /// The events of Bugsink's export, read as `faultline show` reads a stored event.
    static func events(in export: Data) throws -> [StoredEvent] {
        guard case .array(let items) = try JSONValue(parsing: export) else {
            throw UnreadableExport(description: "not a list")
        }
        return try items.map { item in
            guard let issue = item.objectValue?["issue"]?.stringValue,
                let event = item.objectValue?["event"]?.objectValue
            else { throw UnreadableExport(description: "an item without an issue or an event") }
            return StoredEvent(issue: issue, event: try SentryEvent(members: event))
        }
    }
}
