import FaultlineReporting
import Foundation

/// Request URLs recorded in events, scrubbed by taking the text apart: the result must hold no user info, query or
/// fragment as `URLComponents` reads it, and keep the query's names.
enum URLFuzzing {
    static let scrubber = Scrubber()

    static func run(_ data: Data) throws(Disagreement) {
        guard let text = String(data: data, encoding: .utf8), let url = URL(string: text),
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return }
        let (scrubbed, query) = scrubber.url(url)
        if let parts = URLComponents(string: scrubbed) {
            try Disagreement.check(
                parts.user == nil && parts.password == nil, "the scrubbed URL \(scrubbed) of \(text) keeps user info")
            try Disagreement.check(
                parts.query == nil && parts.fragment == nil, "the scrubbed URL \(scrubbed) of \(text) keeps a query")
        }
        try Disagreement.check(
            (query != nil) == (components.percentEncodedQuery != nil),
            "the scrubber and URLComponents disagree on whether \(text) has a query")
    }
}
