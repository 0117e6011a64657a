/// Text from the logs made safe to place in an HTML page, in element content and in quoted attribute values: event
/// titles, routes and user names are whatever a server or client sent. Markup characters become references, and
/// control characters and bidirectional overrides are shown escaped as ``TerminalText/safe(_:)`` shows them, so that
/// the page is text to `grep` and reads as it was sent.
enum HTMLText {
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default:
                if let escaped = TerminalText.escaped(character) {
                    result += escaped
                } else {
                    result.unicodeScalars.append(character)
                }
            }
        }
        return result
    }
}
