import Foundation

/// Personal data found by its shape, as Sentry's Relay finds it (`@usssn`, `@iban`, `@email`, `@userpath`, `@ip`): US
/// social security numbers, IBANs, email addresses, the user's name in a home directory's path, IP addresses.
extension ValueScanner {
    /// The US social security number starting at `index` (on a digit): `123-45-6789`, not inside a word or number.
    static func socialSecurityNumber(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard index + 11 <= bytes.count, index == 0 || !isWordByte(bytes[index - 1]) else { return nil }
        let shape: [Bool] = [true, true, true, false, true, true, false, true, true, true, true]
        for (offset, isDigit) in shape.enumerated() {
            let byte = bytes[index + offset]
            guard isDigit ? Self.isDigit(byte) : byte == UInt8(ascii: "-") else { return nil }
        }
        guard index + 11 == bytes.count || !isWordByte(bytes[index + 11]) else { return nil }
        return index..<(index + 11)
    }

    /// The IBAN starting at `index` (on a capital), not inside a word: a country's code, two check digits and 11 to
    /// 29 letters and digits, as Relay finds it (`DE89370400440532013000`); or written in groups of four, as on
    /// paper (`DE89 3704 0044 0532 0130 00`), when its check digits are right.
    static func iban(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard index + 15 <= bytes.count, index == 0 || !isWordByte(bytes[index - 1]),
            ibanCountries.contains(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])),
            isDigit(bytes[index + 2]), isDigit(bytes[index + 3])
        else { return nil }
        let bbanStart = index + 4
        let run = end(of: bbanStart, in: bytes, while: isAlphanumeric)
        if (11...29).contains(run - bbanStart), run == bytes.count || !isWordByte(bytes[run]) {
            return index..<run
        }
        // Grouped: a space, then groups of four, the last of one to four.
        guard run == bbanStart, bbanStart < bytes.count, bytes[bbanStart] == UInt8(ascii: " ") else { return nil }
        var characters: [UInt8] = []
        var position = bbanStart
        var end = bbanStart
        while position < bytes.count, bytes[position] == UInt8(ascii: " "), characters.count.isMultiple(of: 4) {
            let group = Self.end(of: position + 1, in: bytes, while: isAlphanumeric)
            guard (1...4).contains(group - position - 1) else { break }
            characters.append(contentsOf: bytes[(position + 1)..<group])
            position = group
            end = group
        }
        guard (11...30).contains(characters.count), end == bytes.count || !isWordByte(bytes[end]),
            hasValidCheckDigits(country: Array(bytes[index..<bbanStart]), bban: characters)
        else { return nil }
        return index..<end
    }

    /// Whether an IBAN's check digits are right (ISO 13616): its characters, the first four moved to the end and
    /// letters counted from 10 for `A`, leave 1 divided by 97.
    private static func hasValidCheckDigits(country: [UInt8], bban: [UInt8]) -> Bool {
        var remainder = 0
        for byte in bban + country {
            if isDigit(byte) {
                remainder = (remainder * 10 + Int(byte &- UInt8(ascii: "0"))) % 97
            } else if isLetter(byte) {
                remainder = (remainder * 100 + Int((byte & ~0x20) &- UInt8(ascii: "A")) + 10) % 97
            } else {
                return false
            }
        }
        return remainder == 1
    }

    /// The country codes of IBANs, as Relay lists them: two capitals in one number.
    private static let ibanCountries: Set<UInt16> = Set(
        """
        AT AD AE AL AZ BA BE BG BH BR BY CH CR CY CZ DE DK DO EE EG ES FI FO FR GB GE GI GL GR GT HR HU IE IL IQ IS IT \
        JO KW KZ LB LC LI LT LU LV LY MC MD ME MK MR MT MU NL NO PK PL PS PT QA RO RU RS SA SC SE SI SK SM ST SV TL TN \
        TR UA VA VG XK DZ AO BJ BF BI CV CM CF TD KM CG CI DJ GQ GA GW HN IR MG ML MA MZ NI NE SN TG
        """.split(separator: " ").map { code in
            let bytes = Array(code.utf8)
            return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        })

    /// The email address around the `@` at `index`: `ana.kim+shop@mail.example.co`, its domain with a dot and a
    /// top-level label of two letters or more.
    static func email(around index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = index
        while start > 0, index - start < 64, isEmailLocalByte(bytes[start - 1]) { start -= 1 }
        // It starts at a word's start, as `\b` says.
        while start < index, !isWordByte(bytes[start]) { start += 1 }
        guard start < index else { return nil }
        var end = index + 1
        var lastDot: Int?
        while end < bytes.count, end - index < 256 {
            let byte = bytes[end]
            if isAlphanumeric(byte) || byte == UInt8(ascii: "-") {
                end += 1
            } else if byte == UInt8(ascii: "."), end > index + 1, end + 1 < bytes.count,
                isAlphanumeric(bytes[end + 1]) || bytes[end + 1] == UInt8(ascii: "-")
            {
                lastDot = end
                end += 1
            } else {
                break
            }
        }
        guard let lastDot, end - lastDot - 1 >= 2, ((lastDot + 1)..<end).allSatisfy({ isLetter(bytes[$0]) }) else {
            return nil
        }
        return start..<end
    }

    /// The characters of an email's local part that Relay reads.
    private static func isEmailLocalByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || "._%+-!#$&'*/=?^`{|}~".utf8.contains(byte)
    }

    /// The user's name in the home directory's path whose first separator is at `index`: `/Users/ana/…` and
    /// `/home/ana/…` (a macOS and a Linux home, not inside a URL or a longer path, its name followed by a `/`),
    /// `C:\Users\ana\…` and `C:\Documents and Settings\ana\…` (after a drive's letter).
    static func userName(inPathAt index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let separator = bytes[index]
        let nameStart: Int
        var endsAtText = false
        if index >= 2, bytes[index - 1] == UInt8(ascii: ":"), isLetter(bytes[index - 2]),
            index < 3 || !isWordByte(bytes[index - 3])
        {
            // A Windows drive: `C:\Users\`, `C:/Users/`, `C:\Documents and Settings\`.
            guard
                let folder = [StaticString("users"), "documents and settings"].first(where: {
                    hasWord($0, at: index + 1, in: bytes)
                })
            else { return nil }
            let after = index + 1 + folder.utf8CodeUnitCount
            guard after < bytes.count, bytes[after] == separator else { return nil }
            nameStart = after + 1
            endsAtText = true
        } else if separator == UInt8(ascii: "/") {
            // At the text's start, after a space or a quote, or a `file://` URL's path; not in a URL's or a longer path.
            guard index == 0 || !isPathOrHostByte(bytes[index - 1]) || has("://", at: index - 3, in: bytes) else {
                return nil
            }
            if has("/Users/", at: index, in: bytes) {
                nameStart = index + 7
                endsAtText = true
            } else if has("/home/", at: index, in: bytes) {
                nameStart = index + 6
            } else {
                return nil
            }
        } else {
            return nil
        }
        let nameEnd = end(of: nameStart, in: bytes) { byte in
            byte != UInt8(ascii: "/") && byte != UInt8(ascii: "\\") && !isQuote(byte) && byte > 0x20
        }
        guard nameEnd > nameStart, !isFiltered(at: nameStart, in: bytes) else { return nil }
        let endsPath = nameEnd < bytes.count && (bytes[nameEnd] == UInt8(ascii: "/") || bytes[nameEnd] == separator)
        return endsPath || endsAtText ? nameStart..<nameEnd : nil
    }

    /// A byte that continues a path or a host before a `/`: the path is then not a home directory's.
    private static func isPathOrHostByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "~")
    }

    /// The IP address starting at `index`, not inside a word: four numbers up to 255 joined by dots (`10.0.3.17`), or
    /// an IPv6 address of two colons or more that the system's parser reads (`2001:db8::8a2e:370:7334`).
    static func ipAddress(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        if isDigit(bytes[index]), let address = ipv4Address(at: index, in: bytes) { return address }
        let end = end(of: index, in: bytes) { isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
        var candidate = index..<end
        while let last = candidate.last, bytes[last] == UInt8(ascii: ".") || bytes[last] == UInt8(ascii: ":"),
            !(candidate.count >= 2 && bytes[last] == UInt8(ascii: ":") && bytes[last - 1] == UInt8(ascii: ":"))
        {
            candidate = candidate.dropLast()
        }
        guard candidate.count >= 3, candidate.count <= 45,
            candidate.filter({ bytes[$0] == UInt8(ascii: ":") }).count >= 2,
            candidate.upperBound == bytes.count || !isWordByte(bytes[candidate.upperBound])
        else { return nil }
        var address = in6_addr()
        return inet_pton(AF_INET6, String(decoding: bytes[candidate], as: UTF8.self), &address) == 1 ? candidate : nil
    }

    /// Four numbers from 0 to 255 of one to three digits, joined by dots, ending at a word's end.
    private static func ipv4Address(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var position = index
        for part in 0..<4 {
            if part > 0 {
                guard position < bytes.count, bytes[position] == UInt8(ascii: "."), position + 1 < bytes.count else {
                    return nil
                }
                position += 1
            }
            let digits = end(of: position, in: bytes, while: isDigit)
            guard (1...3).contains(digits - position) else { return nil }
            let value = bytes[position..<digits].reduce(0) { $0 * 10 + Int($1 &- UInt8(ascii: "0")) }
            guard value <= 255 else { return nil }
            position = digits
        }
        guard position == bytes.count || !isWordByte(bytes[position]) else { return nil }
        return index..<position
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6
    }
}
