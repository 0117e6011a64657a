import Foundation

/// Finding a run of bytes in a larger one, as the tools look for a name or a marker in a line before reading it:
/// each candidate's first byte found by `memchr(3)`, the rest compared by `memcmp(3)`.
package enum ByteSearch {
    /// Whether `bytes` hold `needle` anywhere; an empty needle is in anything.
    package static func contains(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = needle.first else { return true }
        guard let base = bytes.baseAddress else { return false }
        var start = 0
        while bytes.count - start >= needle.count {
            guard let found = memchr(base + start, Int32(first), bytes.count - start - needle.count + 1) else {
                return false
            }
            if memcmp(found, needle, needle.count) == 0 { return true }
            start = base.distance(to: UnsafeRawPointer(found)) + 1
        }
        return false
    }
}
