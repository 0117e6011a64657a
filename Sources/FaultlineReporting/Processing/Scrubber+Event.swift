/// Value scrubbing of a whole event, before it is written or sent.
extension Scrubber {
    /// Scrubs every text of `event` that can hold a secret: the message, the exceptions' values, the request's URL,
    /// query string, header values and data, the tags' values, contexts (where a server's message, a body preview
    /// and a decoding message are) and `extra`. Identifiers, times, levels, the SDK, the user and the fingerprint are
    /// left as they are, but for the user's IP address, removed with ``ScrubRules/scrubIpAddresses``. Breadcrumbs
    /// are not: the reporter scrubs each once, when it enters the scope (``scrubbedTexts(of:)``), rather than the
    /// same hundred again for every event.
    func scrubTexts(of event: inout SentryEvent) {
        guard scanner.isEnabled || rules.scrubText != nil else { return }
        if let message = event.message, let scrubbed = scrubbed(message) { event.message = scrubbed }
        let exceptions = event.exception?.values.replacingChanged { exception in
            scrubbed(exception.value).map { value in
                var scrubbed = exception
                scrubbed.value = value
                return scrubbed
            }
        }
        if let exceptions { event.exception?.values = exceptions }
        if let request = event.request { event.request = scrubbed(request) ?? request }
        if let tags = event.tags.replacingChangedValues(scrubbed) { event.tags = tags }
        if let contexts = scrubbed(event.contexts) { event.contexts = contexts }
        if let extra = event.extra, let scrubbed = scrubbed(extra) { event.extra = scrubbed }
        if rules.scrubIpAddresses { event.user?.ipAddress = nil }
    }

    private func scrubbed(_ request: SentryEvent.Request) -> SentryEvent.Request? {
        let url = request.url.flatMap(scrubbed)
        let query = request.queryString.flatMap(scrubbed)
        let headers = request.headers?.replacingChangedValues(scrubbed)
        let data = request.data.flatMap(scrubbed)
        guard url != nil || query != nil || headers != nil || data != nil else { return nil }
        var result = request
        if let url { result.url = url }
        if let query { result.queryString = query }
        if let headers { result.headers = headers }
        if let data { result.data = data }
        return result
    }

    /// `breadcrumb` with the secrets in its message and data replaced; `nil` when it holds none.
    func scrubbedTexts(of breadcrumb: Breadcrumb) -> Breadcrumb? {
        guard scanner.isEnabled || rules.scrubText != nil else { return nil }
        let message = breadcrumb.message.flatMap(scrubbed)
        let data = breadcrumb.data.flatMap(scrubbed)
        guard message != nil || data != nil else { return nil }
        var result = breadcrumb
        if let message { result.message = message }
        if let data { result.data = data }
        return result
    }
}
