import FaultlineLogReading

extension GroupingExplanation {
    /// The explanation as `show` prints it under "grouped by": what decided, then each value with where it is.
    var lines: [String] {
        let safe = TerminalText.safe
        let width = values.map(\.path.count).max() ?? 0
        return [variant.summary]
            + values.map {
                "  " + $0.path.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + safe($0.value)
            }
    }
}

extension GroupingExplanation.Variant {
    /// What decided, in words.
    var summary: String {
        switch self {
        case .fingerprint: "the fingerprint the event sent"
        case .app: "the exception and its in-app frames (Sentry's app variant)"
        case .system: "the exception and every frame, as none is in-app (Sentry's system variant)"
        case .default: "the template or the message, as no exception or frame counts"
        case .fallback: "nothing: no exception, frame or message counts"
        }
    }
}
