import FaultlineRecords

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

    /// Reads the stack trace object at the cursor, `{"frames": […]}`; `false` when it is malformed. A stack trace
    /// grouped before is looked up (``StackTraceMemo``), unless the values are to be explained or frames were read
    /// into this grouping already.
    mutating func read(_ scanner: inout JSONScanner, platform: GroupingPlatform) -> Bool {
        guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
        guard !isExplaining, systemFrames == 0 else { return readFrames(&scanner, platform: platform) }
        var keyScanner = scanner
        guard let key = StackTraceMemo.Key(&keyScanner, platform: platform) else {
            return readFrames(&scanner, platform: platform)
        }
        if let known = StackTraceMemo.shared[key] {
            self = known
            scanner = keyScanner
            return true
        }
        guard readFrames(&scanner, platform: platform) else { return false }
        StackTraceMemo.shared[key] = self
        return true
    }

    private mutating func readFrames(_ scanner: inout JSONScanner, platform: GroupingPlatform) -> Bool {
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
                frames.append(frame)
                return true
            }
        }
        guard isRead else { return false }
        let rules = DefaultStackTraceRules.ruleSet
        var states = frames.map(rules.state(of:))
        rules.apply(to: &states)
        var previous: UInt64?
        for index in frames.indices {
            let identity = frames[index].identity
            defer { previous = identity }
            guard states[index].counts, identity != previous,
                let values = FrameGroupingValues(frames[index], platform: frames[index].platform ?? platform)
            else { continue }
            add(values, isInApp: states[index].inApp)
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
