/// What the stack trace rules read and set of one frame (``StackTraceRuleSet``): its family, which of the rules'
/// patterns its values match, whether it is the app's, what it is and whether it counts. A plain value: the rules
/// read every frame many times.
struct FrameRuleState {
    var family: GroupingPlatform.Family
    var patterns: PatternMatches
    var inApp: Bool
    /// What the rules said the frame is (`system`, `threadbase`…), by its number in the rule set; `nil` until one
    /// did.
    var category: UInt8?
    /// Whether the rules let it count.
    var counts = true
}
