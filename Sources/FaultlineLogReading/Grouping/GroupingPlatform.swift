/// What Sentry's grouping reads of a frame depends on its platform (the frame's own, else the event's): the source
/// line only where Sentry trusts it, native function names trimmed to the name and without the placeholders
/// symbolication leaves, JavaScript function names without their receiver.
struct GroupingPlatform: Equatable {
    /// Sentry's behaviour families: what its stack trace rules (`family:native`) and normalizations tell apart.
    enum Family: CaseIterable {
        /// Objective-C, Cocoa, Swift, native and C.
        case native
        /// JavaScript and Node.
        case javascript
        case other
    }

    /// The platform's name as sent, `python`, `cocoa`; empty when the event names none.
    let name: String
    /// Its family, read once: the rules ask it of every frame.
    let family: Family
    /// Python, JavaScript, Node, PHP and Ruby: a frame's `context_line` counts.
    let usesContextLine: Bool

    /// The platform named by `name`.
    init(_ name: UnsafeBufferPointer<UInt8>) {
        self.init(name: String(decoding: name, as: UTF8.self))
    }

    /// A platform that reads neither, as an event without `platform` is.
    init() {
        self.init(name: "")
    }

    private init(name: String) {
        self.name = name
        family =
            switch name {
            case "objc", "cocoa", "swift", "native", "c": .native
            case "javascript", "node": .javascript
            default: .other
            }
        usesContextLine = ["python", "javascript", "node", "php", "ruby"].contains(name)
    }
}
