/// Value scrubbing of a whole event, before it is written or sent.
extension Scrubber {
    /// Scrubs every text of `event` that can hold a secret: the message, the exceptions' values, the request's URL,
    /// query string, header values and data, the tags' values, contexts (where a server's message, a body preview
    /// and a decoding message are), `extra`, and the breadcrumbs' messages and data. Identifiers, times, levels, the
    /// SDK, the user and the fingerprint are left as they are.
    func scrubTexts(of event: inout SentryEvent) {
        guard scanner.isEnabled || rules.scrubText != nil else { return }
        if let message = event.message, let scrubbed = scrubbed(message) { event.message = scrubbed }
        if var exception = event.exception {
            var changed = false
            for index in exception.values.indices {
                guard let scrubbed = scrubbed(exception.values[index].value) else { continue }
                exception.values[index].value = scrubbed
                changed = true
            }
            if changed { event.exception = exception }
        }
        if let request = event.request { event.request = scrubbed(request) ?? request }
        for (name, value) in event.tags {
            if let scrubbed = scrubbed(value) { event.tags[name] = scrubbed }
        }
        if let contexts = scrubbed(event.contexts) { event.contexts = contexts }
        if let extra = event.extra, let scrubbed = scrubbed(extra) { event.extra = scrubbed }
        if var breadcrumbs = event.breadcrumbs {
            var changed = false
            for index in breadcrumbs.values.indices {
                guard let scrubbed = scrubbed(breadcrumbs.values[index]) else { continue }
                breadcrumbs.values[index] = scrubbed
                changed = true
            }
            if changed { event.breadcrumbs = breadcrumbs }
        }
    }

    private func scrubbed(_ request: SentryEvent.Request) -> SentryEvent.Request? {
        let url = request.url.flatMap(scrubbed)
        let query = request.queryString.flatMap(scrubbed)
        let headers = request.headers.flatMap { headers -> [String: String]? in
            var result: [String: String]?
            for (name, value) in headers {
                guard let scrubbed = scrubbed(value) else { continue }
                if result == nil { result = headers }
                result?[name] = scrubbed
            }
            return result
        }
        let data = request.data.flatMap(scrubbed)
        guard url != nil || query != nil || headers != nil || data != nil else { return nil }
        var result = request
        if let url { result.url = url }
        if let query { result.queryString = query }
        if let headers { result.headers = headers }
        if let data { result.data = data }
        return result
    }

    private func scrubbed(_ breadcrumb: Breadcrumb) -> Breadcrumb? {
        let message = breadcrumb.message.flatMap(scrubbed)
        let data = breadcrumb.data.flatMap(scrubbed)
        guard message != nil || data != nil else { return nil }
        var result = breadcrumb
        if let message { result.message = message }
        if let data { result.data = data }
        return result
    }
}
