import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation
import TestSupport
import Testing

/// A reporter's delivery is configured in one place: `Options.dsn` says where events go, and
/// `Options.configureDelivery` tunes how, starting from the uploader's defaults for that DSN.
@Suite struct DeliveryOptionsTests {
    @Test func eventsGoToTheOptionsDSNWithTheTuningOfConfigureDelivery() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        try await RecordingIngest.run { ingest in
            // Given a reporter that sends each event alone, and would otherwise wait ten minutes to send
            var options = Reporter.Options(logDirectory: logs.url)
            options.dsn = try DSN(ingest.dsn())
            options.configureDelivery = {
                $0.batchSize = 1
                $0.flushInterval = .seconds(600)
                $0.requestTimeout = .seconds(120)
            }
            let reporter = try Reporter(options: options)

            // When it captures an event, without flushing
            let id = try #require(await reporter.capture(message: "sent alone", level: .error))

            // Then the ingest of the options' DSN receives it at once, and the uploader kept the tuning
            #expect(
                try await eventually {
                    (try? await DeliveryFixtures.acceptedEventIDs(ingest.recorder)) == [id]
                })
            let configuration = try #require(reporter.uploader?.configuration)
            #expect(configuration.dsn == options.dsn)
            #expect(configuration.outboxDirectory.path == options.outboxDirectory.path)
            #expect(configuration.batchSize == 1)
            #expect(await reporter.close(timeout: patience))
        }
    }

    @Test func withoutADSNThereIsNoUploaderAndTheTuningIsNotUsed() throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        // Given options that tune delivery but name no DSN
        var options = Reporter.Options(logDirectory: logs.url)
        options.configureDelivery = { $0.batchSize = 1 }

        // When a reporter is made from them
        let reporter = try Reporter(options: options)

        // Then it sends nowhere
        #expect(reporter.uploader == nil)
    }

    @Test func theOutboxIsWhereTheLogDirectorysLayoutPutsIt() {
        let url = URL(fileURLWithPath: "/var/lib/faultline")

        #expect(Reporter.Options(logDirectory: url).outboxDirectory.path == "/var/lib/faultline/outbox")
        #expect(Reporter.Options(logDirectory: url).outboxDirectory.path == LogLayout(url).outbox.path)
    }
}
