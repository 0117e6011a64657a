import FaultlineReporting
import FaultlineTestServer
import Foundation
import TestSupport
import Testing

/// What an uploader relies on when it closes: a transport's cancellation fails every request it was given, including
/// those that were only starting, and every later one.
@Suite struct EnvelopeTransportTests {
    @Test(arguments: DeliveryFixtures.Transport.allCases)
    func cancellingFailsTheRequestsStartingMeanwhileAndEveryLaterOne(over transport: DeliveryFixtures.Transport)
        async throws
    {
        try await RecordingIngest.run { ingest in
            // Given an endpoint that holds every request for five minutes
            let hold = Duration.seconds(300)
            await ingest.recorder.answerNext(Array(repeating: .init(status: 200, delay: hold), count: 20))
            let request = EnvelopeRequest(
                url: try DSN(ingest.dsn()).envelopeURL, headerFields: [:],
                body: try DeliveryFixtures.envelope().serialized(), timeout: hold * 2)
            let sender = transport.make()

            // When requests are started and cancelled at once, before they all reached the endpoint
            let started = ContinuousClock.now
            let answers = await withTaskGroup(of: EnvelopeResponse?.self) { group in
                for _ in 1...8 {
                    group.addTask { await sender.send(request) }
                }
                await sender.cancelRequestsInFlight()
                return await group.reduce(into: []) { $0.append($1) }
            }

            // Then each returns without an answer, before the endpoint would have answered (a loaded machine takes
            // seconds to cancel them), and so does a later request
            #expect(answers.count == 8)
            #expect(answers.allSatisfy { $0 == nil })
            #expect(ContinuousClock.now - started < hold)
            #expect(await sender.send(request) == nil)
        }
    }
}
