/// A 64-bit hash of the values Sentry's grouping reads (a frame's module, function and context line), fed as they are
/// scanned so that no string is built: FNV-1a over the bytes, each value ended by a byte UTF-8 never holds, so that
/// `["ab", "c"]` and `["a", "bc"]` differ. Shown mixed by SplitMix64's finalizer, so that values that differ by one
/// byte do not share a prefix.
struct GroupingHash: Hashable {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of nothing yet.
    init() {}

    mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes { add(byte) }
    }

    /// Ends a value.
    mutating func end() {
        add(0xFF)
    }

    /// Adds another hash as one value.
    mutating func add(_ other: GroupingHash) {
        var bits = other.value
        for _ in 0..<8 {
            add(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
        end()
    }

    /// 16 hex digits.
    var hex: String {
        var mixed = value
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        mixed ^= mixed >> 31
        let digits = String(mixed, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
