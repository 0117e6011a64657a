import Foundation
import TestSupport
import Testing

@testable import FaultlineServe

/// The ingest's store keeps each event id once, and never answers "already stored" for an event another request has
/// not kept yet: such a request is refused, to be sent again.
@Suite struct IngestStoreTests {
    static let id = "44444444444444444444444444444444"
    static let line = Data(#"{"event_id":"44444444444444444444444444444444","message":"sent again"}"#.utf8)

    /// What a request that stored the event learned.
    enum Outcome: Equatable {
        case stored, duplicate, inFlight
    }

    static func store(in store: IngestStore) async throws -> Outcome {
        do {
            return try await store.store([(id: id, line: line)]).isEmpty ? .duplicate : .stored
        } catch is IngestStore.EventInFlight {
            return .inFlight
        }
    }

    @Test func oneEventStoredByRequestsAtOnceIsWrittenOnce() async throws {
        // Given one event that 40 requests store at once, as an app killed mid-request sends it again on restart
        // while serve still stores the first
        let temporary = try TemporaryDirectory("store")
        defer { temporary.remove() }
        let logs = temporary.url
        let store = try IngestStore(IngestConfiguration(logDirectory: logs, publicKey: "key"))
        let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
            for _ in 0..<40 { group.addTask { try await Self.store(in: store) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // and one more after them
        let after = try await Self.store(in: store)
        try await store.close()

        // Then one of them stored it; the others were told it is stored, or to send it again while it was being
        // written; and the log holds it once
        #expect(outcomes.filter { $0 == .stored }.count == 1)
        #expect(after == .duplicate)
        let lines = try Data(contentsOf: logs.appendingPathComponent("events.jsonl")).split(separator: 0x0A)
        #expect(lines.count == 1)
    }

    @Test func anEventStoredBeforeARestartIsADuplicateAfterIt() async throws {
        // Given an event a store kept in its log, with the time serve gives every stored event, and the store closed
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-store-\(UUID())")
        defer { try? FileManager.default.removeItem(at: logs) }
        let line = Data(
            #"{"event_id":"\#(Self.id)","timestamp":"2026-11-23T11:15:13.000Z","message":"sent again"}"#.utf8)
        let first = try IngestStore(IngestConfiguration(logDirectory: logs, publicKey: "key"))
        #expect(try await first.store([(id: Self.id, line: line)]) == [Self.id])
        try await first.close()

        // When serve starts again on the same directory, and the app that did not read the first answer sends it again
        let restarted = try IngestStore(IngestConfiguration(logDirectory: logs, publicKey: "key"))
        let again = try await restarted.store([(id: Self.id, line: line)])
        try await restarted.close()

        // Then it is a duplicate, and the log holds it once
        #expect(again.isEmpty)
        let lines = try Data(contentsOf: logs.appendingPathComponent("events.jsonl")).split(separator: 0x0A)
        #expect(lines.count == 1)
    }

    @Test func withoutALogAnEventIsInFlightUntilTheForwardQueueKeepsOrRefusesIt() async throws {
        // Given a forward-only store (no local log)
        var configuration = IngestConfiguration(logDirectory: URL(fileURLWithPath: "/nonexistent"), publicKey: "key")
        configuration.forwarding = ForwardConfiguration(routes: [])
        configuration.forwarding?.storesLocally = false
        let store = try IngestStore(configuration)

        // When a request stores an event the forward queue has not taken yet, another carrying it is refused
        #expect(try await Self.store(in: store) == .stored)
        #expect(try await Self.store(in: store) == .inFlight)
        // and once the queue refused it, the next request stores it again
        await store.release([Self.id])
        #expect(try await Self.store(in: store) == .stored)
        // Then once the queue took it, it is a duplicate
        await store.keep([Self.id])
        #expect(try await Self.store(in: store) == .duplicate)
    }
}
