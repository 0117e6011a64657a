import FaultlineLogReading
import FaultlineReporting
import FaultlineTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `faultline serve` as a user runs it: SIGTERM while clients are sending stops it without losing an event it
/// accepted.
@Suite struct ServeShutdownTests {
    @Test func aSIGTERMWhileClientsSendLosesNoAcceptedEvent() async throws {
        let logs = ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let (process, port) = try await ServeFixture.launch(logs: logs)
        defer { if process.isRunning { process.terminate() } }

        // Given four clients sending events as fast as they can
        let acceptedSoFar = AcceptedCount()
        let accepted = try await withThrowingTaskGroup(of: [String].self) { group in
            for client in 0..<4 {
                group.addTask {
                    try await Self.sendUntilRefused(port: port, client: client) { await acceptedSoFar.add() }
                }
            }
            // When serve gets SIGTERM once it has accepted 20 events
            let deadline = ContinuousClock.now + .seconds(30)
            while await acceptedSoFar.value < 20, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            process.terminate()
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }

        // Then it exited cleanly, and every event it answered 200 for is in the log
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(accepted.count >= 20)
        var stored: Set<String> = []
        var reader = LogReader()
        for file in try LogFile.all(in: logs) { reader.read(file) { stored.insert($0.eventID) } }
        #expect(Set(accepted).isSubset(of: stored))
    }

    /// Sends one-event envelopes until a request fails, calling `onAccepted` after each 200; returns their ids.
    private static func sendUntilRefused(
        port: Int, client: Int, onAccepted: @Sendable () async -> Void
    ) async throws -> [String] {
        var accepted: [String] = []
        for index in 0... {
            let id = String(format: "%08x%024x", client, index)
            let event = Data(#"{"event_id":"\#(id)","timestamp":"2026-11-23T09:00:00Z"}"#.utf8)
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/api/1/envelope/")!)
            request.httpMethod = "POST"
            request.timeoutInterval = 10
            request.httpBody = Envelope(eventID: id, eventJSON: event, dsn: nil).serialized()
            for (name, value) in ServeFixture.auth { request.setValue(value, forHTTPHeaderField: name) }
            guard let (_, response) = try? await URLSession.shared.data(for: request) else { return accepted }
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { return accepted }
            accepted.append(id)
            await onAccepted()
        }
        return accepted
    }
}

/// How many events the clients have had accepted so far.
private actor AcceptedCount {
    private(set) var value = 0

    func add() {
        value += 1
    }
}
