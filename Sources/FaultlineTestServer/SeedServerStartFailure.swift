/// The server stopped before it reported the port it listens on.
struct SeedServerStartFailure: Error, CustomStringConvertible {
    var description: String { "the seed server stopped before it was listening" }
}
