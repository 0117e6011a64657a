import FaultlineRecords
import FaultlineReporting
import Foundation

/// One event read again in full: what Sentry's event page shows of it, as `show` prints an issue's latest event or
/// one event by its id.
package struct EventDetail: Hashable, Sendable, Encodable {
    package let eventID: String
    package let timestamp: String
    package let title: String
    /// `debug`, `info`, `warning`, `error` or `fatal`.
    package let level: String
    /// The SDK that sent it, such as `sentry.python/2.19.0`.
    package let sdk: String
    /// Where it happened, as Sentry's culprit names it: the event's transaction, else its raised exception's
    /// last in-app frame (`shop.checkout in pay`), else its last frame.
    package let culprit: String?
    package let release: String?
    package let environment: String?
    /// The host it happened on (`server_name`).
    package let serverName: String?
    /// Who it happened to, as the event names them.
    package let user: UserContext?
    /// Every tag, by name.
    package let tags: [String: String]
    /// The name and version of each of its `os`, `runtime`, `device`, `app` and `browser` contexts it has.
    package let contexts: [String: String]
    /// Its exceptions, `Type: value`, the first cause first and the one raised last (a chain of one for most).
    package let exceptions: [String]
    /// The same exceptions with their stack traces.
    package let chain: [ChainedException]
    /// The request it was about, as stored (scrubbed): method, URL, query, headers and body.
    package let request: SentryEvent.Request?
    /// The message the server sent with its error, if it sent one.
    package let serverMessage: String?
    /// Where decoding failed, and the decoder's words.
    package let decodingPath: String?
    package let decodingDetail: String?
    /// The frames of its exception's stack trace (else its current thread's), oldest first: for a Faultline
    /// event, the code that sent the request.
    package let stacktrace: [SentryEvent.Stacktrace.Frame]
    /// Oldest first.
    package let breadcrumbs: [Crumb]

    enum CodingKeys: String, CodingKey {
        case timestamp, title, level, sdk, culprit, release, environment, user, tags, contexts, exceptions, chain,
            request, stacktrace, breadcrumbs
        case serverName = "server_name"
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
        serverName = event.serverName
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

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(eventID, forKey: .eventID)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(title, forKey: .title)
        try container.encode(level, forKey: .level)
        try container.encode(sdk, forKey: .sdk)
        try container.encode(culprit, forKey: .culprit)
        try container.encode(release, forKey: .release)
        try container.encode(environment, forKey: .environment)
        try container.encode(serverName, forKey: .serverName)
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
            [
                "level \(safe(level))", release.map { "release \(safe($0))" }, environment.map(safe),
                serverName.map { "server \(safe($0))" }, safe(sdk),
            ].compactMap { $0 }.joined(separator: " · ")
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
        String(decoding: value.compactJSON, as: UTF8.self)
    }

    /// `text` cut to ``bodyShown`` characters, with `…` where it was cut.
    private static func cut(_ text: String) -> String {
        text.count <= bodyShown ? text : text.prefix(bodyShown) + "…"
    }

    /// The most characters of a request body the terminal shows; `--json` has all of it.
    static let bodyShown = 300

    /// The event as the terminal shows it, under `heading` (`latest event`, `event`): its title, the details
    /// ``detailLines()`` lists, the server's message or the decoding path, each exception's stack trace, and the
    /// last breadcrumbs.
    func lines(heading: String, style: TextStyle) -> [String] {
        let safe = TerminalText.safe
        var lines = [style.bold("\(heading) \(safe(eventID)) at \(safe(timestamp))"), safe(title)]
        lines += detailLines()
        if let message = serverMessage { lines.append("server message: \(safe(message))") }
        if let path = decodingPath { lines.append("decoding path: \(safe(path))") }
        if let detail = decodingDetail { lines.append("decoder: \(safe(detail))") }
        if chain.count > 1 {
            for (index, exception) in chain.enumerated() where !exception.stacktrace.isEmpty {
                let role = index == chain.count - 1 ? "raised" : "cause"
                let title = safe("\(exception.type): \(exception.value)")
                lines += Self.lines(of: exception.stacktrace, heading: "\(role) \(title)", style: style)
            }
        } else if !stacktrace.isEmpty {
            lines += Self.lines(of: stacktrace, heading: "stack trace", style: style)
        }
        if !breadcrumbs.isEmpty {
            lines.append(style.bold("breadcrumbs (last \(min(20, breadcrumbs.count)), oldest first):"))
            for crumb in breadcrumbs.suffix(20) {
                lines.append(
                    "  \(safe(crumb.timestamp))  \(safe(crumb.level).padding(toLength: 7))  "
                        + "\(safe(crumb.category ?? "-").padding(toLength: 14))  \(safe(crumb.summary))")
            }
        }
        return lines
    }

    /// The most frames the terminal shows of a stack trace, the most recent ones.
    static let framesShown = 20

    /// A stack trace under `heading`, most recent call last: each frame with its line of source when the event
    /// quotes it; when some frames are the app's, each run of frames that are not is folded into a count: those
    /// that say `in_app: false` and those that do not say (sentry-python marks the app's frames only).
    private static func lines(
        of frames: [SentryEvent.Stacktrace.Frame], heading: String, style: TextStyle
    ) -> [String] {
        let foldsLibraries = frames.contains { $0.inApp == true }
        var entries: [[String]] = []
        var folded = 0
        func flush() {
            if folded > 0 { entries.append(["  … \(counted(folded, "frame")) not in app"]) }
            folded = 0
        }
        for frame in frames {
            if foldsLibraries, frame.inApp != true {
                folded += 1
                continue
            }
            flush()
            var entry = ["  " + line(of: frame)]
            if let source = frame.contextLine?.trimmingCharacters(in: .whitespaces), !source.isEmpty {
                entry.append("      " + TerminalText.safe(source))
            }
            entries.append(entry)
        }
        flush()
        let shown = entries.suffix(framesShown)
        let last = shown.count < entries.count ? "last \(shown.count) of \(entries.count) entries, " : ""
        return [style.bold("\(heading) (\(last)most recent call last):")] + shown.flatMap { $0 }
    }

    /// `Module/File.swift:42 in pay(_:)`, the place a frame names, with its binary when it has no file; a frame
    /// that is not the app's is marked so.
    private static func line(of frame: SentryEvent.Stacktrace.Frame) -> String {
        let safe = TerminalText.safe
        var place = frame.filename.map(safe) ?? frame.module.map(safe) ?? frame.package.map(safe) ?? "?"
        if let line = frame.lineno { place += ":\(line)" }
        let function = frame.function.map { " in \(safe($0))" } ?? ""
        return place + function + (frame.inApp == false ? "  (not in app)" : "")
    }
}

