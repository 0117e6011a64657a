import Foundation

/// The first bytes of a response body that did not match the error contract, such as a proxy's HTML 502 page.
///
/// Invalid UTF-8 is replaced with U+FFFD, so a preview is always printable and never fails.
public struct BodyPreview: Hashable, Sendable, CustomStringConvertible {
    /// The previewed bytes as text.
    public let text: String
    /// The response's `Content-Type`, if it had one.
    public let contentType: String?
    /// The size of the whole body in bytes.
    public let totalBytes: Int
    /// Whether ``text`` covers less than the whole body.
    public let isTruncated: Bool
    /// Whether the previewed bytes held invalid UTF-8 (replaced with U+FFFD in ``text``).
    public let containsInvalidUTF8: Bool
    /// The page's title when the body is an HTML page (its `<title>`, else its first `<h1>`), as one line of text:
    /// `502 Bad Gateway` for nginx's page. What the failure's description says instead of the page's markup.
    public let pageTitle: String?

    /// Creates a preview of at most `limit` bytes of `body`, cut at a character boundary, with the page's title when
    /// `body` is an HTML page.
    public init(body: Data, contentType: String?, limit: Int) {
        var end = body.startIndex + min(max(0, limit), body.count)
        if end < body.endIndex {
            while end > body.startIndex, body[end] & 0b1100_0000 == 0b1000_0000 { end -= 1 }
        }
        let previewed = body[body.startIndex..<end]
        self.text = String(decoding: previewed, as: UTF8.self)
        self.contentType = contentType
        self.totalBytes = body.count
        self.isTruncated = end < body.endIndex
        self.containsInvalidUTF8 = !text.utf8.elementsEqual(previewed)
        self.pageTitle = HTMLPageTitle.of(body, contentType: contentType)
    }

    public var description: String {
        let type = contentType.map { "\($0), " } ?? ""
        let oneLine = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        return "\(type)\(totalBytes) bytes: \(oneLine)\(isTruncated ? "…" : "")"
    }
}
