import NIOCore

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// A loopback server stopped before it reported the port it listens on.
struct LoopbackServerStartFailure: Error, CustomStringConvertible {
    let server: String
    /// Why it stopped, when it said.
    let cause: (any Error)?

    /// Whether its port was in use.
    var isAddressInUse: Bool { (cause as? IOError)?.errnoCode == EADDRINUSE }

    var description: String {
        "the \(server) stopped before it was listening on 127.0.0.1\(cause.map { ": \($0)" } ?? "")"
    }
}
