/// Payment card numbers: a run of 13 to 19 digits that passes the Luhn check.
extension ValueScanner {
    /// The card number starting at `index` (on a digit from 2 to 6): digits alone or grouped by single spaces or
    /// dashes, not part of a word, a longer number or a dotted or dashed id.
    static func cardNumber(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        if index > 0 {
            let previous = bytes[index - 1]
            guard !isWordByte(previous), previous != UInt8(ascii: ".") else { return nil }
            // Not the tail of a longer number, nor a segment of a dashed id such as a UUID.
            if previous == UInt8(ascii: " "), index > 1, isDigit(bytes[index - 2]) { return nil }
            if previous == UInt8(ascii: "-"), index > 1, isAlphanumeric(bytes[index - 2]) { return nil }
        }
        var digits = 0
        var end = index
        var position = index
        // Luhn doubles every second digit counted from the right, which depends on the count, not known yet: both
        // sums are kept, one doubling the digits at even positions from the left, one those at odd positions.
        var doublingEven = 0
        var doublingOdd = 0
        while position < bytes.count {
            let byte = bytes[position]
            if isDigit(byte) {
                let digit = Int(byte &- UInt8(ascii: "0"))
                let doubled = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
                if digits.isMultiple(of: 2) {
                    doublingEven += doubled
                    doublingOdd += digit
                } else {
                    doublingEven += digit
                    doublingOdd += doubled
                }
                digits += 1
                guard digits <= 19 else { return nil }
                position += 1
                end = position
            } else if isSeparator(byte), position + 1 < bytes.count, isDigit(bytes[position + 1]), position > index {
                position += 1
            } else {
                break
            }
        }
        guard digits >= 13 else { return nil }
        if end < bytes.count {
            let next = bytes[end]
            guard !isWordByte(next) else { return nil }
            if next == UInt8(ascii: "."), end + 1 < bytes.count, isDigit(bytes[end + 1]) { return nil }
            if next == UInt8(ascii: "-"), end + 1 < bytes.count, isAlphanumeric(bytes[end + 1]) { return nil }
        }
        // With an even count, the digits doubled are those at even positions from the left; with an odd count,
        // those at odd positions.
        let sum = digits.isMultiple(of: 2) ? doublingEven : doublingOdd
        return sum.isMultiple(of: 10) ? index..<end : nil
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-")
    }
}
