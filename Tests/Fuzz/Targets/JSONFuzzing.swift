import FaultlineRecords
import Foundation

/// JSON as the pipeline reads it: the whole tree, and the one-pass readers the ingest uses instead, which must accept
/// and refuse the same texts and find the same members. What the tree holds, written compactly by the one writer,
/// reads back to a tree that writes the same bytes.
enum JSONFuzzing {
    static let names: Set<String> = ["event_id", "timestamp", "message", "tags", "level", ""]

    static func run(_ data: Data) throws(Disagreement) {
        let tree = try? JSONValue(parsing: data)
        let members = Result { () throws(JSONValue.ParseError) in try JSONValue.members(names, ofObjectParsing: data) }
        let object = Result { () throws(JSONValue.ParseError) in try JSONValue.object(parsing: data, members: names) }
        guard let tree else {
            try Disagreement.check(
                (try? members.get()) == nil && (try? object.get()) == nil,
                "JSONValue(parsing:) refuses a text a one-pass reader accepts")
            return
        }
        try roundTrip(tree)
        guard case .success(let found) = members, case .success(let text) = object else {
            throw Disagreement(description: "a one-pass reader refuses a text JSONValue(parsing:) accepts")
        }
        guard case .object(let whole) = tree else {
            try Disagreement.check(found == nil && text == nil, "a one-pass reader reads an object where there is none")
            return
        }
        let expected = whole.filter { names.contains($0.key) }
        try Disagreement.check(found == expected, "JSONValue.members finds other members than the tree holds")
        guard let text else { throw Disagreement(description: "JSONValue.object finds no object where there is one") }
        try Disagreement.check(text.bytes == data, "JSONValue.object rewrites a text it was not asked to")
        if !text.hasEscapedKey {
            for name in names {
                try Disagreement.check(
                    text.value(of: name) == whole[name], "JSONValue.object locates another value of \"\(name)\"")
            }
        }
        try Disagreement.check(
            text.hasLineBreak == (data.contains(0x0A) || data.contains(0x0D)),
            "JSONValue.object says wrongly whether the text holds a line break")
    }

    /// `tree` written and read back. A number is written as its shortest form, so `1.0` and `-0` come back as the
    /// integers they write as: from the second writing on, the bytes are fixed.
    private static func roundTrip(_ tree: JSONValue) throws(Disagreement) {
        let written = tree.compactJSON
        let read: JSONValue
        do {
            read = try JSONValue(parsing: written)
        } catch {
            throw Disagreement(description: "what the writer writes cannot be read back: \(error)")
        }
        let rewritten = read.compactJSON
        try Disagreement.check(
            (try? JSONValue(parsing: rewritten))?.compactJSON == rewritten,
            "what the writer writes is not a fixed point of reading and writing")
    }
}
