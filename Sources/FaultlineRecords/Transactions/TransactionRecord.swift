import Foundation

/// What triage reads of a stored transaction (Sentry's transaction event, from any SDK): when it ended, its release
/// and environment, the sample rate of its trace, and the requests it timed, its `http.client` spans (itself too, when
/// it is one, as Faultline's reporter sends a request made outside any span). Everything else is skipped without
/// being decoded.
package struct TransactionRecord: Sendable {
    /// One request a transaction timed.
    package struct Request: Hashable, Sendable {
        package var method: String
        /// Its route: the span's `http.route` or `url.template` when it has one, else its URL's path with the
        /// segments that look like identifiers as `*` (``RoutePath``).
        package var route: String
        /// How it ended, named as request outcomes name it: `ok`, `server.5xx` for a status from 400 on, the
        /// `faultline.outcome` a Faultline reporter recorded, or `transport` for a span that failed without a status.
        package var outcome: String
        package var duration: Duration
    }

    /// When it ended, seconds since 1970.
    package var end: Double
    package var release: String?
    package var environment: String?
    /// The sample rate of its trace, `sentry.sample_rate` in its `trace` context's data: what each of its requests
    /// stands for. `nil` when it does not say.
    package var sampleRate: Double?
    package var requests: [Request] = []

    /// The key of the trace's sample rate in a transaction's `trace` context data, as writers set it.
    package static let sampleRateKey = "sentry.sample_rate"

    /// Reads a transaction from one line; `nil` when the line is not a JSON object of `type` `transaction` with a
    /// `timestamp`. A span that does not say its method and URL, route or description, or when it started and ended,
    /// is not counted.
    package init?(line: UnsafeBufferPointer<UInt8>) {
        guard UTF8Validation.isValid(line) else { return nil }
        var scanner = JSONScanner(line)
        var reading = Reading()
        let isObject = scanner.object { key, scanner in reading.read(key, &scanner) }
        guard isObject, scanner.isAtEnd(), reading.isTransaction, let end = reading.end else { return nil }
        self.end = end
        release = reading.release
        environment = reading.environment
        sampleRate = reading.trace.sampleRate
        if reading.trace.isRequest, let start = reading.start,
            let request = reading.trace.request(start: start, end: end)
        {
            requests.append(request)
        }
        requests += reading.spans
    }

    /// The members of a transaction read so far.
    private struct Reading {
        var isTransaction = false
        var start: Double?
        var end: Double?
        var release: String?
        var environment: String?
        var trace = SpanFields()
        var spans: [Request] = []

        mutating func read(_ key: UnsafeBufferPointer<UInt8>, _ scanner: inout JSONScanner) -> Bool {
            if JSONScanner.isKey(key, "type") {
                guard scanner.nextValueKind() == .string else { return scanner.skipValue() }
                isTransaction = scanner.string() == "transaction"
                return true
            }
            if JSONScanner.isKey(key, "start_timestamp") { return scanner.time(into: &start) }
            if JSONScanner.isKey(key, "timestamp") { return scanner.time(into: &end) }
            if JSONScanner.isKey(key, "release") {
                return scanner.optionalString(into: &release) || scanner.skipValue()
            }
            if JSONScanner.isKey(key, "environment") {
                return scanner.optionalString(into: &environment) || scanner.skipValue()
            }
            if JSONScanner.isKey(key, "contexts") {
                guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
                return scanner.object { key, scanner in
                    guard JSONScanner.isKey(key, "trace"), scanner.nextValueKind() == .object else {
                        return scanner.skipValue()
                    }
                    return trace.read(&scanner)
                }
            }
            if JSONScanner.isKey(key, "spans") {
                guard scanner.nextValueKind() == .array else { return scanner.skipValue() }
                return scanner.array { scanner in
                    guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
                    var span = SpanFields()
                    guard span.read(&scanner) else { return false }
                    if span.isRequest, let start = span.start, let end = span.end,
                        let request = span.request(start: start, end: end)
                    {
                        spans.append(request)
                    }
                    return true
                }
            }
            return scanner.skipValue()
        }
    }

    /// What a span (or a transaction's `trace` context) says of the request it timed. Its texts are kept as the
    /// line's bytes and made into strings only for a request span: most of a transaction's spans are not.
    private struct SpanFields {
        var operation: JSONScanner.Text?
        var description: JSONScanner.Text?
        /// Whether its status says it failed (neither `ok` nor `unknown`).
        var statusFailed = false
        var start: Double?
        var end: Double?
        var method: JSONScanner.Text?
        var route: JSONScanner.Text?
        var url: JSONScanner.Text?
        var statusCode: Int?
        var outcome: String?
        var sampleRate: Double?

        /// Whether it times a request.
        var isRequest: Bool {
            operation?.withUTF8 { JSONScanner.isKey($0, "http.client") } ?? false
        }

        /// Reads the object at the cursor.
        mutating func read(_ scanner: inout JSONScanner) -> Bool {
            scanner.object { key, scanner in
                if JSONScanner.isKey(key, "op") { return Self.readText(&scanner, into: &operation) }
                if JSONScanner.isKey(key, "description") { return Self.readText(&scanner, into: &description) }
                if JSONScanner.isKey(key, "status") {
                    guard let status = scanner.text() else { return scanner.skipValue() }
                    statusFailed = status.withUTF8 { !JSONScanner.isKey($0, "ok") && !JSONScanner.isKey($0, "unknown") }
                    return true
                }
                if JSONScanner.isKey(key, "start_timestamp") { return scanner.time(into: &start) }
                if JSONScanner.isKey(key, "timestamp") { return scanner.time(into: &end) }
                if JSONScanner.isKey(key, "data") {
                    guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
                    return scanner.object { key, scanner in readData(key, &scanner) }
                }
                return scanner.skipValue()
            }
        }

        /// A string into `text`; a value of another type is skipped.
        private static func readText(_ scanner: inout JSONScanner, into text: inout JSONScanner.Text?) -> Bool {
            guard scanner.nextValueKind() == .string else { return scanner.skipValue() }
            text = scanner.text()
            return text != nil
        }

        /// One member of the span's data: the names of OpenTelemetry's conventions and Sentry's older ones.
        private mutating func readData(_ key: UnsafeBufferPointer<UInt8>, _ scanner: inout JSONScanner) -> Bool {
            if JSONScanner.isKey(key, "http.request.method") || JSONScanner.isKey(key, "http.method") {
                return Self.readText(&scanner, into: &method)
            }
            if JSONScanner.isKey(key, "http.route") || JSONScanner.isKey(key, "url.template") {
                return Self.readText(&scanner, into: &route)
            }
            if JSONScanner.isKey(key, "url") || JSONScanner.isKey(key, "url.full") {
                return Self.readText(&scanner, into: &url)
            }
            if JSONScanner.isKey(key, "http.response.status_code") || JSONScanner.isKey(key, "http.status_code") {
                if scanner.nextValueKind() == .number, let code = scanner.integer() {
                    statusCode = (100...599).contains(code) ? code : nil
                    return true
                }
                guard let text = scanner.scalarText() else { return scanner.skipValue() }
                statusCode = Int(text).flatMap { (100...599).contains($0) ? $0 : nil }
                return true
            }
            if JSONScanner.isKey(key, "faultline.outcome") {
                return scanner.optionalString(into: &outcome) || scanner.skipValue()
            }
            if JSONScanner.isKey(key, "sentry.sample_rate") {  // sampleRateKey, as a literal the scanner matches
                guard let text = scanner.scalarText(), let rate = Double(text) else { return scanner.skipValue() }
                sampleRate = rate > 0 && rate <= 1 ? rate : nil
                return true
            }
            return scanner.skipValue()
        }

        /// The request it timed from `start` to `end`, when it says its method and route (or a URL or description to
        /// find them in): a description of an `http.client` span is "METHOD URL" by Sentry's conventions.
        func request(start: Double, end: Double) -> Request? {
            let described = description?.withUTF8 { bytes -> (method: String, url: String?)? in
                guard let space = bytes.firstIndex(of: 0x20) else {
                    return bytes.isEmpty ? nil : (Self.upper(bytes), nil)
                }
                let rest = UnsafeBufferPointer(rebasing: bytes[(space + 1)...])
                return (
                    Self.upper(UnsafeBufferPointer(rebasing: bytes[..<space])), url == nil ? RoutePath.route(rest) : nil
                )
            }
            guard let method = method?.withUTF8(Self.upper) ?? described?.method, !method.isEmpty else { return nil }
            guard let route = route?.string ?? url?.withUTF8(RoutePath.route) ?? described?.url else { return nil }
            return Request(
                method: method, route: route, outcome: outcome ?? defaultOutcome,
                duration: .microseconds(Int64(max(0, end - start) * 1_000_000)))
        }

        /// `bytes` as a string in upper case (ASCII letters only: methods are ASCII).
        private static func upper(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            String(unsafeUninitializedCapacity: bytes.count) { buffer in
                for (index, byte) in bytes.enumerated() {
                    buffer[index] = (0x61...0x7A).contains(byte) ? byte - 0x20 : byte
                }
                return bytes.count
            }
        }

        /// `ok`; the status class of a status from 400 on, as a server failure; `transport` for a span whose status
        /// says it failed without a response.
        private var defaultOutcome: String {
            if let statusCode {
                return statusCode >= 400
                    ? "\(FailureKind.server.rawValue).\(statusCode / 100)xx" : RequestOutcomes.success
            }
            return statusFailed ? FailureKind.transport.rawValue : RequestOutcomes.success
        }
    }
}
