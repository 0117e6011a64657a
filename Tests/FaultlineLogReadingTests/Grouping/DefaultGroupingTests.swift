import FaultlineLogReading
import FaultlineRecords
import Foundation
import Testing

/// Events without a fingerprint are grouped as Sentry groups them: the cases are those of Sentry's grouping code and
/// documentation (docs.sentry.io, "Issue Grouping").
@Suite struct DefaultGroupingTests {
    @Test func pythonFramesCountByModuleFunctionAndSourceLineButNotLineNumber() throws {
        let first = try grouping(
            python(value: "'k1'", frames: [frame("shop", "lookup", line: 9, "return orders[key]")]))
        let moved = try grouping(
            python(value: "'k2'", frames: [frame("shop", "lookup", line: 31, "return  orders[key]")]))
        #expect(first == moved)  // another line number, value, and spacing of the source line: one issue
        #expect(first.first == "KeyError" && first.last?.hasPrefix("in-app stack ") == true)
        let otherLine = try grouping(
            python(value: "'k1'", frames: [frame("shop", "lookup", line: 9, "return cart[key]")]))
        let otherFunction = try grouping(
            python(value: "'k1'", frames: [frame("shop", "find", line: 9, "return orders[key]")]))
        let otherModule = try grouping(
            python(value: "'k1'", frames: [frame("cart", "lookup", line: 9, "return orders[key]")]))
        #expect(Set([first, otherLine, otherFunction, otherModule]).count == 4)
        // A source line longer than 120 characters does not count
        let long = String(repeating: "x", count: 121)
        #expect(
            try grouping(python(value: "a", frames: [frame("shop", "f", line: 1, long + "1")]))
                == grouping(python(value: "b", frames: [frame("shop", "f", line: 1, long + "2")])))
    }

    @Test func aStackTraceSeenAgainIsGroupedAsItWasFirst() throws {
        // Stack traces that come again are looked up by what grouping reads of them, as sent
        func event(platform: String, module: String, source: String, variable: Int) -> String {
            #"{"event_id":"e","timestamp":1,"platform":"\#(platform)","exception":{"values":[{"type":"KeyError","value":"k","stacktrace":{"frames":[{"module":"\#(module)","function":"pay","lineno":4,"context_line":"\#(source)","vars":{"n":\#(variable)},"in_app":true}]}}]}}"#
        }
        let first = try grouping(event(platform: "python", module: "shop", source: "charge(card)", variable: 1))
        // other local variables, and the same module escaped otherwise, are the same stack
        #expect(try grouping(event(platform: "python", module: "shop", source: "charge(card)", variable: 2)) == first)
        #expect(
            try grouping(event(platform: "python", module: #"sh\u006fp"#, source: "charge(card)", variable: 3)) == first
        )
        // another source line is another stack; on a native platform, which does not read it, the same
        let other = try grouping(event(platform: "python", module: "shop", source: "charge(cash)", variable: 1))
        #expect(other != first)
        #expect(
            try grouping(event(platform: "cocoa", module: "shop", source: "charge(card)", variable: 1))
                == grouping(event(platform: "cocoa", module: "shop", source: "charge(cash)", variable: 1)))
    }

    @Test func onlyInAppFramesCountWhenThereAreAnyElseAllFramesDo() throws {
        let app = frame("shop", "checkout", line: 3, "pay()")
        let library = { (function: String) in frame("requests", function, line: 7, "send()", inApp: false) }
        #expect(
            try grouping(python(value: "x", frames: [library("get"), app]))
                == grouping(python(value: "y", frames: [library("post"), app])))
        // With no in-app frame, every frame counts and the value still does not
        let system = try grouping(python(value: "x", frames: [library("get")]))
        #expect(system == (try grouping(python(value: "y", frames: [library("get")]))))
        #expect(system != (try grouping(python(value: "x", frames: [library("post")]))))
        #expect(system.last?.hasPrefix("stack ") == true)
    }

    @Test func nativeFramesCountByFileBaseNameAndFunctionNotSourceLine() throws {
        func cocoa(_ path: String, _ function: String, _ line: String) -> String {
            #"{"event_id":"\#(UUID().uuidString)","timestamp":1,"platform":"cocoa","exception":{"values":[{"type":"NSRangeException","value":"index \#(Int.random(in: 0...99))","stacktrace":{"frames":[{"filename":"\#(path)","function":"\#(function)","context_line":"\#(line)","in_app":true}]}}]}}"#
        }
        #expect(
            try grouping(cocoa("/a/Foo.swift", "load()", "a()")) == grouping(cocoa("/b/foo.swift", "load()", "b()")))
        #expect(try grouping(cocoa("/a/Foo.swift", "load()", "a")) != grouping(cocoa("/a/Bar.swift", "load()", "a")))
        // and a placeholder function does not count
        #expect(try grouping(cocoa("Foo.swift", "<redacted>", "")) == grouping(cocoa("Foo.swift", "<unknown>", "")))
    }

    @Test func recursionCountsOnceAndSyntheticTypesDoNotCount() throws {
        let a = frame("shop", "walk", line: 4, "walk(node.next)")
        let b = frame("shop", "main", line: 9, "walk(root)")
        #expect(
            try grouping(python(value: "x", frames: [b, a, a, a])) == grouping(python(value: "x", frames: [b, a])))
        #expect(try grouping(python(value: "x", frames: [a, b, a])) != grouping(python(value: "x", frames: [a, b])))
        let synthetic = { (type: String) in
            #"{"event_id":"e","timestamp":1,"exception":{"values":[{"type":"\#(type)","value":"v","mechanism":{"type":"signal","synthetic":true}}]}}"#
        }
        #expect(try grouping(synthetic("SIGSEGV")) == grouping(synthetic("EXC_BAD_ACCESS")))
    }

    @Test func anExceptionWithoutFramesIsGroupedByTypeAndNormalisedValue() throws {
        let line = { (value: String) in
            #"{"event_id":"e","timestamp":1,"exception":{"values":[{"type":"ValueError","value":"\#(value)"}]}}"#
        }
        #expect(try grouping(line("no user 123")) == ["ValueError", "no user <int>"])
        #expect(try grouping(line("no user 123")) == grouping(line("no user 456")))
        #expect(try grouping(line("no user")) != grouping(line("no order")))
    }

    @Test func aChainIsGroupedByEveryExceptionInIt() throws {
        let cause =
            #"{"type":"KeyError","value":"'x'","stacktrace":{"frames":[{"module":"shop","function":"lookup","in_app":true}]}}"#
        let raised =
            #"{"type":"RuntimeError","value":"wrapped","stacktrace":{"frames":[{"module":"shop","function":"outer","in_app":true}]}}"#
        let chained = try grouping(#"{"event_id":"e","timestamp":1,"exception":{"values":[\#(cause),\#(raised)]}}"#)
        let alone = try grouping(#"{"event_id":"e","timestamp":1,"exception":{"values":[\#(raised)]}}"#)
        #expect(chained.prefix(2) == ["KeyError", "RuntimeError"])
        #expect(chained != alone)
    }

    @Test func aMessageIsGroupedByItsTemplateElseItsNormalisedText() throws {
        let logged = { (invoice: Int) in
            #"{"event_id":"e","timestamp":1,"logentry":{"message":"Invoice %s failed to render","formatted":"Invoice \#(invoice) failed to render","params":[\#(invoice)]}}"#
        }
        #expect(try grouping(logged(7)) == ["message", "Invoice %s failed to render"])
        #expect(try grouping(logged(7)) == grouping(logged(8)))
        let message = { (text: String) in #"{"event_id":"e","timestamp":1,"message":"\#(text)"}"# }
        #expect(try grouping(message("user 1234 not found")) == ["message", "user <int> not found"])
        #expect(
            try grouping(message("order 7c1811ed-e98f-4c9c-a9f9-58c757ff494f failed at 2024-02-20T22:16:36Z"))
                == ["message", "order <uuid> failed at <date>"])
    }

    @Test func aThreadsStackTraceGroupsAMessageThatCarriesOne() throws {
        let line = { (text: String, crashed: String) in
            #"{"event_id":"e","timestamp":1,"message":"\#(text)","threads":{"values":[{"id":1,"crashed":false,"stacktrace":{"frames":[{"module":"a","function":"idle","in_app":true}]}},{"id":2,"crashed":true,"stacktrace":{"frames":[{"module":"shop","function":"\#(crashed)","in_app":true}]}}]}}"#
        }
        #expect(try grouping(line("slow checkout", "pay")) == grouping(line("slow payment", "pay")))
        #expect(try grouping(line("slow checkout", "pay")) != grouping(line("slow checkout", "ship")))
    }

    @Test func aFingerprintIsKeptAndItsDefaultPartStandsForTheDefaultGrouping() throws {
        let line = { (fingerprint: String) in
            #"{"event_id":"e","timestamp":1,"exception":{"values":[{"type":"ValueError","value":"bad amount 5"}]},"fingerprint":\#(fingerprint)}"#
        }
        #expect(try grouping(line(#"["checkout"]"#)) == ["checkout"])
        for part in ["{{ default }}", "{{default}}", " {{ default}} "] {
            #expect(try grouping(line(#"["checkout","\#(part)"]"#)) == ["checkout", "ValueError", "bad amount <int>"])
        }
        // and parts that only look like it, ASCII or not, stay as they are
        for part in ["{{ defaults }}", "{{ default", "{default}", "{{\\tdefault}}", "{{ défault }}", "결제 {{default}}"] {
            let record = try record(line(#"["checkout","\#(part)"]"#))
            #expect(record.grouping == ["checkout", record.fingerprint[1]])
        }
    }

    // MARK: Events

    private func python(value: String, frames: [String]) -> String {
        #"{"event_id":"e","timestamp":1,"platform":"python","exception":{"values":[{"type":"KeyError","value":"\#(value)","stacktrace":{"frames":[\#(frames.joined(separator: ","))]}}]}}"#
    }

    private func frame(_ module: String, _ function: String, line: Int, _ source: String, inApp: Bool = true) -> String
    {
        #"{"module":"\#(module)","filename":"\#(module).py","function":"\#(function)","lineno":\#(line),"context_line":"    \#(source)","in_app":\#(inApp)}"#
    }

    private func record(_ line: String) throws -> EventRecord {
        try Array(line.utf8).withUnsafeBufferPointer { try EventRecord(line: $0) }
    }

    private func grouping(_ line: String) throws -> [String] {
        try record(line).grouping
    }
}
