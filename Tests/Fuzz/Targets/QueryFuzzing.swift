import FaultlineLogReading
import FaultlineRecords
import FaultlineTriage
import Foundation

/// What triage reads from anyone's events and from the command line: a `--where` condition on an event's tag, and a
/// message normalised for grouping. The input's first line is a condition, the rest a value.
enum QueryFuzzing {
    static func run(_ data: Data) throws(Disagreement) {
        let text = String(decoding: data, as: UTF8.self)
        let (condition, value) = split(text)
        try checkCondition(condition, on: value)
        try checkNormalization(value)
    }

    /// A condition that reads is met by an event whose tag has the value exactly when its `!=` form is not; and
    /// `KEY=VALUE` without a `*` is met by that value.
    private static func checkCondition(_ text: String, on value: String) throws(Disagreement) {
        // split as the condition is, at the first `=` byte
        let bytes = Array(text.utf8)
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")), equals > 0 else { return }
        let isNegated = bytes[equals - 1] == UInt8(ascii: "!")
        let key = String(decoding: bytes[..<(isNegated ? equals - 1 : equals)], as: UTF8.self)
        let pattern = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
        // (a key that ends in `!` cannot be written before `=`: `a!=b` is the condition `a != b`)
        guard !key.isEmpty, !key.hasSuffix("!"), let met = try? FieldCondition("tags.\(key)=\(pattern)"),
            let unmet = try? FieldCondition("tags.\(key)!=\(pattern)")
        else { return }
        var filter = EventFilter()
        var record = EventRecord(eventID: "e", timestamp: 0)
        record.tags[key] = value
        filter.conditions = [met]
        let isMet = filter.accepts(record)
        filter.conditions = [unmet]
        try Disagreement.check(isMet != filter.accepts(record), "'\(key)=\(pattern)' and its != agree on '\(value)'")
        if !value.utf8.contains(UInt8(ascii: "*")), let exact = try? FieldCondition("tags.\(key)=\(value)") {
            filter.conditions = [exact]
            try Disagreement.check(filter.accepts(record), "'\(key)=\(value)' is not met by its own value")
        }
    }

    /// Every run of digits that stands alone (no letter, digit or `_` on either side) becomes a placeholder, but for
    /// digits right after one: Sentry's `<bool>` and `<quoted_str>` need no word boundary after them (`a=true8`
    /// becomes `a=<bool>8`).
    private static func checkNormalization(_ text: String) throws(Disagreement) {
        let normalized = Array(MessageParameterization.normalized(text).utf8)
        var index = 0
        while index < normalized.count {
            guard isDigit(normalized[index]) else {
                index += 1
                continue
            }
            var end = index
            while end < normalized.count, isDigit(normalized[end]) { end += 1 }
            let before = index > 0 ? normalized[index - 1] : nil
            let after = end < normalized.count ? normalized[end] : nil
            try Disagreement.check(
                isWord(before) || isWord(after) || before == UInt8(ascii: ">"),
                "'\(String(decoding: normalized[index..<end], as: UTF8.self))' stands alone in a normalised message")
            index = end
        }
    }

    private static func split(_ text: String) -> (String, String) {
        guard let newline = text.firstIndex(of: "\n") else { return (text, "") }
        return (String(text[..<newline]), String(text[text.index(after: newline)...]))
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    private static func isWord(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "_") || byte >= 0x80
    }
}
