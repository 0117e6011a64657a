import FaultlineRecords
import FaultlineReporting
import FaultlineTestServer
import Foundation
import TestSupport
import Testing

#if AsyncHTTPClient
    import FaultlineAsyncHTTPClient
#endif

/// Envelopes and uploaders for delivery tests, and what a recording ingest received, decoded.
enum DeliveryFixtures {
    /// The transports every delivery test runs over (AsyncHTTPClient's with its package trait).
    enum Transport: String, CaseIterable, CustomTestStringConvertible {
        case urlSession
        #if AsyncHTTPClient
            case asyncHTTPClient
        #endif

        func make() -> any EnvelopeTransport {
            switch self {
            case .urlSession: URLSessionEnvelopeTransport()
            #if AsyncHTTPClient
                case .asyncHTTPClient: AsyncHTTPClientEnvelopeTransport()
            #endif
            }
        }

        var testDescription: String { rawValue }
    }

    /// An envelope with one error event whose message is `message`.
    static func envelope(_ message: String = "boom", dsn: DSN? = nil) throws -> Envelope {
        var event = SentryEvent(level: .error)
        event.message = message
        return Envelope(eventID: event.eventID, eventJSON: EventEncoder.encode(event), dsn: dsn)
    }

    /// A configuration for tests: short backoff, short interval, and requests that do not time out before the endpoint
    /// answers (a held request waits a minute; a loaded CI machine stalls for seconds).
    static func configuration(dsn: String, outbox: URL) throws -> DeliveryConfiguration {
        var configuration = DeliveryConfiguration(dsn: try DSN(dsn), outboxDirectory: outbox)
        tune(&configuration)
        return configuration
    }

    /// Sets the test ``configuration(dsn:outbox:)``'s timings on `configuration`: a reporter's
    /// `Reporter.Options.configureDelivery`.
    @Sendable static func tune(_ configuration: inout DeliveryConfiguration) {
        configuration.flushInterval = .milliseconds(50)
        configuration.backoff = .init(initial: .milliseconds(50), multiplier: 2, maximum: .milliseconds(400))
        configuration.requestTimeout = slowed(.seconds(120))
    }

    /// An uploader with the test ``configuration(dsn:outbox:)`` over a new `transport`, its timers on `clock` when
    /// one is given.
    static func uploader(
        dsn: String, outbox: URL, over transport: Transport, clock: ManualClock? = nil
    ) throws -> Uploader {
        var configuration = try configuration(dsn: dsn, outbox: outbox)
        if let clock { configuration.clock = ElapsedClock(clock) }
        return try Uploader(configuration: configuration, transport: transport.make())
    }

    /// The envelopes a recorder received, decompressed and parsed, in arrival order.
    static func envelopes(_ recorder: IngestRecorder) async throws -> [Envelope] {
        try await recorder.requests.map { request in
            try Envelope(parsing: Gzip.decompress(request.body, maximumSize: 16 * 1024 * 1024))
        }
    }

    /// The event ids of the event items a recorder received from requests it accepted.
    static func acceptedEventIDs(_ recorder: IngestRecorder) async throws -> [String] {
        var ids: [String] = []
        for request in await recorder.requests where (200..<300).contains(request.status) {
            let envelope = try Envelope(parsing: Gzip.decompress(request.body, maximumSize: 16 * 1024 * 1024))
            if case .string(let id)? = envelope.header["event_id"] { ids.append(id) }
        }
        return ids
    }

    /// The `discarded_events` of the client reports in `envelopes`, as `reason/category: quantity`.
    static func discardedEvents(in envelopes: [Envelope]) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for item in envelopes.flatMap(\.items) where item.type == "client_report" {
            let report = try JSONDecoder().decode(JSONValue.self, from: item.payload)
            guard case .array(let entries)? = report.objectValue?["discarded_events"] else { continue }
            for case .object(let entry) in entries {
                guard case .string(let reason)? = entry["reason"], case .string(let category)? = entry["category"],
                    case .int(let quantity)? = entry["quantity"]
                else { continue }
                counts["\(reason)/\(category)", default: 0] += quantity
            }
        }
        return counts
    }
}
