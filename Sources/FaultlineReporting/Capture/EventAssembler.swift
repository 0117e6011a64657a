import Faultline
import Foundation

/// Turns a ``PendingCapture`` into the event that is written and sent: the failure's event (scrubbed), the error's or
/// the message's, with the id and time of the capture, the scope of that moment (whose breadcrumbs were scrubbed as
/// they entered it), the call site as its stack trace, the span it happened in as its `trace` context, the secrets in the rest of its text filtered, the number of
/// events of its fingerprint suppressed before it, then `beforeSend`.
struct EventAssembler: Sendable {
    let builder: FailureEventBuilder
    /// Whether the call site becomes the stack trace: of the exception, or of the current thread for a message.
    let attachesStacktrace: Bool
    let beforeSend: (@Sendable (SentryEvent) -> SentryEvent?)?
    let beforeSendTransaction: (@Sendable (TransactionEvent) -> TransactionEvent?)?
    /// Which of the call site's modules are the app's.
    let inApp: InAppRules
    /// Whether a user without an IP address gets `{{auto}}` (``Reporter/Options/sendDefaultPii``).
    let sendsDefaultPii: Bool

    /// The event for `capture`, or `nil` when `beforeSend` dropped it (or it is a transaction, which
    /// ``json(of:in:)`` encodes).
    func event(for capture: PendingCapture) -> SentryEvent? {
        var event: SentryEvent
        switch capture.source {
        case .failure(let failure, let request):
            // Cancellations are refused at capture, so the builder always makes an event here.
            guard
                let built = builder.event(
                    for: failure, request: request, date: capture.date, eventID: capture.eventID)
            else { return nil }
            event = built
        case .error(let error):
            event = SentryEvent(eventID: capture.eventID, level: .error, date: capture.date)
            let type = String(reflecting: Swift.type(of: error))
            event.exception = .init([
                .init(type: type, value: String(describing: error), mechanism: .init(type: "generic", handled: true))
            ])
            event.tags["error.kind"] = "other"
        case .message(let message, let level):
            event = SentryEvent(eventID: capture.eventID, level: level, date: capture.date)
            event.message = message
            event.tags["error.kind"] = "message"
        case .transaction:
            return nil
        }
        if let trace = capture.trace { event.contexts["trace"] = .object(trace.traceContext) }
        event.release = builder.release
        event.dist = builder.dist
        event.environment = builder.environment
        event.serverName = builder.serverName
        if attachesStacktrace, let callSite = capture.callSite {
            var frame = SentryEvent.Stacktrace.Frame(callSite)
            frame.inApp = inApp.isInApp(module: callSite.module)
            let stacktrace = SentryEvent.Stacktrace(frames: [frame])
            if let last = event.exception?.values.indices.last {
                event.exception?.values[last].stacktrace = stacktrace
            } else {
                event.threads = .init([.init(stacktrace: stacktrace, current: true)])
            }
        }
        capture.scope.apply(to: &event, user: capture.user)
        if sendsDefaultPii { event.user = Self.addressedAutomatically(event.user) }
        builder.scrubber.scrubTexts(of: &event)
        if capture.suppressedBefore > 0 {
            event.tags[Reporter.FingerprintLimit.suppressedCountTag] = String(capture.suppressedBefore)
        }
        guard let beforeSend else { return event }
        return beforeSend(event)
    }

    /// The JSON of `transaction`, which `capture` holds, with the scope of its end, as `beforeSendTransaction`
    /// changes it; `nil` when it drops it.
    func json(of transaction: PendingTransaction, in capture: PendingCapture) -> Data? {
        var event = TransactionEvent(transaction, tags: capture.scope.tags)
        if let beforeSendTransaction {
            guard let changed = beforeSendTransaction(event) else { return nil }
            event = changed
        }
        let user = capture.user ?? capture.scope.user
        return TransactionEncoder.encode(
            event, eventID: capture.eventID, scope: capture.scope,
            user: sendsDefaultPii ? Self.addressedAutomatically(user) : user, builder: builder)
    }

    /// `user` (or a user with nothing else) with `{{auto}}` as its IP address unless it has one: the server fills in
    /// the address the event came from, as Sentry's SDKs ask with `sendDefaultPii`.
    private static func addressedAutomatically(_ user: UserContext?) -> UserContext {
        var addressed = user ?? UserContext()
        if addressed.ipAddress == nil { addressed.ipAddress = "{{auto}}" }
        return addressed
    }
}
