/// A message or exception value as Sentry's grouping compares it, so that `user 1234 not found` and `user 5678 not
/// found` are one issue: its first two lines that are not blank (with `...` when anything was left out), then the
/// values that vary replaced by placeholders, checked in Sentry's order at each place in the text, leftmost first:
/// `<email>`, `<url>`, `<ip>` (IPv4), `<uuid>`, `<sha1>`, `<md5>`, `<date>` (ISO 8601 dates and times, `15:04`,
/// `3:04PM`), `<duration>` (`12ms`, `1.5s`), `<hex>` (`0x1f`), `<float>`, `<int>`, after `=` a `<quoted_str>`,
/// `<quoted_identifier>` for a `"…"` of lower-case letters, digits and `_` (a quoted SQL name), and after `=` a
/// `<bool>`. Sentry's host names, IPv6 addresses and named-month dates are not replaced.
package enum MessageParameterization {
    package static func normalized(_ text: String) -> String {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .filter { !$0.allSatisfy(\.isWhitespace) }.prefix(2)
        var trimmed = lines.joined(separator: "\n")
        if trimmed != text { trimmed += "..." }
        var scan = Scan(Array(trimmed.utf8))
        return String(decoding: scan.parameterized(), as: UTF8.self)
    }

    /// The bytes of one text and the checks that read them.
    private struct Scan {
        let bytes: [UInt8]
        /// Where the run of an email's local part that holds the cursor ends, when no `@` follows it: no place in
        /// that run starts an email.
        var localPartWithoutAt = 0..<0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func parameterized() -> [UInt8] {
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                if let (end, placeholder) = match(at: index) {
                    output += placeholder.utf8
                    index = end
                } else {
                    output.append(bytes[index])
                    index += 1
                }
            }
            return output
        }

        private mutating func match(at index: Int) -> (Int, String)? {
            if let end = email(at: index) { return (end, "<email>") }
            if let end = url(at: index) { return (end, "<url>") }
            if let end = ipv4(at: index) { return (end, "<ip>") }
            if let end = uuid(at: index) { return (end, "<uuid>") }
            if let end = hexRun(at: index, count: 40) { return (end, "<sha1>") }
            if let end = hexRun(at: index, count: 32) { return (end, "<md5>") }
            if let end = date(at: index) { return (end, "<date>") }
            if let end = duration(at: index) { return (end, "<duration>") }
            if let end = prefixedHex(at: index) { return (end, "<hex>") }
            if let end = float(at: index) { return (end, "<float>") }
            if let end = integer(at: index) { return (end, "<int>") }
            if let end = quotedString(at: index) { return (end, "<quoted_str>") }
            if let end = quotedIdentifier(at: index) { return (end, "<quoted_identifier>") }
            if let end = boolean(at: index) { return (end, "<bool>") }
            return nil
        }

        // MARK: Classes of bytes

        private func byte(_ index: Int) -> UInt8? {
            index >= 0 && index < bytes.count ? bytes[index] : nil
        }

        private static func isDigit(_ byte: UInt8?) -> Bool {
            byte.map { $0 &- UInt8(ascii: "0") < 10 } ?? false
        }

        private static func isHex(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6
        }

        private static func isLetter(_ byte: UInt8?) -> Bool {
            byte.map { ($0 | 0x20) &- UInt8(ascii: "a") < 26 } ?? false
        }

        /// A letter, a digit, `_`, or any byte of a character beyond ASCII, as Python's `\w` reads letters of
        /// every script.
        private static func isWord(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || byte >= 0x80
        }

        private static func isSpace(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte)
        }

        /// A word boundary before `index`: a word byte on one side only.
        private func isBoundary(_ index: Int) -> Bool {
            Self.isWord(byte(index - 1)) != Self.isWord(byte(index))
        }

        /// The end of the run of bytes from `index` that `belongs` accepts.
        private func end(from index: Int, while belongs: (UInt8?) -> Bool) -> Int {
            var end = index
            while end < bytes.count, belongs(bytes[end]) { end += 1 }
            return end
        }

        private func has(_ text: StaticString, at index: Int, ignoringCase: Bool = false) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return (0..<count).allSatisfy { offset in
                let expected = text.utf8Start[offset]
                return ignoringCase ? bytes[index + offset] | 0x20 == expected : bytes[index + offset] == expected
            }
        }

        /// The end of exactly `count` digits at `index`, not followed by another digit.
        private func digits(at index: Int, count: Int) -> Int? {
            let end = end(from: index, while: Self.isDigit)
            return end - index == count ? end : nil
        }

        // MARK: Checks, each the end of its match at `index`

        private static func isLocalPart(_ byte: UInt8?) -> Bool {
            guard let byte, byte < 0x80 else { return false }
            return isLetter(byte) || isDigit(byte) || "._!#$%&'*+/=?^`{|}~-".utf8.contains(byte)
        }

        private static func isDomain(_ byte: UInt8?) -> Bool {
            isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-")
        }

        /// `local@domain.tld`; the local part can start at any byte, as it has no word boundary before it.
        private mutating func email(at index: Int) -> Int? {
            guard Self.isLocalPart(byte(index)), !localPartWithoutAt.contains(index) else { return nil }
            let at = end(from: index, while: Self.isLocalPart)
            guard byte(at) == UInt8(ascii: "@"), Self.isDomain(byte(at + 1)) else {
                localPartWithoutAt = index..<at
                return nil
            }
            var end = end(from: at + 1, while: Self.isDomain)
            while byte(end) == UInt8(ascii: "."), Self.isDomain(byte(end + 1)) {
                end = self.end(from: end + 1, while: Self.isDomain)
            }
            return end
        }

        /// `http`, `https`, `ws`, `wss` or `ftp`, `://`, and what follows up to whitespace.
        private func url(at index: Int) -> Int? {
            guard isBoundary(index) else { return nil }
            guard
                let scheme = ["https://", "http://", "wss://", "ws://", "ftp://"].first(where: {
                    (scheme: StaticString) in has(scheme, at: index)
                })
            else {
                return nil
            }
            let start = index + scheme.utf8CodeUnitCount
            guard let first = byte(start), !Self.isSpace(first), !"/$.?#".utf8.contains(first),
                let second = byte(start + 1), second != UInt8(ascii: "\n")
            else { return nil }
            return end(from: start + 2) { !Self.isSpace($0) }
        }

        /// Four numbers from 0 to 255 with dots between, at word boundaries.
        private func ipv4(at index: Int) -> Int? {
            guard isBoundary(index) else { return nil }
            var position = index
            for part in 0..<4 {
                if part > 0 {
                    guard byte(position) == UInt8(ascii: "."), Self.isDigit(byte(position + 1)) else { return nil }
                    position += 1
                }
                let end = end(from: position, while: Self.isDigit)
                let text = bytes[position..<end]
                guard text.count <= 3, text.count == 1 || text.first != UInt8(ascii: "0"),
                    text.reduce(0, { $0 * 10 + Int($1 - UInt8(ascii: "0")) }) <= 255
                else { return nil }
                position = end
            }
            return isBoundary(position) ? position : nil
        }

        /// 8-4-4-4-12 hex digits at word boundaries.
        private func uuid(at index: Int) -> Int? {
            guard isBoundary(index) else { return nil }
            var position = index
            for (offset, count) in [8, 4, 4, 4, 12].enumerated() {
                if offset > 0 {
                    guard byte(position) == UInt8(ascii: "-") else { return nil }
                    position += 1
                }
                guard (position..<position + count).allSatisfy({ Self.isHex(byte($0)) }) else { return nil }
                position += count
            }
            return isBoundary(position) ? position : nil
        }

        /// Exactly `count` hex digits at word boundaries (a SHA-1 is 40, an MD5 32).
        private func hexRun(at index: Int, count: Int) -> Int? {
            guard isBoundary(index), (index..<index + count).allSatisfy({ Self.isHex(byte($0)) }) else { return nil }
            return isBoundary(index + count) ? index + count : nil
        }

        /// `YYYY-MM-DD`, optionally with a time after `T` or a space; `HH:MM`, `HH:MM:SS` with a fraction; each
        /// with `Z` or an offset; and `3:04PM`.
        private func date(at index: Int) -> Int? {
            guard isBoundary(index) else { return nil }
            if let day = digits(at: index, count: 4), byte(day) == UInt8(ascii: "-"),
                let month = digits(at: day + 1, count: 2), byte(month) == UInt8(ascii: "-"),
                let date = digits(at: month + 1, count: 2)
            {
                if byte(date) == UInt8(ascii: "T") || byte(date) == UInt8(ascii: " "), let time = time(at: date + 1) {
                    return time
                }
                return isBoundary(date) ? date : nil
            }
            if let time = time(at: index) { return time }
            // a kitchen clock: 3:04PM
            let hour = end(from: index, while: Self.isDigit)
            guard (1...2).contains(hour - index), byte(hour) == UInt8(ascii: ":"),
                let minute = digits(at: hour + 1, count: 2),
                has("am", at: minute, ignoringCase: true) || has("pm", at: minute, ignoringCase: true)
            else { return nil }
            return minute + 2
        }

        /// `HH:MM`, `HH:MM:SS`, a fraction, then `Z` or `±HH:MM` / `±HHMM`.
        private func time(at index: Int) -> Int? {
            guard let hour = digits(at: index, count: 2), byte(hour) == UInt8(ascii: ":"),
                var end = digits(at: hour + 1, count: 2)
            else { return nil }
            if byte(end) == UInt8(ascii: ":"), let seconds = digits(at: end + 1, count: 2) {
                end = seconds
                if byte(end) == UInt8(ascii: "."), Self.isDigit(byte(end + 1)) {
                    end = self.end(from: end + 1, while: Self.isDigit)
                }
            }
            if byte(end) == UInt8(ascii: "Z") {
                end += 1
            } else if byte(end) == UInt8(ascii: "+") || byte(end) == UInt8(ascii: "-"),
                let offsetHour = digits(at: end + 1, count: 2)
            {
                if byte(offsetHour) == UInt8(ascii: ":"), let offsetMinute = digits(at: offsetHour + 1, count: 2) {
                    end = offsetMinute
                } else if let offsetMinute = digits(at: offsetHour, count: 2) {
                    end = offsetMinute
                } else {
                    end = offsetHour
                }
            }
            return isBoundary(end) ? end : nil
        }

        /// `12ms` after a word boundary, or `1.5s` / `30s` before one.
        private func duration(at index: Int) -> Int? {
            let integer = end(from: index, while: Self.isDigit)
            guard integer > index else { return nil }
            if isBoundary(index), has("ms", at: integer) { return integer + 2 }
            var end = integer
            if byte(end) == UInt8(ascii: "."), Self.isDigit(byte(end + 1)) {
                end = self.end(from: end + 1, while: Self.isDigit)
            }
            return byte(end) == UInt8(ascii: "s") && isBoundary(end + 1) ? end + 1 : nil
        }

        /// `0x` and hex digits, at word boundaries.
        private func prefixedHex(at index: Int) -> Int? {
            guard isBoundary(index), byte(index) == UInt8(ascii: "0"),
                byte(index + 1).map({ $0 | 0x20 }) == UInt8(ascii: "x"),
                Self.isHex(byte(index + 2))
            else { return nil }
            let end = end(from: index + 2, while: Self.isHex)
            return isBoundary(end) ? end : nil
        }

        /// `-1.5` anywhere, `1.5` after a word boundary; before a word boundary.
        private func float(at index: Int) -> Int? {
            let isNegative = byte(index) == UInt8(ascii: "-")
            let start = isNegative ? index + 1 : index
            guard isNegative || isBoundary(index) else { return nil }
            let integer = end(from: start, while: Self.isDigit)
            guard integer > start, byte(integer) == UInt8(ascii: "."), Self.isDigit(byte(integer + 1)) else {
                return nil
            }
            let end = end(from: integer + 1, while: Self.isDigit)
            return isBoundary(end) ? end : nil
        }

        /// Digits after a word boundary, or after a `-` that does not end a word; before a word boundary.
        private func integer(at index: Int) -> Int? {
            let isNegative = byte(index) == UInt8(ascii: "-") && !Self.isWord(byte(index - 1))
            let start = isNegative ? index + 1 : index
            guard isNegative || isBoundary(index) else { return nil }
            let end = end(from: start, while: Self.isDigit)
            return end > start && isBoundary(end) ? end : nil
        }

        /// `'…'` or `"…"` right after `=`.
        private func quotedString(at index: Int) -> Int? {
            guard byte(index - 1) == UInt8(ascii: "="), let quote = byte(index),
                quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"")
            else { return nil }
            let close = end(from: index + 1) { $0 != quote }
            return close > index + 1 && close < bytes.count ? close + 1 : nil
        }

        /// `"…"` of lower-case ASCII letters, digits and `_`: a quoted SQL identifier (`SAVEPOINT "s1_x7"`).
        private func quotedIdentifier(at index: Int) -> Int? {
            guard byte(index) == UInt8(ascii: "\"") else { return nil }
            let close = end(from: index + 1) { byte in
                byte.map { $0 &- UInt8(ascii: "a") < 26 || $0 &- UInt8(ascii: "0") < 10 || $0 == UInt8(ascii: "_") }
                    ?? false
            }
            return close > index + 1 && byte(close) == UInt8(ascii: "\"") ? close + 1 : nil
        }

        /// `True`, `true`, `False` or `false` right after `=`.
        private func boolean(at index: Int) -> Int? {
            guard byte(index - 1) == UInt8(ascii: "=") else { return nil }
            for word: StaticString in ["True", "true", "False", "false"] where has(word, at: index) {
                return index + word.utf8CodeUnitCount
            }
            return nil
        }
    }
}
