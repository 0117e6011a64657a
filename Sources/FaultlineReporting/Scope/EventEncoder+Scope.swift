import FaultlineRecords
import Foundation

extension EventEncoder {
    /// The event's JSON bytes; the breadcrumbs it carries from `scope`, unchanged, are written as the scope encoded
    /// them when they entered it.
    static func encode(_ event: SentryEvent, scope: Scope?) -> Data {
        let carried = event.breadcrumbs.flatMap { scope?.encodedBreadcrumbs(ifSameAs: $0.values) }
        return encode(event, encodedBreadcrumbs: carried)
    }
}
