/// How text reports are laid out and decorated: ANSI colours or none, and the width they fit in.
package struct TextStyle: Sendable {
    package var colors: Bool
    /// The terminal's width in cells: tables narrow their title column and leave out columns to fit, and `tail`
    /// cuts its lines; `nil` for no limit.
    package var width: Int?

    package init(colors: Bool, width: Int? = nil) {
        self.colors = colors
        self.width = width
    }

    /// The style for standard output: colours only on a terminal whose `TERM` is not `dumb` and when `NO_COLOR` is
    /// not set to a non-empty value (no-color.org); the width of `COLUMNS` when it is set, else of the terminal.
    package static func forStandardOutput(environment: [String: String], isTerminal: Bool, terminalWidth: Int?)
        -> TextStyle
    {
        let colors = isTerminal && environment["TERM"] != "dumb" && (environment["NO_COLOR"] ?? "").isEmpty
        let columns = environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        return TextStyle(colors: colors, width: columns ?? (isTerminal ? terminalWidth : nil))
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "31") }

    private func wrap(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
