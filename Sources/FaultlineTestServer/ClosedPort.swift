#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
    import Darwin
    private let streamSocket = SOCK_STREAM
#endif

/// A port on 127.0.0.1 where nothing listens: a TCP socket bound to it that never listens, so connecting is refused.
///
/// A port a stopped server just gave back can be handed to the next server that asks for any port, such as another
/// test's, running in parallel; a held port cannot. ``release()`` gives it back, to start a server on it.
public final class ClosedPort: @unchecked Sendable {
    /// The port.
    public let port: Int
    // Written once, by `release()`, which tests call from one task.
    private var descriptor: Int32

    /// Binds a socket to a port the OS chooses; fails with the `errno` of the call that failed.
    public init() throws {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw ClosedPortError(call: "socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            let error = ClosedPortError(call: "bind", errno: errno)
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { release() }

    /// Closes the socket: the port is free again, for a server to start on it.
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }
}

/// Why a ``ClosedPort`` could not be made.
public struct ClosedPortError: Error, CustomStringConvertible {
    /// The system call that failed.
    public let call: String
    /// Its error number.
    public let errno: Int32

    public var description: String { "\(call) failed: \(String(cString: strerror(errno)))" }
}
