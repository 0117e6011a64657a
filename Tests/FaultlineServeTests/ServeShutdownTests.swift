import FaultlineLogReading
import FaultlineReporting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `faultline serve` as a user runs it: SIGTERM while clients are sending stops it without losing an event it
/// accepted.
@Suite struct ServeShutdownTests {
    @Test func aSIGTERMWhileClientsSendLosesNoAcceptedEvent() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let (process, port) = try await ServeFixture.launch(logs: logs)
        defer { process.terminate() }

        // Given four clients sending events as fast as they can
        let acceptedSoFar = AcceptedCount()
        let stop = EnvelopeSender.Stop()
        defer { stop.set() }
        let senders = EnvelopeSender.start(4, toPort: port, firstRun: 0, until: stop) { await acceptedSoFar.add() }

        // When serve gets SIGTERM once it has accepted 20 events
        try await wait(for: "20 events accepted") { await acceptedSoFar.value >= 20 }
        process.terminate()
        let outcome = try await process.exit()
        stop.set()
        let accepted = await EnvelopeSender.accepted(by: senders)

        // Then it exited cleanly, and every event it answered 200 for is in the log
        #expect(outcome.reason == .exit && outcome.status == 0)
        #expect(accepted.count >= 20)
        var stored: Set<String> = []
        var reader = LogReader()
        for file in try LogFile.all(in: logs) { reader.read(file) { stored.insert($0.eventID) } }
        #expect(Set(accepted).isSubset(of: stored))
    }
}

/// How many events the clients have had accepted so far.
private actor AcceptedCount {
    private(set) var value = 0

    func add() {
        value += 1
    }
}
