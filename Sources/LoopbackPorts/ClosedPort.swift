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
package final class ClosedPort: @unchecked Sendable {
    /// The port.
    package let port: Int
    // Written once, by `release()`, which tests call from one task.
    private var descriptor: Int32

    /// Binds a socket to a free port below the ephemeral ranges of Linux (from 32768) and Apple's systems (from
    /// 49152); fails with the `errno` of the call that failed.
    ///
    /// Not a port the OS chooses: those come from the ephemeral range, so once released, the port could become the
    /// local end of another test's outgoing connection, which a pooled connection keeps for a minute, and a server
    /// could not start on it meanwhile.
    package init() throws {
        var attempts = 0
        var port = Int.random(in: 20_000...32_000)
        var bound = Self.socket(boundTo: port, reusingAddress: false)
        while case .failure(let error) = bound, error.errno == EADDRINUSE, attempts < 100 {
            attempts += 1
            port = Int.random(in: 20_000...32_000)
            bound = Self.socket(boundTo: port, reusingAddress: false)
        }
        descriptor = try bound.get()
        self.port = port
    }

    /// Holds `port`, which a server listening on it until a moment ago gave back, for it to start there again: while
    /// it is held, connecting is refused as from a server that is down, and no server that asks for any port gets it.
    ///
    /// The socket reuses the address, as servers do, so the connections the server closed a moment ago (waiting out
    /// their `TIME_WAIT` on this port) do not stop it binding; the system never hands out such a port to a server that
    /// asks for any port, as it would a port nothing holds.
    package init(holding port: Int) throws {
        descriptor = try Self.socket(boundTo: port, reusingAddress: true).get()
        self.port = port
    }

    /// A TCP socket, closed on exec, bound to `port` on 127.0.0.1.
    private static func socket(boundTo port: Int, reusingAddress: Bool) -> Result<Int32, ClosedPortError> {
        #if canImport(Glibc)
            let descriptor = Glibc.socket(AF_INET, streamSocket | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let descriptor = Darwin.socket(AF_INET, streamSocket, 0)
        #endif
        guard descriptor >= 0 else { return .failure(ClosedPortError(call: "socket", errno: errno)) }
        var on: Int32 = 1
        if reusingAddress,
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size)) != 0
        {
            let error = ClosedPortError(call: "setsockopt", errno: errno)
            close(descriptor)
            return .failure(error)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard bound else {
            let error = ClosedPortError(call: "bind", errno: errno)
            close(descriptor)
            return .failure(error)
        }
        return .success(descriptor)
    }

    deinit { release() }

    /// Closes the socket: the port is free again, for a server to start on it.
    package func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }
}

/// Why a ``ClosedPort`` could not be made.
package struct ClosedPortError: Error, CustomStringConvertible {
    /// The system call that failed.
    package let call: String
    /// Its error number.
    package let errno: Int32

    package var description: String { "\(call) failed: \(String(cString: strerror(errno)))" }
}
