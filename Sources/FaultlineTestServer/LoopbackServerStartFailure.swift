/// A loopback server stopped before it reported the port it listens on.
struct LoopbackServerStartFailure: Error, CustomStringConvertible {
    let server: String

    var description: String { "the \(server) stopped before it was listening on 127.0.0.1" }
}
