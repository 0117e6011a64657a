import Foundation

extension Data {
    /// Writes all of the data to the open file `descriptor`, retrying after interruptions and short writes: the
    /// `errno` of the failure that stopped it, `nil` when everything was written.
    func write(toDescriptor descriptor: Int32) -> Int32? {
        withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let written = Foundation.write(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }
}
