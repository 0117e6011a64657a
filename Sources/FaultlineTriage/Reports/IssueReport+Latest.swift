import FaultlineReporting
import Foundation

extension IssueReport {
    /// The issue's latest event, read again in full: what Sentry's event page shows of it.
    public struct Latest: Hashable, Sendable, Encodable {
        public let eventID: String
        public let timestamp: String
        public let title: String
        /// `debug`, `info`, `warning`, `error` or `fatal`.
        public let level: String
        /// The SDK that sent it, such as `sentry.python/2.19.0`.
        public let sdk: String
        /// Where it happened, as Sentry's culprit names it: the event's transaction, else its raised exception's
        /// last in-app frame (`shop.checkout in pay`), else its last frame.
        public let culprit: String?
        public let release: String?
        public let environment: String?
        /// Who it happened to, as the event names them.
        public let user: UserContext?
        /// Every tag, by name.
        public let tags: [String: String]
        /// The name and version of each of its `os`, `runtime`, `device`, `app` and `browser` contexts it has.
        public let contexts: [String: String]
        /// Its exceptions, `Type: value`, the first cause first and the one raised last (a chain of one for most).
        public let exceptions: [String]
        /// The same exceptions with their stack traces.
        public let chain: [ChainedException]
        /// The request it was about, as stored (scrubbed): method, URL, query, headers and body.
        public let request: SentryEvent.Request?
        /// The message the server sent with its error, if it sent one.
        public let serverMessage: String?
        /// Where decoding failed, and the decoder's words.
        public let decodingPath: String?
        public let decodingDetail: String?
        /// The frames of its exception's stack trace (else its current thread's), oldest first: for a Faultline
        /// event, the code that sent the request.
        public let stacktrace: [SentryEvent.Stacktrace.Frame]
        /// Oldest first.
        public let breadcrumbs: [Crumb]

        enum CodingKeys: String, CodingKey {
            case timestamp, title, level, sdk, culprit, release, environment, user, tags, contexts, exceptions, chain,
                request, stacktrace, breadcrumbs
            case eventID = "event_id"
            case serverMessage = "server_message"
            case decodingPath = "decoding_path"
            case decodingDetail = "decoding_detail"
        }

        /// The contexts whose name and version are shown.
        static let summarizedContexts = ["os", "runtime", "device", "app", "browser"]

        init(_ event: SentryEvent, title: String) {
            let details = event.contexts["faultline"]?.objectValue
            eventID = event.eventID
            timestamp = event.timestamp
            self.title = title
            level = event.level.rawValue
            sdk = event.sdk.clientName
            release = event.release
            environment = event.environment
            user = event.user
            tags = event.tags
            contexts = Self.summaries(of: event.contexts)
            exceptions = (event.exception?.values ?? []).map { "\($0.type): \($0.value)" }
            chain = (event.exception?.values ?? []).map {
                ChainedException(type: $0.type, value: $0.value, stacktrace: $0.stacktrace?.frames ?? [])
            }
            request = event.request
            serverMessage = details?["server_message"]?.stringValue
            decodingPath = event.tags["decoding.path"]
            decodingDetail = details?["decoding"]?.objectValue?["debug_description"]?.stringValue
            let exception = event.exception?.values.last?.stacktrace
            let thread = event.threads?.values.first { $0.current == true }?.stacktrace
            stacktrace = (exception ?? thread)?.frames ?? []
            culprit = event.transaction ?? Self.culprit(of: stacktrace)
            breadcrumbs = (event.breadcrumbs?.values ?? []).map(Crumb.init)
        }

        /// `module in function` of the last in-app frame, else of the last frame; the file when there is no module.
        private static func culprit(of frames: [SentryEvent.Stacktrace.Frame]) -> String? {
            guard let frame = frames.last(where: { $0.inApp == true }) ?? frames.last else { return nil }
            let place = frame.module ?? frame.filename
            return [place, frame.function].compactMap { $0 }.joined(separator: " in ").nilIfEmpty
        }

