import FaultlineRecords
import FaultlineReporting
import FaultlineServe
import FaultlineTestServer
import Foundation
import TestSupport
import Testing

/// What the tests of `faultline serve --forward` share: a route from the fixture's project and key to an upstream,
/// envelopes to send, and what an upstream received.
enum RelayFixture {
    /// The key the upstream knows, other than the one clients send to the relay.
    static let upstreamKey = "fedcba9876543210fedcba9876543210"

    /// One envelope as an upstream received it.
    struct Received {
        let envelope: Envelope
        let headers: [String: String]
        let receivedAt: ContinuousClock.Instant
        let status: Int

        /// The ids of its events.
        var eventIDs: [String] {
            envelope.items.filter { $0.type == "event" }.compactMap {
                (try? JSONSerialization.jsonObject(with: $0.payload) as? [String: Any])?["event_id"] as? String
            }
        }
    }

    /// Forwarding of the fixture's project and key to `upstream` (a DSN).
    static func forwarding(to upstream: String, storesLocally: Bool = true) throws -> ForwardConfiguration {
        var forwarding = ForwardConfiguration(routes: [
            ForwardRoute(projectID: "1", publicKey: ServeFixture.publicKey, upstream: try DSN(upstream))
        ])
        forwarding.storesLocally = storesLocally
        return forwarding
    }

    /// The bytes of an envelope with one event, `id`.
    static func eventEnvelope(_ id: String, message: String = "checkout failed") -> Data {
        let event = Data(#"{"event_id":"\#(id)","timestamp":"2026-11-23T09:00:00Z","message":"\#(message)"}"#.utf8)
        return Envelope(eventID: id, eventJSON: event, dsn: nil).serialized()
    }

    /// An envelope with one client report, as SDKs send them: `quantity` events of `category` dropped for `reason`.
    static func clientReportEnvelope(reason: String, category: String = "error", quantity: Int) -> Envelope {
        let report =
            #"{"timestamp":"2026-11-23T09:00:00Z","discarded_events":[{"reason":"\#(reason)","category":"\#(category)","#
            + #""quantity":\#(quantity)}]}"#
        return Envelope(header: [:], items: [.init(type: "client_report", payload: Data(report.utf8))])
    }

    /// An event id made of `run` and `index`: 32 hex digits.
    static func eventID(run: Int, _ index: Int) -> String {
        String(format: "%08x%024x", run, index)
    }

    /// What `recorder` received, decompressed when it was gzip (not from a relay to a loopback upstream), and
    /// parsed, in arrival order.
    static func received(by recorder: IngestRecorder) async throws -> [Received] {
        try await recorder.requests.map(received)
    }

    /// One request `recorder` received, read.
    static func received(_ request: IngestRecorder.ReceivedRequest) throws -> Received {
        let gzip = request.headers["content-encoding"] == "gzip"
        return Received(
            envelope: try Envelope(
                parsing: gzip ? Gzip.decompress(request.body, maximumSize: 16 << 20) : request.body),
            headers: request.headers, receivedAt: request.receivedAt, status: request.status)
    }

    /// Waits until `relay` has nothing left to forward, so that nothing more will be sent: the queue of every
    /// upstream it forwards to is empty.
    static func waitUntilNothingIsQueued(in relay: ServeFixture) async throws {
        try await wait(for: "the relay's queues to empty") {
            let queues = try await relay.metrics().filter { $0.key.hasPrefix("faultline_forward_queue_envelopes{") }
            return !queues.isEmpty && queues.values.allSatisfy { $0 == 0 }
        }
    }
}
