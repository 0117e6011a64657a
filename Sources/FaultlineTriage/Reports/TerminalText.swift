/// Text from events, made safe and measured for a terminal.
///
/// Anyone who holds a DSN can send events, so what an event says is text a stranger wrote: an escape sequence in a
/// message would clear the screen or retitle the window, and a newline would forge a whole line of output. Every text
/// report passes event text through ``safe(_:)``, which shows each control character escaped instead of sending it:
/// C0 controls, DEL and C1 controls as `\n`, `\t`, `\x1B`, `\u{85}`; the bidirectional overrides and isolates that can
/// reorder what a line shows, and the line and paragraph separators, as `\u{202E}`. JSON output is exact and needs
/// none of this: its encoder escapes control characters itself.
///
/// Columns are measured in terminal cells by ``width(_:)``: Hangul, CJK ideographs, fullwidth forms and most emoji
/// take two cells, combining marks none.
package enum TerminalText {
    /// `text` with every control character shown escaped, on one line.
    package static func safe(_ text: String) -> String {
        guard text.utf8.contains(where: mayNeedEscaping) else { return text }
        var safe = ""
        safe.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let escaped = escaped(scalar) { safe += escaped } else { safe.unicodeScalars.append(scalar) }
        }
        return safe
    }

    /// The cells `text` takes on a terminal.
    package static func width(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        return text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    /// `text` cut to at most `cells` cells, ending in `…` when it was cut.
    package static func truncated(_ text: String, toWidth cells: Int) -> String {
        guard width(text) > cells else { return text }
        guard cells > 0 else { return "" }
        var kept = ""
        var used = 0
        for character in text {
            let cellsOfCharacter = width(String(character))
            guard used + cellsOfCharacter <= cells - 1 else { break }
            kept.append(character)
            used += cellsOfCharacter
        }
        return kept + "…"
    }

    /// `text` cut to at most `cells` cells in its middle: its first `head` cells whole (where they fit), then as much
    /// of its start and of its end as fit either side of `…`. A title keeps what it is about and how it ends.
    package static func truncatedInMiddle(_ text: String, toWidth cells: Int, keepingHead head: Int = 0) -> String {
        guard width(text) > cells else { return text }
        let startCells = max(head, (cells - 1) / 2)
        let endCells = cells - 1 - startCells
        guard endCells >= 6 else { return truncated(text, toWidth: cells) }
        var start = ""
        var used = 0
        for character in text {
            let cellsOfCharacter = width(String(character))
            guard used + cellsOfCharacter <= startCells else { break }
            start.append(character)
            used += cellsOfCharacter
        }
        var end: [Character] = []
        var usedAtEnd = 0
        for character in text.reversed() {
            let cellsOfCharacter = width(String(character))
            guard usedAtEnd + cellsOfCharacter <= cells - 1 - used else { break }
            end.append(character)
            usedAtEnd += cellsOfCharacter
        }
        return start + "…" + String(end.reversed())
    }

    /// `text` (prose, on one line) broken at spaces into lines of at most `cells` cells; as it is when `cells` is
    /// `nil`. A word longer than a line stays whole.
    package static func wrapped(_ text: String, toWidth cells: Int?) -> String {
        guard let cells, width(text) > cells else { return text }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, width(line) + 1 + width(String(word)) > cells {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        return (lines + [line]).joined(separator: "\n")
    }

    /// Whether a UTF-8 byte may start something ``safe(_:)`` escapes: a C0 control or DEL, or the lead byte of a C1
    /// control (`C2`), of an Arabic letter mark (`D8`) or of the marks, separators and overrides at U+200E–U+206F
    /// (`E2`). Text without any is returned as it is.
    private static func mayNeedEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
    }

    /// How ``safe(_:)`` shows `scalar`: `nil` when it is shown as it is.
    static func escaped(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x0A: "\\n"
        case 0x0D: "\\r"
        case 0x09: "\\t"
        case 0x00..<0x20, 0x7F: "\\x" + hex(scalar.value, digits: 2)
        case 0x80..<0xA0, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
            "\\u{" + hex(scalar.value, digits: 2) + "}"
        default: nil
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The cells one scalar takes: 0 for combining marks and zero-width characters, 2 for East Asian wide and
    /// fullwidth characters and emoji, 1 for the rest.
    private static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch value {
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,  // combining marks
            0x200B...0x200F, 0x2060...0x2064, 0xFE00...0xFE0F, 0xFEFF, 0x1160...0x11FF:  // zero width, Jamo medials
            return 0
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
