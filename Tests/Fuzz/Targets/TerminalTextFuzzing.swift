import FaultlineTriage
import Foundation

/// Event text shown on a terminal: nothing in it may reach the terminal as a control, and cutting it to a width
/// keeps it within the width.
enum TerminalTextFuzzing {
    static func run(_ data: Data) throws(Disagreement) {
        let text = String(decoding: data, as: UTF8.self)
        let safe = TerminalText.safe(text)
        try Disagreement.check(TerminalText.safe(safe) == safe, "text made safe still holds a control character")
        let cells = Int(data.first ?? 0) % 40
        let cut = TerminalText.truncated(safe, toWidth: cells)
        try Disagreement.check(
            TerminalText.width(cut) <= cells, "text cut to \(cells) cells takes \(TerminalText.width(cut))")
    }
}
