import FaultlineRecords

/// Sentry's default grouping, for an event that sends no fingerprint or one with `{{ default }}`
/// (newstyle:2023-01-11, the default of Sentry's projects). The first of these that the event has decides:
///
/// 1. Its exception chain: each exception's type and its stack trace's in-app frames (``StackTraceGrouping``); when
///    no exception of the chain has an in-app frame, every frame; an exception without a frame that counts adds its
///    value, normalised (``MessageParameterization``).
/// 2. The stack trace of its one crashed (else current, else only) thread (``ThreadGrouping``).
/// 3. Its own `stacktrace`.
/// 4. Its `template` (where a template failed to render): the file's base name and the line.
/// 5. Its message: the `logentry` template before formatting (`Invoice %s failed to render`) when it has one, else
///    the message, normalised.
///
/// Sentry keeps both an app and a system hash and joins an event to a group either matches; Faultline keeps the
/// first that counts, so two events whose in-app frames differ are two issues even when all their frames match.
/// The parts are readable where they can be (`["KeyError", "in-app stack 3f…"]`, `["message", "user <int> not
/// found"]`), so that `show` says what an issue was grouped by.
enum DefaultGrouping {
    /// What `{{ default }}` stands for in an event's fingerprint, read from the members `sources` locates in
    /// `bytes`; `message` is the event's formatted message.
    static func fingerprint(
        _ sources: EventScan.GroupingSources, message: String?, in bytes: UnsafeBufferPointer<UInt8>
    ) -> [String] {
        group(sources, message: message, in: bytes, explaining: false).parts
    }

    /// The values the default grouping of the event counted, as ``fingerprint(_:message:in:)`` reads them.
    static func explanation(
        _ sources: EventScan.GroupingSources, message: String?, in bytes: UnsafeBufferPointer<UInt8>
    ) -> GroupingExplanation {
        group(sources, message: message, in: bytes, explaining: true).explanation
    }

