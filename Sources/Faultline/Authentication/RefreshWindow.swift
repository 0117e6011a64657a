/// A limit on refreshes: at most ``maximumRefreshes`` within ``interval``. Past it, the session is expired instead of
/// refreshing again, which stops a refresh loop when the server rejects every new credential.
public struct RefreshWindow: Hashable, Sendable, CustomStringConvertible {
    /// The most refreshes allowed within ``interval``; 5 by default.
    public var maximumRefreshes: Int
    /// The sliding window the limit applies to; 30 seconds by default.
    public var interval: Duration

    /// Creates a window; the defaults are 5 refreshes in 30 seconds (Alamofire's `RefreshWindow`).
    public init(maximumRefreshes: Int = 5, interval: Duration = .seconds(30)) {
        self.maximumRefreshes = maximumRefreshes
        self.interval = interval
    }

    public var description: String { "\(maximumRefreshes) in \(interval)" }
}
