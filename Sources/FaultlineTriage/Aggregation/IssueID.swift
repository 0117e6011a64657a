/// The id of an issue: 32 hex digits, 128 bits of a hash of its fingerprint, stable across runs and machines, so that
/// `faultline show <id>` works on an id copied from any earlier output. It is shown abbreviated, as git abbreviates
/// commits (``abbreviations(of:)``), and any prefix that only one issue's id has finds the issue.
///
/// Each of the two 64-bit halves is FNV-1a over the fingerprint, every part preceded by its length (so no two
/// fingerprints hash the same bytes), then mixed by SplitMix64's finalizer: fingerprints that differ by one
/// character get ids that differ from the first digit, not near-identical ones.
enum IssueID {
    /// The fewest digits an id is shown with.
    static let shortLength = 8

    static func of(_ fingerprint: [String]) -> String {
        hex(hash(fingerprint, basis: 0xcbf2_9ce4_8422_2325)) + hex(hash(fingerprint, basis: 0x6c62_272e_07bb_0142))
    }

    /// Each id's shortest prefix of at least ``shortLength`` digits that no other id of `ids` starts with.
    static func abbreviations(of ids: some Sequence<String>) -> [String: String] {
        let sorted = Set(ids).sorted()
        var abbreviations: [String: String] = [:]
        abbreviations.reserveCapacity(sorted.count)
        for (index, id) in sorted.enumerated() {
            var length = shortLength
            for neighbour in [index - 1, index + 1] where sorted.indices.contains(neighbour) {
                length = max(length, commonPrefixLength(id, sorted[neighbour]) + 1)
            }
            abbreviations[id] = String(id.prefix(length))
        }
        return abbreviations
    }

    private static func commonPrefixLength(_ first: String, _ second: String) -> Int {
        zip(first.utf8, second.utf8).prefix { $0 == $1 }.count
    }

    private static func hash(_ fingerprint: [String], basis: UInt64) -> UInt64 {
        var hash = basis
        func add(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        for part in fingerprint {
            var length = part.utf8.count  // LEB128: seven bits a byte, the high bit set on all but the last
            while length > 0x7F {
                add(UInt8(truncatingIfNeeded: length) | 0x80)
                length >>= 7
            }
            add(UInt8(length))
            for byte in part.utf8 { add(byte) }
        }
        // SplitMix64's finalizer: every input bit moves every output bit.
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        return hash ^ (hash >> 31)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