extension EventDetail {
    /// One exception of an event's chain and the frames of its stack trace, oldest first.
    package struct ChainedException: Hashable, Sendable, Encodable {
        package let type: String
        package let value: String
        package let stacktrace: [SentryEvent.Stacktrace.Frame]
    }

    /// A breadcrumb of the event, with the request an `http` breadcrumb records: its method, URL and status.
    package struct Crumb: Hashable, Sendable, Encodable {
        package let timestamp: String
        package let category: String?
        package let level: String
        package let message: String?
        package let method: String?
        package let url: String?
        package let statusCode: Int?

        enum CodingKeys: String, CodingKey {
            case timestamp, category, level, message, method, url
            case statusCode = "status_code"
        }

        init(_ breadcrumb: Breadcrumb) {
            timestamp = breadcrumb.timestamp
            category = breadcrumb.category
            level = breadcrumb.level.rawValue
            message = breadcrumb.message
            method = breadcrumb.data?["method"]?.stringValue
            url = breadcrumb.data?["url"]?.stringValue
            statusCode =
                switch breadcrumb.data?["status_code"] {
                case .int(let status): status
                case .string(let text): Int(text)
                default: nil
                }
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(timestamp, forKey: .timestamp)
            try container.encode(category, forKey: .category)
            try container.encode(level, forKey: .level)
            try container.encode(message, forKey: .message)
            try container.encode(method, forKey: .method)
            try container.encode(url, forKey: .url)
            try container.encode(statusCode, forKey: .statusCode)
        }

        /// What the terminal shows after the level and category: the message, and the request with its status.
        var summary: String {
            let request = [method, url, statusCode.map { "→ \($0)" }].compactMap { $0 }.joined(separator: " ")
            return [message, request.isEmpty ? nil : request].compactMap { $0 }.joined(separator: "  ")
        }
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }

    fileprivate func padding(toLength length: Int) -> String {
        let width = TerminalText.width(self)
        return width >= length ? self : self + String(repeating: " ", count: length - width)
    }
}
