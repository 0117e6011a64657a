import Faultline
import Foundation

extension SessionEvent {
    /// The breadcrumb of a refresh (`auth.refresh`, info) or an expiry (`auth.expired`, error), at `date`.
    func breadcrumb(at date: Date) -> Breadcrumb {
        switch self {
        case .refreshed(let version, let trigger):
            Breadcrumb(
                category: "auth.refresh", level: .info,
                message: "Credential refreshed (version \(version)) after \(trigger.endpoint) was rejected", date: date)
        case .expired(let expiry, let trigger):
            Breadcrumb(category: "auth.expired", level: .error, message: "\(trigger.endpoint): \(expiry)", date: date)
        }
    }
}