        /// `Linux 6.1`, `CPython 3.11.2`: each summarized context's name and version, where it has either.
        private static func summaries(of contexts: [String: JSONValue]) -> [String: String] {
            var summaries: [String: String] = [:]
            for key in summarizedContexts {
                guard let context = contexts[key]?.objectValue else { continue }
                let parts =
                    ["name", "version"].compactMap { context[$0]?.stringValue }
                    + (key == "device" ? [context["model"]?.stringValue].compactMap { $0 } : [])
                if !parts.isEmpty { summaries[key] = parts.joined(separator: " ") }
            }
            return summaries
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(eventID, forKey: .eventID)
            try container.encode(timestamp, forKey: .timestamp)
            try container.encode(title, forKey: .title)
            try container.encode(level, forKey: .level)
            try container.encode(sdk, forKey: .sdk)
            try container.encode(culprit, forKey: .culprit)
            try container.encode(release, forKey: .release)
            try container.encode(environment, forKey: .environment)
            try container.encode(user, forKey: .user)
            try container.encode(tags, forKey: .tags)
            try container.encode(contexts, forKey: .contexts)
            try container.encode(exceptions, forKey: .exceptions)
            try container.encode(chain, forKey: .chain)
            try container.encode(request, forKey: .request)
            try container.encode(serverMessage, forKey: .serverMessage)
            try container.encode(decodingPath, forKey: .decodingPath)
            try container.encode(decodingDetail, forKey: .decodingDetail)
            try container.encode(stacktrace, forKey: .stacktrace)
            try container.encode(breadcrumbs, forKey: .breadcrumbs)
        }

        /// The lines `show` prints about it after its title: level and SDK, user, tags, contexts and the chain of
        /// exceptions, each only when the event has it.
        func detailLines() -> [String] {
            let safe = TerminalText.safe
            var lines = [
                ["level \(safe(level))", release.map { "release \(safe($0))" }, environment.map(safe), safe(sdk)]
                    .compactMap { $0 }.joined(separator: " · ")
            ]
            if let culprit { lines.append("culprit: \(safe(culprit))") }
            if let user {
                let identities = [
                    user.id.map { "id \(safe($0))" }, user.email.map { "email \(safe($0))" },
                    user.username.map { "username \(safe($0))" }, user.segment.map { "segment \(safe($0))" },
                    user.ipAddress.map { "ip \(safe($0))" },
                ].compactMap { $0 }
                if !identities.isEmpty { lines.append("user: " + identities.joined(separator: ", ")) }
            }
            if !tags.isEmpty {
                lines.append(
                    "tags: "
                        + tags.sorted { $0.key < $1.key }.map { "\(safe($0.key))=\(safe($0.value))" }
                        .joined(separator: ", "))
            }
            let shown = Self.summarizedContexts.compactMap { key in contexts[key].map { "\(key) \(safe($0))" } }
            if !shown.isEmpty { lines.append("contexts: " + shown.joined(separator: ", ")) }
            if exceptions.count > 1 {
                lines.append("exceptions, the first cause first: " + exceptions.map(safe).joined(separator: " → "))
            }
            if let request {
                let query = request.queryString.map { "?" + $0 } ?? ""
                let target = [request.method, request.url.map { $0 + query }].compactMap { $0 }.joined(separator: " ")
                if !target.isEmpty { lines.append("request: \(safe(target))") }
                if let headers = request.headers, !headers.isEmpty {
                    lines.append(
                        "request headers: "
                            + headers.sorted { $0.key < $1.key }.map { "\(safe($0.key)): \(safe($0.value))" }
                            .joined(separator: ", "))
                }
                if let data = request.data { lines.append("request body: \(safe(Self.cut(Self.compact(data))))") }
            }
            return lines
        }

        /// `value` as compact JSON.
        private static func compact(_ value: JSONValue) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }

        /// `text` cut to ``bodyShown`` characters, with `…` where it was cut.
        private static func cut(_ text: String) -> String {
            text.count <= bodyShown ? text : text.prefix(bodyShown) + "…"
        }

        /// The most characters of a request body the terminal shows; `--json` has all of it.
        static let bodyShown = 300
    }

    /// One exception of an event's chain and the frames of its stack trace, oldest first.
    public struct ChainedException: Hashable, Sendable, Encodable {
        public let type: String
        public let value: String
        public let stacktrace: [SentryEvent.Stacktrace.Frame]
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
