/// Which of a rule set's patterns (``StackTraceRuleSet``) a frame's values match, by their number: a bit set of fixed
/// size that holds no reference, so that the rules read and copy frames without reference counting.
struct PatternMatches {
    /// How many patterns a rule set can number.
    static let capacity = 256

    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// No pattern matched.
    init() {}

    func contains(_ pattern: Int) -> Bool {
        let bit = UInt64(1) << UInt64(pattern % 64)
        return switch pattern / 64 {
        case 0: words.0 & bit != 0
        case 1: words.1 & bit != 0
        case 2: words.2 & bit != 0
        default: words.3 & bit != 0
        }
    }

    mutating func insert(_ pattern: Int) {
        let bit = UInt64(1) << UInt64(pattern % 64)
        switch pattern / 64 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }
}
