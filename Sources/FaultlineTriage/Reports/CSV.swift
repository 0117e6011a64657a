/// Comma-separated values as RFC 4180 writes them: a header row, then one row per record, each ended by CRLF; a field
/// with a comma, a quote or a line break quoted, its quotes doubled. A field that a spreadsheet would run as a formula
/// (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a `'` before it, as OWASP advises, since events
/// come from anyone who holds a DSN.
enum CSV {
    /// One row: the fields in order, `nil` as an empty field.
    static func row(_ fields: [String?]) -> String {
        fields.map { field(($0 ?? "")) }.joined(separator: ",") + "\r\n"
    }

    private static func field(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
