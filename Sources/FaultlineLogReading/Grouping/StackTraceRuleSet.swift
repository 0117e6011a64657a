/// Stack trace rules (``StackTraceRule``) made ready to apply to millions of frames. Each distinct pattern is given
/// a number and matched once per frame, against the frame's values folded once (``state(of:)``); the rules then read
/// only plain values (``FrameRuleState``). Categories are numbers, and the rules whose frame must be of another
/// family are set aside for a stack trace whose frames are all of one family.
struct StackTraceRuleSet {
    /// What of a frame a rule reads, after the frame's own values are matched.
    fileprivate enum Test {
        case family(GroupingPlatform.Family)
        case pattern(Int)
        case category(UInt8)
        case inApp(Bool)
    }

    fileprivate struct Matcher {
        var test: Test
        var isNegated: Bool
        /// Where the frame it reads is from the one the rule is matched at: -1 its caller, 1 its callee.
        var offset: Int
    }

    fileprivate enum Action {
        case inApp(Bool, StackTraceRule.Range)
        case group(Bool, StackTraceRule.Range)
        case category(UInt8)
    }

    fileprivate struct Rule {
        var matchers: [Matcher]
        var actions: [Action]
        /// The family its frame must be of, when it says.
        var family: GroupingPlatform.Family?

        func matches(_ frames: UnsafeBufferPointer<FrameRuleState>, at index: Int) -> Bool {
            for matcher in matchers {
                let target = index + matcher.offset
                guard target >= 0, target < frames.count, matcher.isNegated != frames[target].satisfies(matcher.test)
                else { return false }
            }
            return true
        }
    }

    /// The frame value a pattern is matched against.
    private enum Value: CaseIterable {
        case package, path, module, function

        var isPath: Bool { self == .package || self == .path }
    }

    /// The rules of each pass, in their order.
    fileprivate struct Passes {
        /// The rules that change frames (in-app or category), applied first, rule by rule, so that the rules after
        /// see what the rules before set.
        var modifying: [Rule] = []
        /// The rules that decide what counts, applied to the frames as the first pass left them.
        var grouping: [Rule] = []
    }

    private let patterns: [GroupingGlob]
    /// For the frames of each family, the patterns to match against each of their values: those the rules that
    /// may apply to the frame read of it, and those any rule reads of a caller or a callee.
    private let patternsToMatch: [GroupingPlatform.Family: [(Value, [Int])]]
    /// The passes for a stack trace whose frames are of one family; under `nil`, every rule, for one that mixes.
    private let passes: [GroupingPlatform.Family?: Passes]

    init(_ rules: [StackTraceRule]) {
        var patterns: [GroupingGlob] = []
        var patternValues: [Value] = []
        var patternNumbers: [StackTraceRule.Field: Int] = [:]
        var categories: [String: UInt8] = [:]
        func category(_ name: String) -> UInt8 {
            if let number = categories[name] { return number }
            let number = UInt8(categories.count)
            categories[name] = number
            return number
        }
        func pattern(_ field: StackTraceRule.Field, _ value: Value, _ glob: GroupingGlob) -> Int {
            if let number = patternNumbers[field] { return number }
            precondition(patterns.count < PatternMatches.capacity, "too many patterns in the stack trace rules")
            patterns.append(glob)
            patternValues.append(value)
            patternNumbers[field] = patterns.count - 1
            return patterns.count - 1
        }
        var compiled: [Rule] = []
        var neighbourPatterns: Set<Int> = []
        for rule in rules {
            var family: GroupingPlatform.Family?
            let matchers = rule.matchers.map { matcher in
                let test: Test =
                    switch matcher.field {
                    case .family(let value): .family(value)
                    case .package(let glob): .pattern(pattern(matcher.field, .package, glob))
                    case .path(let glob): .pattern(pattern(matcher.field, .path, glob))
                    case .module(let glob): .pattern(pattern(matcher.field, .module, glob))
                    case .function(let glob): .pattern(pattern(matcher.field, .function, glob))
                    case .category(let name): .category(category(name))
                    case .inApp(let value): .inApp(value)
                    }
                let offset =
                    switch matcher.place {
                    case .frame: 0
                    case .caller: -1
                    case .callee: 1
                    }
                if case .family(let value) = test, offset == 0, !matcher.isNegated { family = value }
                if case .pattern(let number) = test, offset != 0 { neighbourPatterns.insert(number) }
                return Matcher(test: test, isNegated: matcher.isNegated, offset: offset)
            }
            let actions = rule.actions.map { action -> Action in
                switch action {
                case .inApp(let value, let range): .inApp(value, range)
                case .group(let value, let range): .group(value, range)
                case .category(let name): .category(category(name))
                }
            }
            // the tests that read no pattern first: they fail most rules at once
            let ordered = matchers.filter { !$0.readsPattern } + matchers.filter(\.readsPattern)
            compiled.append(Rule(matchers: ordered, actions: actions, family: family))
        }
        self.patterns = patterns
        var patternsToMatch: [GroupingPlatform.Family: [(Value, [Int])]] = [:]
        var passes: [GroupingPlatform.Family?: Passes] = [nil: Passes(compiled)]
        for family in GroupingPlatform.Family.allCases {
            let applicable = compiled.filter { $0.family == nil || $0.family == family }
            passes[family] = Passes(applicable)
            var numbers = neighbourPatterns
            for rule in applicable {
                for matcher in rule.matchers where matcher.offset == 0 {
                    if case .pattern(let number) = matcher.test { numbers.insert(number) }
                }
            }
            patternsToMatch[family] = Value.allCases.map { value in
                (value, numbers.filter { patternValues[$0] == value }.sorted())
            }
        }
        self.patternsToMatch = patternsToMatch
        self.passes = passes
    }

