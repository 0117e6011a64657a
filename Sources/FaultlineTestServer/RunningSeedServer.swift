public import Foundation

/// A seed server that is accepting requests, as ``SeedServer/run(_:)`` hands it to its body.
public struct RunningSeedServer: Sendable {
    /// `http://127.0.0.1:<port>`, with the port the OS chose.
    public let baseURL: URL
    /// The server's tokens and counters, to drive and inspect while it runs.
    public let state: SeedServerState
}
