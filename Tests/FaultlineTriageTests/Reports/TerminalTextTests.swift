import FaultlineTriage
import Testing

/// Text from events on a terminal: escaped, measured in cells, cut to fit.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAndBidiOverridesAreShownEscapedOnOneLine() {
        #expect(TerminalText.safe("\u{1B}[2J\u{1B}]0;pwned\u{07}") == #"\x1B[2J\x1B]0;pwned\x07"#)
        #expect(TerminalText.safe("a\nb\r\tc\u{7F}") == #"a\nb\r\tc\x7F"#)
        #expect(TerminalText.safe("c1 \u{9B}31m and nel \u{85}") == #"c1 \u{9B}31m and nel \u{85}"#)
        #expect(
            TerminalText.safe("ana\u{202E}gnp.exe \u{2066}x\u{2069} \u{200F}")
                == #"ana\u{202E}gnp.exe \u{2066}x\u{2069} \u{200F}"#)
        #expect(TerminalText.safe("line\u{2028}sep") == #"line\u{2028}sep"#)
    }

    @Test func printableTextIsLeftAsItIs() {
        for text in ["GET /users/{id}: HTTP 404", "여행 일정이 중복됩니다.", "naïve café — “quoted” ✓ 🚀", "→ 200", ""] {
            #expect(TerminalText.safe(text) == text)
        }
    }

    @Test func widthCountsCellsNotCharacters() {
        #expect(TerminalText.width("abc") == 3)
        #expect(TerminalText.width("여행") == 4)
        #expect(TerminalText.width("日本語テキスト") == 14)
        #expect(TerminalText.width("ｆｕｌｌ") == 8)
        #expect(TerminalText.width("e\u{301}") == 1)
        #expect(TerminalText.width("🚀 ok") == 5)
    }

    @Test func truncationCutsToCellsWithAnEllipsis() {
        #expect(TerminalText.truncated("abcdef", toWidth: 6) == "abcdef")
        #expect(TerminalText.truncated("abcdefg", toWidth: 6) == "abcde…")
        // A double-width character that would straddle the edge is left out whole
        #expect(TerminalText.truncated("여행 일정이", toWidth: 6) == "여행 …")
        #expect(TerminalText.width(TerminalText.truncated("여행 일정이 중복됩니다", toWidth: 9)) <= 9)
        #expect(TerminalText.truncated("abc", toWidth: 0) == "")
    }

    @Test func aMiddleCutKeepsTheStartTheEndAndAGivenHead() {
        let title = "valueNotFound at 'data.profileImage' decoding Envelope<User> (expected String): found null"
        #expect(TerminalText.truncatedInMiddle(title, toWidth: title.count) == title)
        #expect(TerminalText.truncatedInMiddle("abcdefghijklmnopqrstuvwxyz", toWidth: 15) == "abcdefg…tuvwxyz")
        // the head (here the coding path) stays whole, the rest of the cells go to the end
        let cut = TerminalText.truncatedInMiddle(title, toWidth: 48, keepingHead: 36)
        #expect(cut == "valueNotFound at 'data.profileImage'… found null")
        // cells, not characters: a double-width character that would straddle the cut is left out
        let korean = TerminalText.truncatedInMiddle("HTTP 400 code 40013 \"여행 일정이 중복됩니다.\"", toWidth: 24)
        #expect(TerminalText.width(korean) <= 24 && korean.hasPrefix("HTTP 400 co") && korean.hasSuffix("니다.\""))
        // with too little room for an end, it is cut at its end
        #expect(TerminalText.truncatedInMiddle(title, toWidth: 40, keepingHead: 36) == String(title.prefix(39)) + "…")
    }

    @Test func proseWrapsAtSpacesWithinTheWidth() {
        let legend = "new: first seen in the window. spiking: at least 10 events and 5× the baseline's rate."
        let wrapped = TerminalText.wrapped(legend, toWidth: 40)
        #expect(wrapped.split(separator: "\n").allSatisfy { TerminalText.width(String($0)) <= 40 })
        #expect(wrapped.replacingOccurrences(of: "\n", with: " ") == legend)
        #expect(TerminalText.wrapped(legend, toWidth: nil) == legend)
        #expect(TerminalText.wrapped("unbreakable-\(String(repeating: "x", count: 50))", toWidth: 20).count == 62)
    }

    @Test func colourFollowsNoColorAndTermAndWidthFollowsColumns() {
        let terminal = { (environment: [String: String]) in
            TextStyle.forStandardOutput(environment: environment, isTerminal: true, terminalWidth: 100)
        }
        #expect(terminal([:]).colors)
        #expect(terminal(["NO_COLOR": ""]).colors)  // only a non-empty NO_COLOR turns colour off
        #expect(!terminal(["NO_COLOR": "1"]).colors)
        #expect(!terminal(["TERM": "dumb"]).colors)
        #expect(terminal([:]).width == 100)
        #expect(terminal(["COLUMNS": "80"]).width == 80)
        let piped = TextStyle.forStandardOutput(environment: [:], isTerminal: false, terminalWidth: nil)
        #expect(!piped.colors && piped.width == nil)
        #expect(
            TextStyle.forStandardOutput(environment: ["COLUMNS": "72"], isTerminal: false, terminalWidth: nil).width
                == 72)
    }
}
