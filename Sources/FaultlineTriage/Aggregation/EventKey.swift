/// An event id in 16 bytes, for telling events read more than once apart from new ones without keeping every id's
/// text: the 128 bits of a 32-hex id (dashes of the UUID form ignored, any case), else a 64-bit hash of the id and
/// its length, which only ids no Sentry SDK writes take.
struct EventKey: Hashable, Sendable {
    private let high: UInt64
    private let low: UInt64

    init(_ eventID: String) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        for byte in eventID.utf8 where byte != UInt8(ascii: "-") {
            guard digits < 32, let value = Self.hexValue(byte) else {
                self.init(hashing: eventID)
                return
            }
            if digits < 16 { high = high << 4 | value } else { low = low << 4 | value }
            digits += 1
        }
        guard digits == 32 else {
            self.init(hashing: eventID)
            return
        }
        self.init(high: high, low: low)
    }

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    private init(hashing eventID: String) {
        var hasher = Hasher()
        hasher.combine(eventID)
        self.init(high: UInt64(bitPattern: Int64(hasher.finalize())), low: UInt64(eventID.utf8.count))
    }

    private static func hexValue(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt64(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
