import FaultlineReporting
import FaultlineTestServer
import Foundation
import TestSupport

/// A real Bugsink from PyPI on 127.0.0.1 (``Bugsink``), with what it stored decoded.
enum BugsinkPeer {
    /// An event as Bugsink stored it, and the issue it grouped it into.
    struct StoredEvent: Decodable {
        let issue: String
        let event: SentryEvent
    }

    /// Starts Bugsink, runs `body` with its DSN, stops it, and returns what it stored with what `body` returned.
    static func run<T: Sendable>(_ body: (DSN) async throws -> T) async throws -> (stored: [StoredEvent], result: T) {
        let (stored, result) = try await Bugsink.run { try await body(try DSN($0)) }
        return (try JSONDecoder().decode([StoredEvent].self, from: stored), result)
    }
}
