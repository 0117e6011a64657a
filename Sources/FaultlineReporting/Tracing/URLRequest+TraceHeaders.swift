import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// The request with the trace headers of `span`, set in one assignment of its header fields: on Linux each
    /// `setValue(_:forHTTPHeaderField:)` costs about 5 µs, and three of them cost more than the rest of the span.
    func carrying(_ span: RequestSpan) -> URLRequest {
        var fields = allHTTPHeaderFields ?? [:]
        // The request's own trace headers, by their lowercase names, spelled as the request spells them.
        var spellings: [String: String] = [:]
        for name in fields.keys {
            let lowercased = name.lowercased()
            if lowercased == "sentry-trace" || lowercased == "baggage" || lowercased == "traceparent" {
                spellings[lowercased] = name
            }
        }
        let headers = span.headers(
            hasSentryTrace: spellings["sentry-trace"] != nil,
            existingBaggage: spellings["baggage"].flatMap { fields[$0] })
        guard !headers.isEmpty else { return self }
        for header in headers {
            if let existing = spellings[header.name] { fields[existing] = nil }
            fields[header.name] = header.value
        }
        var traced = self
        traced.allHTTPHeaderFields = fields
        return traced
    }
}
