import Foundation

/// A port for a peer started in another process (Bugsink, Prometheus), which must be told where to listen.
package enum LoopbackPort {
    /// Why no port could be found.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now: the system's choice for a socket bound to port 0.
    package static func unused() throws -> Int {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socket, generic, length) == 0 && getsockname(socket, generic, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
