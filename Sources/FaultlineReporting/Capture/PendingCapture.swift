import Faultline
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A capture as the caller made it, waiting in the reporter's queue: what happened, the scope at that moment, and
/// the id and time the caller was given. The event is assembled from it off the caller's path.
///
/// A class, so that the queue moves one reference: a generic queue copies a large value through witness tables,
/// which made up a third of a capture's cost.
final class PendingCapture: Sendable {
    /// What was captured.
    enum Source: Sendable {
        case failure(RequestFailure, request: URLRequest?)
        case error(any Error)
        case message(String, level: SentryEvent.Level)
    }

    let source: Source
    let eventID: String
    let date: Date
    let scope: Scope
    /// A user for this event only, instead of the scope's.
    let user: UserContext?

    init(source: Source, eventID: String, date: Date, scope: Scope, user: UserContext?) {
        self.source = source
        self.eventID = eventID
        self.date = date
        self.scope = scope
        self.user = user
    }
}
