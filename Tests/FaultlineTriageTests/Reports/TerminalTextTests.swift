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