    private static func group(
        _ sources: EventScan.GroupingSources, message: String?, in bytes: UnsafeBufferPointer<UInt8>, explaining: Bool
    ) -> (parts: [String], explanation: GroupingExplanation) {
        var platform = GroupingPlatform()
        if let range = sources.platform {
            var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[range]))
            _ = scanner.withStringBytes { platform = GroupingPlatform($0) }
        }
        if let range = sources.exception {
            var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[range]))
            let chain = ExceptionGrouping.chain(&scanner, platform: platform, explaining: explaining)
            let grouped = exceptionParts(ExceptionGrouping.filteringGroups(chain))
            if !grouped.parts.isEmpty { return grouped }
        }
        if let range = sources.threads {
            var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[range]))
            if let stackTrace = ThreadGrouping.stackTrace(&scanner, platform: platform, explaining: explaining),
                let grouped = stackPart(stackTrace, at: "threads/stacktrace/")
            {
                return grouped
            }
        }
        if let range = sources.stackTrace {
            var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[range]))
            var stackTrace = StackTraceGrouping(explaining: explaining)
            if stackTrace.read(&scanner, platform: platform), let grouped = stackPart(stackTrace, at: "stacktrace/") {
                return grouped
            }
        }
        if let range = sources.template {
            var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[range]))
            if let grouped = templatePart(&scanner) { return grouped }
        }
        let normalized = MessageParameterization.normalized(sources.messageTemplate ?? message ?? "")
        guard !normalized.isEmpty else { return (["message", normalized], .init(variant: .fallback, values: [])) }
        return (["message", normalized], .init(variant: .default, values: [.init(path: "message", value: normalized)]))
    }

    /// Whether a fingerprint part is `{{ default }}`, spaces aside. This runs for every part of every event, so an
    /// ASCII part, as almost all are, is compared byte by byte, without building the filtered string.
    static func isDefault(_ part: String) -> Bool {
        let target: StaticString = "{{default}}"
        var matched = 0
        var isMatching = true
        for byte in part.utf8 {
            guard byte < 0x80 else { return part.filter { $0 != " " } == "{{default}}" }
            guard isMatching, byte != UInt8(ascii: " ") else { continue }
            if matched < target.utf8CodeUnitCount, byte == target.utf8Start[matched] {
                matched += 1
            } else {
                isMatching = false  // read on only to find a byte that is not ASCII
            }
        }
        return isMatching && matched == target.utf8CodeUnitCount
    }

    /// The chain's parts: types, `NSError` domains and codes, values where no frame counts, then one part for the
    /// frames of the whole chain. Empty when nothing counts.
    private static func exceptionParts(_ chain: [ExceptionGrouping]) -> (
        parts: [String], explanation: GroupingExplanation
    ) {
        let isApp = chain.contains { $0.stackTrace.appFrames > 0 }
        let hasFrames = chain.contains { isApp ? $0.stackTrace.appFrames > 0 : $0.stackTrace.systemFrames > 0 }
        let prefix = chain.count > 1 ? "chained-exception/exception/" : "exception/"
        var parts: [String] = []
        var values: [GroupingExplanation.Value] = []
        var frames = GroupingHash()
        for exception in chain {
            let stackTrace = exception.stackTrace
            if isApp ? stackTrace.appFrames > 0 : stackTrace.systemFrames > 0 {
                frames.add(isApp ? stackTrace.app : stackTrace.system)
                values += (isApp ? stackTrace.appValues : stackTrace.systemValues).map {
                    .init(path: prefix + "stacktrace/" + $0.path, value: $0.value)
                }
            }
            if let type = exception.type, !type.isEmpty, !exception.isSynthetic {
                parts.append(type)
                values.append(.init(path: prefix + "type", value: type))
            }
            if let nsError = exception.nsError {
                parts.append("NSError \(nsError.domain) \(nsError.code)")
                values.append(.init(path: prefix + "ns-error", value: nsError.domain))
                values.append(.init(path: prefix + "ns-error", value: nsError.code))
            } else if !(isApp ? stackTrace.appFrames > 0 : stackTrace.systemFrames > 0), let value = exception.value {
                let normalized = MessageParameterization.normalized(value)
                if !normalized.isEmpty {
                    parts.append(normalized)
                    values.append(.init(path: prefix + "value", value: normalized))
                }
            }
        }
        if hasFrames { parts.append((isApp ? "in-app stack " : "stack ") + frames.hex) }
        return (parts, .init(variant: isApp || !hasFrames ? .app : .system, values: values))
    }

    /// The parts of a `template` interface, `{"filename": …, "context_line": …}`: its file's base name,
    /// lower-cased, and its line with whitespace collapsed; `nil` when it has neither.
    private static func templatePart(_ scanner: inout JSONScanner) -> (
        parts: [String], explanation: GroupingExplanation
    )? {
        guard scanner.nextValueKind() == .object else { return nil }
        var fileName: String?
        var contextLine: String?
        _ = scanner.object { key, scanner in
            let isFileName = JSONScanner.isKey(key, "filename")
            guard isFileName || JSONScanner.isKey(key, "context_line"), scanner.nextValueKind() == .string,
                let text = scanner.string()
            else { return scanner.skipValue() }
            if isFileName {
                fileName = text.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map { $0.lowercased() }
            } else {
                contextLine = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            }
            return true
        }
        let values = [("template/filename", fileName), ("template/context-line", contextLine)].compactMap {
            path, value in
            value.flatMap { $0.isEmpty ? nil : GroupingExplanation.Value(path: path, value: $0) }
        }
        guard !values.isEmpty else { return nil }
        return (["template"] + values.map(\.value), .init(variant: .default, values: values))
    }

    /// The part a stack trace alone gives: its in-app frames, else all its frames; `nil` when no frame counts.
    private static func stackPart(_ stackTrace: StackTraceGrouping, at prefix: String) -> (
        parts: [String], explanation: GroupingExplanation
    )? {
        let isApp = stackTrace.appFrames > 0
        guard isApp || stackTrace.systemFrames > 0 else { return nil }
        let values = (isApp ? stackTrace.appValues : stackTrace.systemValues).map {
            GroupingExplanation.Value(path: prefix + $0.path, value: $0.value)
        }
        return (
            [(isApp ? "in-app stack " : "stack ") + (isApp ? stackTrace.app : stackTrace.system).hex],
            .init(variant: isApp ? .app : .system, values: values)
        )
    }
}
