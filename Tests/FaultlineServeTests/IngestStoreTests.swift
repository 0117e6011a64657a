import Foundation
import Testing

@testable import FaultlineServe

/// The ingest's store keeps each event id once, even when requests carrying it are stored at the same moment.
@Suite struct IngestStoreTests {
    @Test func oneEventStoredByRequestsAtOnceIsWrittenOnce() async throws {
        // Given one event that 40 requests store at once, as an app killed mid-request sends it again on restart
        // while serve still stores the first
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-store-\(UUID())")
        defer { try? FileManager.default.removeItem(at: logs) }
        let store = try IngestStore(IngestConfiguration(logDirectory: logs, publicKey: "key"))
        let line = Data(#"{"event_id":"44444444444444444444444444444444","message":"sent again"}"#.utf8)
        let stored = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<40 {
                group.addTask { try await store.store([(id: "44444444444444444444444444444444", line: line)]) }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        try await store.close()

        // Then one of them stored it, and the log holds it once
        #expect(stored == ["44444444444444444444444444444444"])
        let lines = try Data(contentsOf: logs.appendingPathComponent("events.jsonl")).split(separator: 0x0A)
        #expect(lines.count == 1)
    }
}
