import FaultlineReporting
import Foundation

/// Secrets scrubbed from the texts of events other SDKs send: over the JSON bytes (`faultline serve`), over the parsed
/// tree (the reporter), and in the ingest's one pass. All three must scrub the same strings the same way. Scrubbing
/// what was scrubbed (a relay after the SDK) keeps all it filtered; it may filter more, since a value filtered once
/// can make the text before a later pair read as a sensitive key (`token [Filtered]":"…`).
enum ScrubbingFuzzing {
    static let scrubber = Scrubber()

    static func run(_ data: Data) throws(Disagreement) {
        if let text = String(data: data, encoding: .utf8) {
            let once = scrubber.text(text)
            let twice = scrubber.text(once)
            try Disagreement.check(
                isFiltered(once, into: twice), "a second scrub keeps less than filtering more: \(once) becomes \(twice)"
            )
        }
        guard let tree = try? JSONValue(parsing: data) else { return }
        let scrubbedBytes = scrubber.scrubbedTexts(inJSON: data) ?? data
        guard let reread = try? JSONValue(parsing: scrubbedBytes) else {
            throw Disagreement(description: "scrubbing JSON bytes makes text that is not JSON")
        }
        try Disagreement.check(
            reread == scrubber.texts(in: tree), "scrubbing the bytes and scrubbing the tree give different values")
        guard case .object = tree else { return }
        guard let object = try? scrubber.scrubbedObject(parsing: data, members: []) else {
            throw Disagreement(description: "the one-pass scrubber refuses an object the parser accepts")
        }
        try Disagreement.check(
            object.bytes == scrubbedBytes, "the one-pass scrubber writes other bytes than the scrubber over bytes")
    }

    /// Whether `more` is `text` with some of its spans, `[Filtered]` or not, replaced by `[Filtered]`: what it keeps of
    /// `text` comes in the same order, and only filtered spans are between. Compared as UTF-8 bytes: a filter may end
    /// inside a grapheme (before a combining mark), which `String` would not find.
    static func isFiltered(_ text: String, into more: String) -> Bool {
        let bytes = Array(text.utf8)
        let kept = more.components(separatedBy: "[Filtered]").map { Array($0.utf8) }
        guard kept.count > 1 else { return text == more }
        guard let first = kept.first, let last = kept.last, bytes.starts(with: first),
            bytes.reversed().starts(with: last.reversed()), bytes.count >= first.count + last.count
        else { return false }
        var rest = bytes[first.count..<(bytes.count - last.count)]
        for piece in kept.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = rest.firstRange(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }
}
