import Faultline
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A capture as the caller made it, waiting in the reporter's queue: what happened, the scope at that moment, and
/// the id and time the caller was given. The event is assembled from it off the caller's path. A transaction waits in
/// the same queue, so that it is written in order with the events of its trace, and flushed and closed with them.
///
/// A class, so that the queue moves one reference: a generic queue copies a large value through witness tables,
/// which made up a third of a capture's cost.
final class PendingCapture: Sendable {
    /// What was captured.
    enum Source: Sendable {
        case failure(RequestFailure, request: URLRequest?)
        case error(any Error)
        case message(String, level: SentryEvent.Level)
        case transaction(PendingTransaction)

        /// What its event is grouped by, as the CLI groups it: the failure's fingerprint, else the error's type and
        /// description (the event's exception), else the message.
        var fingerprint: [String]? {
            switch self {
            case .failure(let failure, _): FailureEventBuilder.fingerprint(for: failure)
            case .error(let error): [String(reflecting: type(of: error)), String(describing: error)]
            case .message(let message, _): ["message", message]
            case .transaction: nil
            }
        }
    }

    let source: Source
    let eventID: String
    let date: Date
    let scope: Scope
    /// A user for this event only, instead of the scope's.
    let user: UserContext?
    /// The code that sent the failed request or made the capture.
    let callSite: CallSite?
    /// The span it happened in, which its event's `trace` context names.
    let trace: SpanContext?
    /// Events of its fingerprint that ``Reporter/Options/fingerprintLimit`` suppressed since the previous one was
    /// kept, carried by its event's ``Reporter/FingerprintLimit/suppressedCountTag``.
    let suppressedBefore: Int

    init(
        source: Source, eventID: String, date: Date, scope: Scope, user: UserContext?, callSite: CallSite? = nil,
        trace: SpanContext? = nil, suppressedBefore: Int = 0
    ) {
        self.source = source
        self.eventID = eventID
        self.date = date
        self.scope = scope
        self.user = user
        self.callSite = callSite
        self.trace = trace
        self.suppressedBefore = suppressedBefore
    }
}
