import Testing

@testable import FaultlineLogReading

/// Stack trace rules' patterns match as Sentry's `glob_match` does, including where the quick rejects (the pattern's
/// longest literal run, its first byte) could wrongly refuse a value.
@Suite struct GroupingGlobTests {
    @Test func starsStopAtSlashesInPathsAndDoubleStarsDoNot() {
        let modules = GroupingGlob("**/site-packages/**", isPath: true)
        #expect(matches(modules, "/usr/lib/python3.12/site-packages/requests/api.py", isPath: true))
        #expect(matches(modules, "C:\\Python\\Lib\\site-packages\\requests\\api.py", isPath: true))
        #expect(matches(modules, "site-packages/requests/api.py", isPath: true))  // a path without its leading /
        #expect(!matches(modules, "/srv/shop/site_packages/api.py", isPath: true))
        let library = GroupingGlob("/usr/lib/*", isPath: true)
        #expect(matches(library, "/usr/lib/libc.so.6", isPath: true))
        #expect(matches(library, "usr/lib/libc.so.6", isPath: true))
        #expect(!matches(library, "/usr/lib/x86_64/libc.so.6", isPath: true))
        #expect(
            matches(
                GroupingGlob("**.app/Contents/**", isPath: true), "/Applications/Shop.App/contents/MacOS/Shop",
                isPath: true))
    }

    @Test func functionsMatchWholeAndWithoutCase() {
        let blocks = GroupingGlob("*_block_invoke*", isPath: false)
        #expect(matches(blocks, "__30-[Checkout pay]_block_invoke_2", isPath: false))
        #expect(!matches(blocks, "checkout_block", isPath: false))
        let standard = GroupingGlob("std::*", isPath: false)
        #expect(matches(standard, "STD::vector<int>::at", isPath: false))
        #expect(!matches(standard, "mystd::at", isPath: false))  // the first byte does not match
        #expect(matches(GroupingGlob("?", isPath: false), "x", isPath: false))
        #expect(!matches(GroupingGlob("?", isPath: false), "", isPath: false))
        #expect(matches(GroupingGlob("", isPath: false), "", isPath: false))
    }

    @Test func setsAndEscapesMatchTheirBytes() {
        let sentry = GroupingGlob("?[[]Sentry*", isPath: false)
        #expect(matches(sentry, "-[SentryClient captureEvent:]", isPath: false))
        #expect(matches(sentry, "+[sentrySDK start]", isPath: false))
        #expect(!matches(sentry, "-[ShopClient captureEvent:]", isPath: false))
        #expect(!matches(sentry, "-Sentry", isPath: false))
        let negated = GroupingGlob("a[!x]c", isPath: false)
        #expect(matches(negated, "abc", isPath: false) && !matches(negated, "axc", isPath: false))
        let closing = GroupingGlob("[]]x", isPath: false)
        #expect(matches(closing, "]x", isPath: false) && !matches(closing, "ax", isPath: false))
        let escaped = GroupingGlob("\\[KSCrash*", isPath: false)
        #expect(matches(escaped, "[KSCrash install]", isPath: false))
        #expect(!matches(escaped, "\\[KSCrash install]", isPath: false))
        #expect(matches(GroupingGlob("a[b", isPath: false), "a[b", isPath: false))  // an unclosed set is a literal [
    }

    private func matches(_ glob: GroupingGlob, _ value: String, isPath: Bool) -> Bool {
        GroupingGlob.folded(value, isPath: isPath).withUnsafeBufferPointer { glob.matches($0) }
    }
}
