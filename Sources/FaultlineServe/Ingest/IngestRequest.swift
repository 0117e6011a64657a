import Faultline
import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation

/// What one request to the ingest carries, checked: its events ready for the log, its transactions and request
/// outcomes, its client reports, or the status and reason it is refused with. Nothing of a refused request is stored.
package struct IngestRequest {
    /// Why a request is refused: the HTTP status, and the reason sent in `X-Sentry-Error`.
    package struct Refusal: Error, Hashable {
        let status: Int
        let reason: String
        /// The seconds to wait before sending again: for a 429, and for a 503 that clears once another request is
        /// done.
        var retryAfter: Int?
        /// The `X-Sentry-Rate-Limits` of a 429: what the client holds back, for how long.
        var rateLimits: String?

        /// The status of a request whose client went away before its body arrived (nginx's 499): no one reads the
        /// answer, but the metrics count it apart from bodies over the limit.
        static let clientClosedRequest = 499
    }

    /// Events as log lines (one compact JSON object each), with their ids.
    package private(set) var events: [(id: String, line: Data)] = []
    /// What the metrics count of each of ``events``, in the same order: read with the event, so that the store
    /// need not read its line again; `nil` for a line triage would not read.
    package private(set) var records: [EventRecord?] = []
    /// Transactions as lines of the transactions' log (one compact JSON object each, scrubbed), with their ids.
    package private(set) var transactions: [(id: String, line: Data)] = []
    /// The request outcomes the request carries (items of type `faultline.request_outcomes`), read and checked.
    package private(set) var requestOutcomes: [RequestOutcomes] = []
    /// Items of request outcomes that could not be read: dropped, neither stored nor forwarded.
    package private(set) var unreadableRequestOutcomes = 0
    /// The items of types the local log does not keep (sessions, attachments, …), by type: stored only when a forward
    /// route queues them.
    package private(set) var unloggedItems: [String: Int] = [:]
    /// A reason and data category a client report counts drops under.
    struct Discard: Hashable, Sendable {
        let reason: String
        let category: String
    }

    /// Drops that client reports in the request announced.
    private(set) var discards: [Discard: Int] = [:]
    /// The id answered to the client: the envelope's or its first event's, as 32 lowercase hex digits.
    private(set) var responseID: String?
    /// The key the request was authenticated with.
    let key: String
    /// The request as an envelope, for forwarding: the one received, or, for a `store` request, one around its event,
    /// with the texts of its events and transactions scrubbed as the local copy's are.
    package private(set) var envelope: Envelope
    /// When the request arrived: the time of its events that do not say theirs.
    private let receivedAt: Date

    /// An envelope, authenticated by `key` or by its own `dsn` header against the project's `acceptedKeys`, from
    /// `clientAddress` (filled in where an event asks for it, ``ClientAddress``).
    package init(
        envelope body: Data, key: String?, acceptedKeys: Set<String>, configuration: IngestConfiguration,
        clientAddress: String? = nil, receivedAt: Date = Date()
    ) throws(Refusal) {
        self.receivedAt = receivedAt
        do {
            envelope = try Envelope(parsing: body)
        } catch {
            throw Refusal(status: 400, reason: "malformed envelope: \(error.reason)")
        }
        self.key = try Self.authenticate(key ?? SentryAuth.key(inEnvelope: envelope), acceptedKeys)
        if let given = envelope.header["event_id"], given != .null {
            guard let id = given.stringValue.flatMap(EventID.normalized) else {
                throw Refusal(status: 400, reason: "the envelope's event_id is not a UUID")
            }
            responseID = id
            envelope.header["event_id"] = .string(id)
        }
        var forwarded: [Envelope.Item] = []
        let sampleRate = Self.sampleRate(inTraceHeader: envelope.header["trace"])
        for item in envelope.items {
            guard item.payload.count <= configuration.maximumItemSize else {
                let article = "aeiou".contains(item.type.first ?? "x") ? "an" : "a"
                throw Refusal(
                    status: 413,
                    reason: "\(article) \(item.type) item of \(item.payload.count) bytes is over the limit of "
                        + "\(configuration.maximumItemSize)")
            }
            switch item.type {
            case "event":
                let scrubbed = try add(
                    event: ClientAddress.filled(in: item.payload, with: clientAddress), configuration,
                    fallbackID: responseID)
                forwarded.append(Envelope.Item(type: item.type, payload: scrubbed, headers: item.headers))
            case "transaction":
                // Scrubbed before it is stored or forwarded: span descriptions and data hold URLs and queries.
                let scrubbed = try add(
                    transaction: item.payload, configuration, fallbackID: responseID, sampleRate: sampleRate)
                forwarded.append(Envelope.Item(type: item.type, payload: scrubbed, headers: item.headers))
            case "client_report":
                readClientReport(item.payload)
                forwarded.append(item)
            case RequestOutcomes.type:
                // Stored and forwarded as read again, so that neither keeps bytes the reader did not check.
                guard let outcomes = try? RequestOutcomes(line: item.payload) else {
                    unreadableRequestOutcomes += 1
                    continue
                }
                requestOutcomes.append(outcomes)
                forwarded.append(Envelope.Item(type: item.type, payload: outcomes.line(), headers: item.headers))
            default:
                // Sessions, attachments: not in the local log, forwarded as they are.
                unloggedItems[item.type, default: 0] += 1
                forwarded.append(item)
            }
        }
        envelope.items = forwarded
    }

    /// A legacy `store` request: one event as the body, authenticated by `key` against the project's
    /// `acceptedKeys`, from `clientAddress`.
    package init(
        storeBody body: Data, key: String?, acceptedKeys: Set<String>, configuration: IngestConfiguration,
        clientAddress: String? = nil, receivedAt: Date = Date()
    ) throws(Refusal) {
        self.receivedAt = receivedAt
        self.key = try Self.authenticate(key, acceptedKeys)
        guard body.count <= configuration.maximumItemSize else {
            throw Refusal(status: 413, reason: "an event of \(body.count) bytes is over the limit")
        }
        envelope = Envelope(header: [:], items: [])
        let scrubbed = try add(
            event: ClientAddress.filled(in: body, with: clientAddress), configuration, fallbackID: nil)
        if let id = responseID { envelope = Envelope(eventID: id, eventJSON: scrubbed, dsn: nil) }
    }

    /// The members of an event the ingest reads: its id and time, and what the metrics count (the members triage
    /// reads, which hold both).
    private static let readMembers = EventScan.memberNames

    /// `payload` with the configuration's PII config applied, when it has one: before serve's own scrubbing, as Relay
    /// applies a project's advanced rules before those of its data scrubbing settings.
    private static func redacted(_ payload: Data, _ configuration: IngestConfiguration) -> Data {
        configuration.piiConfig?.applied(toEvent: payload) ?? payload
    }

    /// `payload` with the secrets in its string values filtered, when the configuration scrubs values.
    private static func scrubbed(_ payload: Data, _ configuration: IngestConfiguration) -> Data {
        guard configuration.scrubsValues else { return payload }
        return configuration.scrubber.scrubbedTexts(inJSON: payload) ?? payload
    }

    /// The key, when it is one of `acceptedKeys`.
    private static func authenticate(_ key: String?, _ acceptedKeys: Set<String>) throws(Refusal) -> String {
        guard let key else {
            throw Refusal(status: 401, reason: "missing authentication: send X-Sentry-Auth with sentry_key")
        }
        guard acceptedKeys.contains(key) else { throw Refusal(status: 403, reason: "unknown sentry_key") }
        return key
    }

    /// How far ahead of the time an event was received its `timestamp` may be: beyond it, the event gets the time it
    /// was received, as Sentry's ingest does (Relay's default, a minute). Older events keep their time: Sentry's
    /// ingest also moves those more than 30 days old, for its retention, but a local log keeps them.
    package static let maximumTimeAhead = 60.0

    /// What the ingest reads of an event: its text (scrubbed, when the configuration scrubs values), the `event_id`
    /// and `timestamp` it gives, whether it is on one line, and what the metrics count of it.
    private struct ReadEvent {
        var text: Data
        var givenID: JSONValue?
        var givenTime: JSONValue?
        var isOneLine: Bool
        var record: EventRecord?
    }

    /// Reads an event item, with the PII config applied, in one pass (``Scrubber/scrubbedObject(parsing:members:)``):
    /// checked whole, scrubbed, and its members located. One that pass refuses, or whose top-level keys have escapes,
    /// is read again: scrubbed and then parsed, so that it gets the same refusal, with the offset where its text
    /// breaks (a text that is not JSON is not scrubbed), or the same reading.
    private static func read(event received: Data, _ configuration: IngestConfiguration) throws(Refusal) -> ReadEvent {
        let payload = redacted(received, configuration)
        let object =
            try?
            (configuration.scrubsValues
            ? configuration.scrubber.scrubbedObject(parsing: payload, members: readMembers)
            : JSONValue.object(parsing: payload, members: readMembers))
        if let object, !object.hasEscapedKey {
            return ReadEvent(
                text: object.bytes, givenID: object.value(of: "event_id"), givenTime: object.value(of: "timestamp"),
                isOneLine: !object.hasLineBreak, record: try? EventScan(readingMembersOf: object).record)
        }
        let text = scrubbed(payload, configuration)
        let read: [String: JSONValue]?
        do {
            read = try JSONValue.members(["event_id", "timestamp"], ofObjectParsing: text)
        } catch {
            throw Refusal(status: 400, reason: "an event item is \(error)")
        }
        guard let members = read else { throw Refusal(status: 400, reason: "an event item is not a JSON object") }
        let isOneLine = text.withUnsafeBytes { !JSONValue.hasLineBreak($0) }
        return ReadEvent(
            text: text, givenID: members["event_id"], givenTime: members["timestamp"], isOneLine: isOneLine,
            record: [UInt8](text).withUnsafeBufferPointer { try? EventScan(line: $0).record })
    }

    /// Adds an event as a log line that every `faultline` command reads: as received (scrubbed, when the
    /// configuration scrubs values), except that, as Sentry's ingest does, an event without a UUID `event_id` gets
    /// one (the envelope's, else a new one), an id is written as 32 lowercase hex digits, and an event without a
    /// readable `timestamp` gets the time it was received, as does one more than ``maximumTimeAhead`` ahead or
    /// before the year 1 (the time given kept in `errors`, as `future_timestamp` or `past_timestamp`). Returns the
    /// event's text as scrubbed, before any of these changes, for forwarding.
    private mutating func add(
        event payload: Data, _ configuration: IngestConfiguration, fallbackID: String?
    ) throws(Refusal) -> Data {
        // Read once: every reading of the text costs serve CPU on each event (Benchmarks/README.md, ingest-throughput).
        let event = try Self.read(event: payload, configuration)
        let givenText = event.givenID?.stringValue
        let givenID = givenText.flatMap(EventID.normalized)
        let id = givenID ?? fallbackID ?? RandomID.make()
        var line = event.text
        var record = event.record
        let time = Self.seconds(event.givenTime)
        let timeError: String? =
            switch time {
            case let seconds? where seconds > receivedAt.timeIntervalSince1970 + Self.maximumTimeAhead:
                "future_timestamp"
            case let seconds? where seconds < RFC3339.range.lowerBound: "past_timestamp"
            default: nil
            }
        if givenID == nil || givenID != givenText || time == nil || timeError != nil || !event.isOneLine {
            // Rewritten as one line: the whole tree is built, for the few events that need it.
            guard case .object(var object)? = try? JSONValue(parsing: event.text) else {
                throw Refusal(status: 400, reason: "an event item is not a JSON object")
            }
            object["event_id"] = .string(id)
            if let timeError, let given = object["timestamp"] {
                let error = JSONValue.object(["type": .string(timeError), "name": "timestamp", "value": given])
                if case .array(let errors)? = object["errors"] {
                    object["errors"] = .array(errors + [error])
                } else {
                    object["errors"] = .array([error])
                }
            }
            if time == nil || timeError != nil { object["timestamp"] = .string(RFC3339.string(from: receivedAt)) }
            line = JSONValue.object(object).compactJSON
            record = [UInt8](line).withUnsafeBufferPointer { try? EventScan(line: $0).record }
        }
        events.append((id, line))
        records.append(record)
        if responseID == nil { responseID = id }
        return event.text
    }

    /// Adds a transaction as a line of the transactions' log: as received (scrubbed, when the configuration scrubs
    /// values), with a UUID `event_id` (its own as 32 lowercase hex digits, else the envelope's, else a new one), on one
    /// line, and the trace's `sampleRate` (from the envelope's `trace` header) as `sentry.sample_rate` in its `trace`
    /// context's data when it does not say its own: what `faultline routes` weighs its spans by. Returns its text as
    /// scrubbed, for forwarding.
    private mutating func add(
        transaction payload: Data, _ configuration: IngestConfiguration, fallbackID: String?, sampleRate: Double?
    ) throws(Refusal) -> Data {
        let text = Self.scrubbed(Self.redacted(payload, configuration), configuration)
        guard case .object(var object)? = try? JSONValue(parsing: text) else {
            throw Refusal(status: 400, reason: "a transaction item is not a JSON object")
        }
        let givenText = object["event_id"]?.stringValue
        let givenID = givenText.flatMap(EventID.normalized)
        let id = givenID ?? fallbackID ?? RandomID.make()
        var line = text
        let isOneLine = text.withUnsafeBytes { !$0.contains(UInt8(ascii: "\n")) && !$0.contains(UInt8(ascii: "\r")) }
        let addsSampleRate = sampleRate.map { Self.addSampleRate($0, to: &object) } ?? false
        if givenID == nil || givenID != givenText || !isOneLine || addsSampleRate {
            object["event_id"] = .string(id)
            line = JSONValue.object(object).compactJSON
        }
        transactions.append((id, line))
        if responseID == nil { responseID = id }
        return text
    }

    /// The sample rate of the trace an envelope's `trace` header (its dynamic sampling context) names: `sample_rate`,
    /// a text as SDKs send it or a number, when it is a rate above 0 and at most 1.
    private static func sampleRate(inTraceHeader header: JSONValue?) -> Double? {
        let rate: Double? =
            switch header?.objectValue?["sample_rate"] {
            case .string(let text)?: Double(text)
            case .double(let number)?: number
            case .int(let number)?: Double(number)
            default: nil
            }
        guard let rate, rate > 0, rate <= 1 else { return nil }
        return rate
    }

    /// Sets `sentry.sample_rate` in the `trace` context's data of `transaction` to `rate`, when its `contexts.trace`
    /// is an object whose data does not hold one; returns whether it did.
    private static func addSampleRate(_ rate: Double, to transaction: inout [String: JSONValue]) -> Bool {
        guard var contexts = transaction["contexts"]?.objectValue, var trace = contexts["trace"]?.objectValue else {
            return false
        }
        var data = trace["data"]?.objectValue ?? [:]
        guard trace["data"] == nil || trace["data"]?.objectValue != nil, data[TransactionRecord.sampleRateKey] == nil
        else {
            return false
        }
        data[TransactionRecord.sampleRateKey] = .double(rate)
        trace["data"] = .object(data)
        contexts["trace"] = .object(trace)
        transaction["contexts"] = .object(contexts)
        return true
    }

    /// The event time `value` says, in seconds since 1970, when triage reads it as one: an RFC 3339 text, or a
    /// number of seconds.
    private static func seconds(_ value: JSONValue?) -> Double? {
        switch value {
        case .string(let text)?: RFC3339.seconds(text)
        case .int(let seconds)?: Double(seconds)
        case .double(let seconds)?: seconds
        default: nil
        }
    }

    private mutating func readClientReport(_ payload: Data) {
        guard case .object(let report)? = try? JSONValue(parsing: payload),
            case .array(let discarded)? = report["discarded_events"]
        else { return }
        for case .object(let entry) in discarded {
            guard let reason = entry["reason"]?.stringValue, let category = entry["category"]?.stringValue,
                case .int(let quantity)? = entry["quantity"]
            else { continue }
            discards[Discard(reason: reason, category: category), default: 0] += quantity
        }
    }
}
