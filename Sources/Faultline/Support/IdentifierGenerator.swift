/// A fast pseudo-random generator for identifiers (xoshiro256**), seeded from the system's generator: an event id
/// costs no system call, where `SystemRandomNumberGenerator` makes one for every 8 bytes on Linux (two `getrandom`
/// calls an id; Benchmarks/README.md has what that cost a capture).
///
/// Its output is unique and unpredictable enough for event and request ids, never for secrets.
package struct IdentifierGenerator: RandomNumberGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// A generator seeded with 256 bits from the system's generator.
    package init() {
        var system = SystemRandomNumberGenerator()
        state = (system.next(), system.next(), system.next(), system.next())
        // xoshiro's state must not be all zero.
        if state == (0, 0, 0, 0) { state.0 = 1 }
    }

    package mutating func next() -> UInt64 {
        let result = rotate(state.1 &* 5, by: 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotate(state.3, by: 45)
        return result
    }

    private func rotate(_ value: UInt64, by count: UInt64) -> UInt64 {
        value << count | value >> (64 - count)
    }
}
