import Foundation
import TestSupport
import Testing

/// A raw TCP connection to 127.0.0.1, for requests URLSession cannot send: cut short, or never finished.
struct LoopbackConnection {
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        if !connected { Foundation.close(descriptor) }
        try #require(connected, "cannot connect to 127.0.0.1:\(port)")
    }

    /// Writes `text`; whether all of it was written.
    func write(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return Foundation.write(descriptor, bytes, bytes.count) == bytes.count
    }

    /// Whether the server closes the connection within `timeout`, reading and discarding what it sends meanwhile.
    func isClosedByTheServer(within timeout: Duration) async throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        return try await eventually(within: timeout) {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&waiting, 1, 0) > 0, waiting.revents != 0 {
                if read(descriptor, &buffer, buffer.count) <= 0 { return true }
            }
            return false
        }
    }

    /// What the server sends until it closes the connection or `timeout` passes, as text (invalid UTF-8 repaired).
    func response(within timeout: Duration) async throws -> String {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        _ = try? await eventually(within: timeout) {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&waiting, 1, 0) > 0, waiting.revents != 0 {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { return true }
                received.append(contentsOf: buffer[0..<count])
            }
            return false
        }
        return String(decoding: received, as: UTF8.self)
    }

    func close() {
        Foundation.close(descriptor)
    }
}
