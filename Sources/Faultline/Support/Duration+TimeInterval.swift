import Foundation

extension Duration {
    /// The duration in seconds, as Foundation's request timeouts take it.
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
