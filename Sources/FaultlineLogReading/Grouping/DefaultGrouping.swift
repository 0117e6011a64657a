/// Sentry's default grouping, for an event that sends no fingerprint or one with `{{ default }}`
/// (newstyle:2023-01-11, the default of Sentry's projects). The first of these that the event has decides:
///
/// 1. Its exception chain: each exception's type and its stack trace's in-app frames (``StackTraceGrouping``); when
///    no exception of the chain has an in-app frame, every frame; an exception without a frame that counts adds its
///    value, normalised (``MessageParameterization``).
/// 2. The stack trace of its one crashed (else current, else only) thread (``ThreadGrouping``).
/// 3. Its own `stacktrace`.
/// 4. Its message: the `logentry` template before formatting (`Invoice %s failed to render`) when it has one, else
///    the message, normalised.
///
/// Sentry keeps both an app and a system hash and joins an event to a group either matches; Faultline keeps the
/// first that counts, so two events whose in-app frames differ are two issues even when all their frames match.
/// The parts are readable where they can be (`["KeyError", "in-app stack 3f…"]`, `["message", "user <int> not
/// found"]`), so that `show` says what an issue was grouped by.
enum DefaultGrouping {
    /// Where the members grouping reads are in an event's bytes, and the message it falls back on.
    struct Sources {
        var exception: Range<Int>?
        var threads: Range<Int>?
        var stackTrace: Range<Int>?
        var platform: Range<Int>?
        /// The message before formatting, when the event sent one (`logentry.message`).
        var template: String?
    }

    /// What `{{ default }}` stands for in an event's fingerprint, read from the members `sources` locates in
    /// `bytes`; `message` is the event's formatted message.
    static func fingerprint(_ sources: Sources, message: String?, in bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var platform = GroupingPlatform()
        if let range = sources.platform {
            var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[range]))
            _ = scanner.withStringBytes { platform = GroupingPlatform($0) }
        }
        if let range = sources.exception {
            var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[range]))
            let parts = exceptionParts(ExceptionGrouping.chain(&scanner, platform: platform))
            if !parts.isEmpty { return parts }
        }
        if let range = sources.threads {
            var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[range]))
            if let part = ThreadGrouping.stackTrace(&scanner, platform: platform).flatMap(stackPart) { return [part] }
        }
        if let range = sources.stackTrace {
            var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[range]))
            var stackTrace = StackTraceGrouping()
            if stackTrace.read(&scanner, platform: platform), let part = stackPart(stackTrace) { return [part] }
        }
        let text = sources.template ?? message ?? ""
        return ["message", MessageParameterization.normalized(text)]
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
    private static func exceptionParts(_ chain: [ExceptionGrouping]) -> [String] {
        let isApp = chain.contains { $0.stackTrace.appFrames > 0 }
        var parts: [String] = []
        var frames = GroupingHash()
        var hasFrames = false
        for exception in chain {
            if let type = exception.type, !type.isEmpty, !exception.isSynthetic { parts.append(type) }
            if let nsError = exception.nsError { parts.append("NSError \(nsError)") }
            let stackTrace = exception.stackTrace
            if isApp ? stackTrace.appFrames > 0 : stackTrace.systemFrames > 0 {
                frames.add(isApp ? stackTrace.app : stackTrace.system)
                hasFrames = true
            } else if exception.nsError == nil, let value = exception.value {
                let normalized = MessageParameterization.normalized(value)
                if !normalized.isEmpty { parts.append(normalized) }
            }
        }
        if hasFrames { parts.append((isApp ? "in-app stack " : "stack ") + frames.hex) }
        return parts
    }

    /// The part a stack trace alone gives: its in-app frames, else all its frames; `nil` when no frame counts.
    private static func stackPart(_ stackTrace: StackTraceGrouping) -> String? {
        if stackTrace.appFrames > 0 { return "in-app stack " + stackTrace.app.hex }
        return stackTrace.systemFrames > 0 ? "stack " + stackTrace.system.hex : nil
    }
}
