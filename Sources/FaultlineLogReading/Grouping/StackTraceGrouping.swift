/// One stack trace as Sentry's default grouping reads it. Sentry's stack trace rules (``DefaultStackTraceRules``)
/// first say which frames are the app's and which do not count; then each frame counts by what
/// ``FrameGroupingValues`` reads of it (its module, else its file's base name; its function; where the platform's
/// source lines are trusted, its context line), never by its line number. A frame identical to the one just before
/// it (recursion) counts once. The in-app frames make the app hash and every frame the system hash, as Sentry's two
/// grouping variants do.
struct StackTraceGrouping {
    private(set) var app = GroupingHash()
    private(set) var appFrames = 0
    private(set) var system = GroupingHash()
    private(set) var systemFrames = 0
    /// The values that counted, `frame/function` and the like, when explaining; else empty.
    private(set) var appValues: [GroupingExplanation.Value] = []
    private(set) var systemValues: [GroupingExplanation.Value] = []
    /// Whether to keep the values that count as text, for ``GroupingExplanation``; grouping alone only hashes them.
    private let isExplaining: Bool

    init(explaining: Bool = false) {
        isExplaining = explaining
    }

    /// Reads the stack trace object at the cursor, `{"frames": […]}`; `false` when it is malformed.
    mutating func read(_ scanner: inout JSONScanner, platform: GroupingPlatform) -> Bool {
        guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
        var frames: [GroupingFrame] = []
        let isRead = scanner.object { key, scanner in
            guard JSONScanner.isKey(key, "frames"), scanner.nextValueKind() == .array else {
                return scanner.skipValue()
            }
            return scanner.array { scanner in
                guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
                var frame = GroupingFrame()
                guard frame.read(&scanner) else { return false }
                if frame.platform == nil { frame.platform = platform }
                frame.prepareForRules()
                frames.append(frame)
                return true
            }
        }
        guard isRead else { return false }
        DefaultStackTraceRules.apply(to: &frames)
        var previous: UInt64?
        for frame in frames {
            defer { previous = frame.identity }
            guard frame.counts, frame.identity != previous,
                let values = FrameGroupingValues(frame, platform: frame.platform ?? platform)
            else { continue }
            add(values, isInApp: frame.inApp)
        }
        return true
    }

    private mutating func add(_ values: FrameGroupingValues, isInApp: Bool) {
        let explained = isExplaining ? values.explained : []
        system.add(values.hash)
        systemFrames += 1
        systemValues += explained
        guard isInApp else { return }
        app.add(values.hash)
        appFrames += 1
        appValues += explained
    }
}
