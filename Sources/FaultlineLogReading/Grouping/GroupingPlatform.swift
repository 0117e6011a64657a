/// What Sentry's grouping reads of a frame depends on its platform (the frame's own, else the event's): the source
/// line only where Sentry trusts it, and native function names without the placeholders symbolication leaves.
struct GroupingPlatform: Equatable {
    /// Python, JavaScript, Node, PHP and Ruby: a frame's `context_line` counts.
    var usesContextLine = false
    /// Objective-C, Cocoa, Swift, native and C: `<redacted>` and `<unknown>` functions do not count.
    var isNative = false

    /// The platform named by `name`; an unknown name reads neither.
    init(_ name: UnsafeBufferPointer<UInt8>) {
        for (platform, isNative) in Self.names where JSONScanner.isKey(name, platform) {
            usesContextLine = !isNative
            self.isNative = isNative
            return
        }
    }

    /// A platform that reads neither, as an event without `platform` is.
    init() {}

    private static let names: [(StaticString, Bool)] = [
        ("python", false), ("javascript", false), ("node", false), ("php", false), ("ruby", false),
        ("objc", true), ("cocoa", true), ("swift", true), ("native", true), ("c", true),
    ]
}
