/// Whether bytes are well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF), checked 32 and
/// then eight ASCII bytes at a time, since log lines are almost all ASCII.
package enum UTF8Validation {
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        guard let base = bytes.baseAddress else { return true }
        while index < count {
            if index + 32 <= count, Self.isASCII32(UnsafeRawPointer(base + index)) {
                index += 32
                continue
            }
            if index + 8 <= count,
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            let range: ClosedRange<UInt8>  // allowed second byte
            switch lead {
            case 0xC2...0xDF: (length, range) = (2, 0x80...0xBF)
            case 0xE0: (length, range) = (3, 0xA0...0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (length, range) = (3, 0x80...0xBF)
            case 0xED: (length, range) = (3, 0x80...0x9F)
            case 0xF0: (length, range) = (4, 0x90...0xBF)
            case 0xF1...0xF3: (length, range) = (4, 0x80...0xBF)
            case 0xF4: (length, range) = (4, 0x80...0x8F)
            default: return false
            }
            guard index + length <= count, range.contains(bytes[index + 1]) else { return false }
            for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return false }
            index += length
        }
        return true
    }

    private static func isASCII32(_ bytes: UnsafeRawPointer) -> Bool {
        let words =
            bytes.loadUnaligned(as: UInt64.self) | bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            | bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
            | bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        return words & 0x8080_8080_8080_8080 == 0
    }
}
