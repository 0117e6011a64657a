import Foundation

/// The title of an HTML error page (a proxy's 502, a framework's 501): its `<title>`, else its first `<h1>`, as one
/// line of text, markup and entities resolved. What a person reads first on the page, and so what a failure's title
/// says instead of the page's source.
enum HTMLPageTitle {
    /// How much of a body is read for its title: a page's head comes first, and an error page is small.
    static let scannedBytes = 16 * 1024
    /// The longest title kept, in characters; a longer one is cut with `…`.
    static let maximumLength = 160

    /// The title of `body` when it is an HTML page (by `contentType`, else by how it starts); `nil` when it is not
    /// one, or has neither a `<title>` nor an `<h1>` with text.
    static func of(_ body: Data, contentType: String?) -> String? {
        let bytes = [UInt8](body.prefix(scannedBytes))
        guard isPage(bytes, contentType: contentType) else { return nil }
        for tag in ["title", "h1"] {
            if let inner = element(tag, in: bytes), let title = text(of: inner) { return title }
        }
        return nil
    }

    /// Whether the body is HTML: its content type says so, or (no type, or a generic one) it starts with a doctype or
    /// an `<html>` tag.
    private static func isPage(_ bytes: [UInt8], contentType: String?) -> Bool {
        if let contentType = contentType?.lowercased() {
            if contentType.contains("html") { return true }
            guard contentType.hasPrefix("text/plain") || contentType.hasPrefix("application/octet-stream") else {
                return false
            }
        }
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let start = bytes.dropFirst(bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0)
            .drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
        return starts(start, with: "<!doctype html") || starts(start, with: "<html")
    }

    /// The bytes between `<tag …>` and `</tag`, found without regard to case; `nil` when the page has no such element.
    private static func element(_ tag: String, in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        let opening = Array("<\(tag)".utf8)
        var index = bytes.startIndex
        while let found = firstIndex(of: opening, in: bytes, from: index) {
            let after = found + opening.count
            guard after < bytes.endIndex else { return nil }
            // `<title>` or `<title lang="en">`, not `<titles>`
            if bytes[after] == UInt8(ascii: ">") || bytes[after] == 0x20 || bytes[after] == 0x09
                || bytes[after] == 0x0A
            {
                guard let close = bytes[after...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                let end = firstIndex(of: Array("</\(tag)".utf8), in: bytes, from: close + 1) ?? bytes.endIndex
                return bytes[(close + 1)..<end]
            }
            index = after
        }
        return nil
    }

    /// The text of an element's inner markup: tags dropped, entities resolved, runs of white space made one space;
    /// `nil` when no text is left.
    private static func text(of inner: ArraySlice<UInt8>) -> String? {
        var withoutTags: [UInt8] = []
        var isInTag = false
        for byte in inner {
            if byte == UInt8(ascii: "<") {
                isInTag = true
                withoutTags.append(0x20)
            } else if byte == UInt8(ascii: ">") && isInTag {
                isInTag = false
            } else if !isInTag {
                withoutTags.append(byte)
            }
        }
        let decoded = HTMLEntities.decoded(String(decoding: withoutTags, as: UTF8.self))
        let words = decoded.split(whereSeparator: { $0.isWhitespace })
        guard !words.isEmpty else { return nil }
        let line = words.joined(separator: " ")
        return line.count <= maximumLength ? line : line.prefix(maximumLength - 1) + "…"
    }

    private static func starts(_ bytes: ArraySlice<UInt8>, with prefix: String) -> Bool {
        let prefix = Array(prefix.utf8)
        guard bytes.count >= prefix.count else { return false }
        return zip(bytes, prefix).allSatisfy { lowercased($0) == $1 }
    }

    /// The first index at or after `start` where `needle` (lower-case ASCII) starts in `bytes`, without regard to case.
    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if lowercased(bytes[index]) == first,
                bytes[index..<(index + needle.count)].elementsEqual(needle, by: { lowercased($0) == $1 })
            {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
