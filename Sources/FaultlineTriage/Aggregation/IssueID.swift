/// The short id of an issue: 8 hex digits of the FNV-1a hash of its fingerprint, stable across runs and machines,
/// so that `faultline show <id>` works on an id copied from any earlier output. Two fingerprints can have the same
/// id (a part may hold the separator byte, and 32 bits collide); issues are grouped by the whole fingerprint.
enum IssueID {
    static func of(_ fingerprint: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (index, part) in fingerprint.enumerated() {
            if index > 0 { hash = (hash ^ 0x1F) &* 0x0000_0100_0000_01B3 }  // between parts
            for byte in part.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        let hex = String(hash >> 32, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