    /// What the rules read of `frame`: its values matched against the patterns that may apply to it.
    func state(of frame: GroupingFrame) -> FrameRuleState {
        let platform = frame.platform ?? GroupingPlatform()
        var state = FrameRuleState(family: platform.family, patterns: PatternMatches(), inApp: frame.inApp)
        for (value, numbers) in patternsToMatch[platform.family] ?? [] where !numbers.isEmpty {
            let text: String? =
                switch value {
                case .package: frame.package
                case .path: frame.absolutePath ?? frame.fileName
                case .module: frame.module
                case .function: frame.functionName(platform: platform)
                }
            guard var text else { continue }
            text.withUTF8 { bytes in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { buffer in
                    for index in bytes.indices {
                        buffer[index] = GroupingGlob.folded(bytes[index], isPath: value.isPath)
                    }
                    let folded = UnsafeBufferPointer(rebasing: buffer[..<bytes.count])
                    for number in numbers where patterns[number].matches(folded) { state.patterns.insert(number) }
                }
            }
        }
        return state
    }

    /// Applies the rules to a stack trace's frames, oldest first, as Sentry does: the rules that change frames one
    /// after the other, each to every frame it matches (all matched before any is changed); then the grouping
    /// rules, to the frames as changed.
    func apply(to frames: inout [FrameRuleState]) {
        guard let family = frames.first?.family else { return }
        guard let passes = passes[frames.allSatisfy { $0.family == family } ? family : nil] else { return }
        var matching: [Int] = []
        matching.reserveCapacity(frames.count)
        for rule in passes.modifying {
            Self.collect(rule, in: frames, into: &matching)
            for index in matching {
                for action in rule.actions {
                    switch action {
                    case .inApp(let value, let range):
                        for target in Self.targets(range, of: index, count: frames.count) {
                            frames[target].inApp = value
                        }
                    case .category(let number): frames[index].category = number
                    case .group: break
                    }
                }
            }
        }
        for rule in passes.grouping {
            Self.collect(rule, in: frames, into: &matching)
            for index in matching {
                for case .group(let value, let range) in rule.actions {
                    for target in Self.targets(range, of: index, count: frames.count) {
                        frames[target].counts = value
                    }
                }
            }
        }
    }

    private static func collect(_ rule: Rule, in frames: [FrameRuleState], into matching: inout [Int]) {
        matching.removeAll(keepingCapacity: true)
        frames.withUnsafeBufferPointer { frames in
            for index in frames.indices where rule.matches(frames, at: index) { matching.append(index) }
        }
    }

    private static func targets(_ range: StackTraceRule.Range, of index: Int, count: Int) -> Range<Int> {
        switch range {
        case .frame: index..<(index + 1)
        case .callees: (index + 1)..<count
        case .callers: 0..<index
        }
    }
}

extension StackTraceRuleSet.Passes {
    fileprivate init(_ rules: [StackTraceRuleSet.Rule]) {
        for rule in rules {
            if rule.actions.contains(where: \.modifiesFrames) { modifying.append(rule) }
            if rule.actions.contains(where: { !$0.modifiesFrames }) { grouping.append(rule) }
        }
    }
}

extension StackTraceRuleSet.Action {
    fileprivate var modifiesFrames: Bool {
        switch self {
        case .inApp, .category: true
        case .group: false
        }
    }
}

extension StackTraceRuleSet.Matcher {
    fileprivate var readsPattern: Bool {
        if case .pattern = test { true } else { false }
    }
}

extension FrameRuleState {
    fileprivate func satisfies(_ test: StackTraceRuleSet.Test) -> Bool {
        switch test {
        case .family(let value): family == value
        case .pattern(let number): patterns.contains(number)
        case .category(let number): category == number
        case .inApp(let value): inApp == value
        }
    }
}
