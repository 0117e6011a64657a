/// How text reports are decorated: ANSI colours only when writing to a terminal and `NO_COLOR` is not set.
public struct TextStyle: Sendable {
    public var colors: Bool

    public init(colors: Bool) {
        self.colors = colors
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "31") }

    private func wrap(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
