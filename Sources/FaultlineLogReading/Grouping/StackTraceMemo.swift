import FaultlineRecords
import Foundation

/// The groupings of the stack traces read so far, by what grouping reads of them: a stack trace that comes again
/// (every event of one bug sends the same frames, with other local variables) is grouped by looking it up rather than
/// by applying the stack trace rules to each of its frames again, as Sentry caches its rules' results by a stack
/// trace's fingerprint. Shared by the threads of a scan; bounded, forgotten whole when full.
final class StackTraceMemo: @unchecked Sendable {
    /// What grouping reads of a stack trace and its platform, as a 128-bit digest of those bytes as sent: the
    /// frames' members that grouping reads (``GroupingFrame/reads(_:)``), in order, and nothing else. Two stack
    /// traces that differ only in how a value is escaped have two keys; both group alike.
    struct Key: Hashable {
        private var first: UInt64 = 0x9E37_79B9_7F4A_7C15
        private var second: UInt64 = 0xC2B2_AE3D_27D4_EB4F

        /// Reads the stack trace object at the cursor; `nil` when it is malformed, which the grouping's own reading
        /// then reports.
        init?(_ scanner: inout JSONScanner, platform: GroupingPlatform) {
            var key = Key()
            var name = platform.name
            name.withUTF8 { key.add($0) }
            let isRead = scanner.object { member, scanner in
                guard JSONScanner.isKey(member, "frames"), scanner.nextValueKind() == .array else {
                    return scanner.skipValue()
                }
                return scanner.array { scanner in
                    guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
                    key.mix(0xF4A3E)
                    return scanner.object { member, scanner in
                        guard GroupingFrame.reads(member) else { return scanner.skipValue() }
                        key.add(member)
                        return scanner.skipValue { key.add($0) }
                    }
                }
            }
            guard isRead else { return nil }
            self = key
        }

        private init() {}

        /// Adds one value: its bytes eight at a time, then what is left with the value's length.
        private mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
            let raw = UnsafeRawBufferPointer(bytes)
            var offset = 0
            while offset + 8 <= raw.count {
                mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            var rest = UInt64(raw.count) << 56
            for (index, byte) in raw[offset...].enumerated() { rest |= UInt64(byte) << (8 * UInt64(index)) }
            mix(rest)
            mix(UInt64(raw.count))
        }

        private mutating func mix(_ word: UInt64) {
            first = (first ^ word) &* 0xBF58_476D_1CE4_E5B9
            first ^= first >> 31
            second = (second &+ word) &* 0x94D0_49BB_1331_11EB
            second ^= second >> 29
        }
    }

    static let shared = StackTraceMemo()

    /// How many stack traces it keeps before it forgets them all.
    private let capacity = 20_000
    private let lock = NSLock()
    private var groupings: [Key: StackTraceGrouping] = [:]

    subscript(key: Key) -> StackTraceGrouping? {
        get { lock.withLock { groupings[key] } }
        set {
            lock.withLock {
                if groupings.count >= capacity { groupings.removeAll(keepingCapacity: true) }
                groupings[key] = newValue
            }
        }
    }
}
