import Faultline
import FaultlineRecords
import FaultlineReporting
import Foundation
import Hummingbird
import NIOCore

/// Answers envelope and store requests: checks who sends and what, stores the events in the local log, queues the
/// envelope for its upstream when the sender's project and key have a forward route, and answers 200 only once both
/// are done, so that a 200 means the envelope is on this machine's disk.
struct IngestHandler: Sendable {
    let configuration: IngestConfiguration
    let store: IngestStore
    let forwarder: Forwarder?
    /// The keys accepted for each project.
    private let acceptedKeys: [String: Set<String>]

    init(configuration: IngestConfiguration, store: IngestStore, forwarder: Forwarder?) {
        self.configuration = configuration
        self.store = store
        self.forwarder = forwarder
        acceptedKeys = configuration.acceptedKeys
    }

    /// The answer to an envelope or store request, and what became of it in a few words for the access log.
    func handle(_ request: Request, context: IngestRequestContext, isEnvelope: Bool) async -> (
        Response, outcome: String
    ) {
        do throws(IngestRequest.Refusal) {
            let project = context.parameters.get("project") ?? ""
            guard let keys = acceptedKeys[project] else {
                throw IngestRequest.Refusal(status: 404, reason: "unknown project")
            }
            let key =
                SentryAuth.key(inHeader: request.headers[.sentryAuth])
                ?? SentryAuth.key(inHeader: request.headers[.authorization])
                ?? SentryAuth.key(inQuery: request.uri.query)
            if let key, !keys.contains(key) {
                throw IngestRequest.Refusal(status: 403, reason: "unknown sentry_key")
            }
            let body = try await Self.body(of: request, configuration)
            let client = context.remoteAddress?.ipAddress
            let ingest =
                isEnvelope
                ? try IngestRequest(
                    envelope: body, key: key, acceptedKeys: keys, configuration: configuration, clientAddress: client)
                : try IngestRequest(
                    storeBody: body, key: key, acceptedKeys: keys, configuration: configuration, clientAddress: client)
            if let wait = await store.admit(ingest.events.count) {
                let seconds = Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0)
                throw IngestRequest.Refusal(
                    status: 429, reason: "over \(configuration.eventsPerMinute ?? 0) events a minute",
                    retryAfter: seconds, rateLimits: "\(seconds):error:key")
            }
            let stored: [String]
            let storedOutcomes: Int
            let storedTransactions: Int
            do {
                stored = try await store.store(ingest.events, records: ingest.records)
                storedTransactions = try await store.store(transactions: ingest.transactions)
                storedOutcomes = try await store.store(requestOutcomes: ingest.requestOutcomes)
            } catch let inFlight as IngestStore.EventInFlight {
                throw IngestRequest.Refusal(
                    status: 503, reason: "event \(inFlight.eventID) is being stored by another request; send it again",
                    retryAfter: 1)
            } catch {
                // A full or failing disk: the SDK keeps the events and sends them again, once there is space.
                throw IngestRequest.Refusal(
                    status: 503, reason: "the log could not be written: \(error)", retryAfter: 10)
            }
            let forwarded: Forwarding?
            do {
                forwarded = try await forward(ingest, project: project, stored: stored)
            } catch {
                await store.release(stored)
                throw error
            }
            await store.keep(stored)
            await countUnlogged(ingest, forwarded: forwarded)
            if !ingest.discards.isEmpty { await store.countDiscards(ingest.discards) }
            await store.countAnswer(status: 200)
            // The id is 32 hex digits (`EventID`): nothing in it needs escaping.
            let answer = ingest.responseID.map { #"{"id":"\#($0)"}"# } ?? "{}"
            let duplicates = ingest.events.count - stored.count
            let outcome = [
                configuration.storesLocally ? "stored \(counted(stored.count, "event"))" : nil,
                duplicates > 0 ? "\(duplicates) already stored" : nil,
                storedTransactions > 0 ? counted(storedTransactions, "transaction") : nil,
                storedOutcomes > 0 ? "\(counted(storedOutcomes, "interval")) of request outcomes" : nil,
                ingest.unreadableRequestOutcomes > 0
                    ? "\(ingest.unreadableRequestOutcomes) unreadable request outcomes dropped" : nil,
                forwarded?.note,
            ]
            return (
                Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: answer))),
                outcome.compactMap { $0 }.joined(separator: ", ")
            )
        } catch {
            await store.countAnswer(status: error.status)
            var headers: HTTPFields = [.contentType: "application/json", .sentryError: error.reason]
            if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
            if let rateLimits = error.rateLimits { headers[.sentryRateLimits] = rateLimits }
            let detail = String(
                decoding: JSONValue.object(["detail": .string(error.reason)]).compactJSON, as: UTF8.self)
            return (
                Response(
                    status: HTTPResponse.Status(code: error.status), headers: headers,
                    body: ResponseBody(byteBuffer: ByteBuffer(string: detail))),
                error.reason
            )
        }
    }

    /// What became of an envelope with a forward route.
    private struct Forwarding {
        /// What became of its items the local log does not store: stored when the upstream's queue took them.
        let fate: ItemFate
        /// What became of it, for the access log.
        let note: String
    }

    /// Counts the items the local log did not store, once the envelope's forward route (if any) took them or not:
    /// the types it never keeps (sessions, attachments), and, without a local log, transactions and request outcomes;
    /// and the request outcomes that could not be read.
    private func countUnlogged(_ ingest: IngestRequest, forwarded: Forwarding?) async {
        var unlogged = ingest.unloggedItems
        if !configuration.storesLocally {
            unlogged["transaction", default: 0] += ingest.transactions.count
            unlogged[RequestOutcomes.type, default: 0] += ingest.requestOutcomes.count
        }
        // Most envelopes hold events only: they cost the store no call here.
        if !unlogged.isEmpty { await store.countItems(unlogged, forwarded?.fate ?? .notStored(.notKept)) }
        if ingest.unreadableRequestOutcomes > 0 {
            await store.countItems([RequestOutcomes.type: ingest.unreadableRequestOutcomes], .notStored(.unreadable))
        }
    }

    /// Queues `ingest`'s envelope for the upstream of `project` and the request's key, unless all its events were
    /// already stored (and so forwarded before) or it holds only item types the uploader cannot rate-limit (accepted
    /// and dropped, as the local log ignores them); returns what became of it, `nil` without a route.
    ///
    /// - Throws: When the queue refused it and there is no local log to keep it, so that the client keeps the
    ///   envelope: 429 with the upstream's rate limit when that is why, else 503.
    private func forward(_ ingest: IngestRequest, project: String, stored: [String]) async throws(IngestRequest.Refusal)
        -> Forwarding?
    {
        guard let upstream = forwarder?.upstream(projectID: project, publicKey: ingest.key) else { return nil }
        guard stored.count > 0 || ingest.events.isEmpty else {
            return Forwarding(fate: .notStored(.duplicate), note: "not forwarded again")
        }
        guard ingest.envelope.items.contains(where: { DataCategory(itemType: $0.type) != nil }) else {
            return Forwarding(
                fate: .notStored(.notKept), note: "not forwarded: no item of a type Sentry's rate limits name")
        }
        // Without a local copy the client keeps what is refused: told the upstream's limit, as Sentry's Relay tells
        // it, it holds back that category instead of retrying into it, and nothing is counted as dropped here.
        if !configuration.storesLocally, let refusal = await Self.rateLimitRefusal(of: ingest.envelope, by: upstream) {
            throw refusal
        }
        if await upstream.forward(ingest.envelope) {
            return Forwarding(fate: .stored, note: "queued for \(upstream.name)")
        }
        guard configuration.storesLocally else {
            throw await Self.rateLimitRefusal(of: ingest.envelope, by: upstream)
                ?? IngestRequest.Refusal(
                    status: 503,
                    reason:
                        "the forward queue of \(upstream.name) could not store the envelope; faultline stats shows why",
                    retryAfter: 10)
        }
        return Forwarding(
            fate: .notStored(.notForwarded),
            note: "not queued for \(upstream.name) (rate-limited or unwritable: see faultline stats)")
    }

    /// The 429 that passes the upstream's rate limit on `envelope` on to the client; `nil` when none holds it back.
    private static func rateLimitRefusal(of envelope: Envelope, by upstream: Upstream) async -> IngestRequest.Refusal? {
        guard let limit = await upstream.uploader.rateLimit(of: envelope) else { return nil }
        let seconds = Int(limit.wait.components.seconds) + 1
        return IngestRequest.Refusal(
            status: 429, reason: "\(upstream.name) rate-limits \(limit.category.rawValue) for \(seconds) s",
            retryAfter: seconds, rateLimits: "\(seconds):\(limit.category.rawValue):key")
    }

    /// `1 event`, `2 events`.
    private func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// The request's body, decompressed; refused past the size limits or when it cannot be decompressed.
    private static func body(of request: Request, _ configuration: IngestConfiguration) async throws(IngestRequest
        .Refusal) -> Data
    {
        let limit = configuration.maximumRequestSize
        let compressed: Data
        do {
            compressed = Data(try await request.body.collect(upTo: limit).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw IngestRequest.Refusal(status: 413, reason: "the request body is over \(limit) bytes")
        } catch {
            throw IngestRequest.Refusal(
                status: IngestRequest.Refusal.clientClosedRequest, reason: "the client closed the connection mid-body")
        }
        do throws(BodyDecodingError) {
            return try BodyDecoding.decode(
                compressed, encoding: request.headers[.contentEncoding], maximumSize: limit)
        } catch {
            if case .tooLarge = error { throw IngestRequest.Refusal(status: 413, reason: error.description) }
            throw IngestRequest.Refusal(status: 400, reason: error.description)
        }
    }
}

extension HTTPFields.Element.Name {
    static let sentryAuth = Self("X-Sentry-Auth")!
    static let sentryError = Self("X-Sentry-Error")!
    static let sentryRateLimits = Self("X-Sentry-Rate-Limits")!
    static let allow = Self("Allow")!
}
