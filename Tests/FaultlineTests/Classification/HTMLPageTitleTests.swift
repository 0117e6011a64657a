import Faultline
import Foundation
import Testing

/// The title an error page's preview gives the failure: the pages servers and proxies really send, and bodies that
/// only look like pages.
@Suite struct HTMLPageTitleTests {
    private func title(_ body: String, type: String? = "text/html") -> String? {
        BodyPreview(body: Data(body.utf8), contentType: type, limit: 512).pageTitle
    }

    @Test func pythonsHTTPServerErrorPageIsTitledByItsTitle() {
        // what `python3 -m http.server` answers to a POST (http.server.BaseHTTPRequestHandler.send_error)
        let page = """
            <!DOCTYPE HTML>
            <html lang="en">
                <head>
                    <meta charset="utf-8">
                    <title>Error response</title>
                </head>
                <body>
                    <h1>Error response</h1>
                    <p>Error code: 501</p>
                    <p>Message: Unsupported method ('POST').</p>
                </body>
            </html>
            """
        #expect(title(page, type: "text/html;charset=utf-8") == "Error response")
    }

    @Test func aPageWithoutATitleIsTitledByItsFirstHeading() {
        #expect(
            title("<html><body><h1 class=\"big\">Service <b>Unavailable</b></h1><h1>Other</h1></body></html>")
                == "Service Unavailable")
    }

    @Test func entitiesAndWhiteSpaceAreResolvedAndCaseIsIgnored() {
        #expect(
            title("<HTML><HEAD><TITLE>\n  Bad &amp; Ugly &#8212; &#x41;&quot;B&quot;&nbsp;\n</TITLE>")
                == "Bad & Ugly — A\"B\"")
        #expect(title("<html><title>&bogus; &#0; &</title></html>") == "&bogus; &#0; &")
    }

    @Test func anUntypedBodyIsAPageOnlyWhenItStartsAsOne() {
        #expect(title("\u{FEFF}  <!doctype html><title>Oops</title>", type: nil) == "Oops")
        #expect(title("<html><title>Oops</title>", type: "text/plain") == "Oops")
        #expect(title("the word <title>Oops</title> in text", type: nil) == nil)
        #expect(title("{\"title\": \"<title>Oops</title>\"}", type: "application/json") == nil)
    }

    @Test func aPageWithNoTextInItsTitleOrHeadingHasNoTitle() {
        #expect(title("<html><head><title>  </title></head><body><p>nothing</p></body></html>") == nil)
        #expect(title("<html><titles>not a title</titles></html>") == nil)
        #expect(title("<html><title>cut off before it closes") == "cut off before it closes")
    }

    @Test func aLongTitleIsCutAndTheDescriptionNeverCarriesMarkup() {
        let long = String(repeating: "word ", count: 100)
        let cut = title("<title>\(long)</title>")
        #expect(cut?.count == 160)
        #expect(cut?.hasSuffix("…") == true)
    }
}
