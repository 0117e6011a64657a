import Foundation

/// Byte strings numbered in the order they were first added, and found again by their bytes: a reader that meets the
/// same few names on every line (a route, a release) gets each one's number without building a `String` or a
/// dictionary key for it. Lookups hash with the standard library's `Hasher`, seeded per process, so that a log
/// crafted to collide cannot make them slow.
package struct NumberedByteStrings {
    /// The bytes of every string, one after another, and where each one ends.
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    /// Each string's hash, to compare bytes only on a match and to place them again when the table grows.
    private var hashes: [Int] = []
    /// Open addressing: each slot holds a string's number plus one, or 0; a power of two long, at most half full.
    private var slots = [Int](repeating: 0, count: Self.initialSlots)

    private static let initialSlots = 16

    package init() {}

    /// How many strings were added.
    package var count: Int { ends.count }

    /// The number of `key`, added as the next one when it is new.
    package mutating func number(of key: UnsafeBufferPointer<UInt8>) -> (number: Int, isNew: Bool) {
        let hash = Self.hash(key)
        var slot = hash & (slots.count - 1)
        while slots[slot] != 0 {
            let number = slots[slot] - 1
            if hashes[number] == hash, withBytes(of: number, { Self.equal($0, key) }) { return (number, false) }
            slot = (slot + 1) & (slots.count - 1)
        }
        let number = ends.count
        bytes.append(contentsOf: key)
        ends.append(bytes.count)
        hashes.append(hash)
        slots[slot] = number + 1
        if ends.count * 2 > slots.count { grow() }
        return (number, true)
    }

    /// Hands the bytes of string `number` to `body`.
    package func withBytes<Result>(of number: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let start = number == 0 ? 0 : ends[number - 1]
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<ends[number]])) }
    }

    /// Forgets every string, keeping the storage unless it grew large (one long line must not make every later
    /// line's clearing slow).
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: bytes.count <= 1 << 16)
        ends.removeAll(keepingCapacity: ends.count <= 1 << 12)
        hashes.removeAll(keepingCapacity: hashes.count <= 1 << 12)
        if slots.count > 1 << 13 {
            slots = [Int](repeating: 0, count: Self.initialSlots)
        } else {
            for index in slots.indices { slots[index] = 0 }
        }
    }

    private mutating func grow() {
        slots = [Int](repeating: 0, count: slots.count * 2)
        for (number, hash) in hashes.enumerated() {
            var slot = hash & (slots.count - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = number + 1
        }
    }

    private static func equal(_ some: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard some.count == other.count else { return false }
        guard let someBase = some.baseAddress, let otherBase = other.baseAddress else { return true }
        return memcmp(someBase, otherBase, some.count) == 0
    }

    private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(key))
        return hasher.finalize()
    }
}
