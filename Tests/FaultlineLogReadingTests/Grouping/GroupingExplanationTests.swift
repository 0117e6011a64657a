import FaultlineLogReading
import FaultlineRecords
import Foundation
import Testing

/// What Sentry's grouping normalizes before it counts a value, and its stack trace rules, checked through the
/// explanation `show` prints: each case is one Sentry groups so (its grouping code, its stack trace rules and its
/// grouping fixtures, which are checked from outside the project).
@Suite struct GroupingExplanationTests {
    @Test func javaCodeGenerationMarkersAreAuto() throws {
        let values = try explained(
            platform: "java",
            frames: [
                ["module": "shop.Config$$EnhancerBySpringCGLIB$$9f3e21aa", "function": "orders"],
                ["module": "shop.Order$HibernateProxy$Qw7xZ", "function": "total"],
                ["module": "sun.reflect.GeneratedSerializationConstructorAccessor7", "function": "invoke"],
            ])
        #expect(
            values.filter { $0.path.hasSuffix("module") }.map(\.value) == [
                "shop.Config$$EnhancerBySpringCGLIB$$<auto>", "shop.Order$HibernateProxy$<auto>",
                "sun.reflect.GeneratedSerializationConstructorAccessor<auto>",
            ])
    }

    @Test func javaScriptFunctionsLoseTheirReceiverAndAnonymousOnesDoNotCount() throws {
        let values = try explained(
            platform: "javascript",
            frames: [
                ["filename": "app.js", "abs_path": "/srv/app.js", "function": "Cart.prototype.add"],
                ["filename": "app.js", "abs_path": "/srv/app.js", "function": "Anonymous function"],
                ["filename": "x.js", "abs_path": "eval code", "function": "eval code"],
            ])
        #expect(values.map(\.value) == ["app.js", "add", "app.js", "Error"])
    }

    @Test func nativeFunctionsAreTrimmedToTheirName() throws {
        let values = try explained(
            platform: "native",
            frames: [
                ["filename": "main.cpp", "function": "(anonymous namespace)::parse(char const*, int)"],
                ["filename": "main.cpp", "function": "shop::Cart<std::vector<int>>::total() const"],
            ])
        #expect(
            values.filter { $0.path.hasSuffix("function") }.map(\.value) == [
                "(anonymous namespace)::parse", "shop::Cart<T>::total",
            ])
    }

    @Test func sourceLinesCountWithWhitespaceCollapsedAsPythonSplitsThem() throws {
        let values = try explained(
            platform: "python",
            frames: [
                ["module": "shop", "function": "f", "context_line": "\treturn\u{1C} orders[key]\u{A0}\u{A0}+ 1  "],
                ["module": "shop", "function": "g", "context_line": " \t\u{3000} "],
                // 121 characters as sent, 117 once collapsed: too long all the same
                ["module": "shop", "function": "h", "context_line": "    " + String(repeating: "é", count: 117)],
                ["module": "shop", "function": "i", "context_line": "    " + String(repeating: "x", count: 117)],
            ])
        #expect(values.filter { $0.path.hasSuffix("context-line") }.map(\.value) == ["return orders[key] + 1"])
    }

    @Test func rubyTemplatesLoseTheirGeneratedSuffix() throws {
        let values = try explained(
            platform: "ruby",
            frames: [["filename": "cart.html.erb", "function": "_cart_html_erb__1234567_98765432"]])
        #expect(values.contains { $0.path.hasSuffix("function") && $0.value == "_cart_html_erb" })
    }

    @Test func theAppBundleIsInAppAndBlockInvokeOutsideItDoesNotCount() throws {
        let bundle = "/private/var/containers/Bundle/Application/0C5E/Shop.app/Shop"
        let explanation = try explanation(
            platform: "cocoa", threads: true,
            frames: [
                ["function": "__30-[Checkout pay]_block_invoke", "package": bundle, "in_app": false],
                ["function": "__10-[Other run]_block_invoke_2", "in_app": false],
            ])
        #expect(explanation.variant == .app)
        #expect(explanation.values.map(\.value) == ["__30-[Checkout pay]_block_invoke"])
    }

    @Test func threadBasesTheRuntimesThunksAndWhatAbortCalledDoNotCount() throws {
        let explanation = try explanation(
            platform: "cocoa",
            frames: [
                ["function": "start", "package": "libdyld.dylib"],
                ["function": "UIApplicationMain", "package": "UIKitCore"],
                ["function": "checkout", "package": "Shop"],
                ["function": "@callee_guaranteed", "raw_function": "thunk for @callee_guaranteed () -> ()"],
                ["function": "abort", "package": "libsystem_c.dylib"],
                ["function": "__pthread_kill", "package": "libsystem_kernel.dylib"],
            ])
        #expect(explanation.values.filter { $0.path.hasSuffix("function") }.map(\.value) == ["checkout", "abort"])
    }

    @Test func javaFrameworksAndSentryAreNotTheApp() throws {
        let explanation = try explanation(
            platform: "java",
            frames: [
                ["module": "org.springframework.boot.SpringApplication", "function": "run", "in_app": true],
                ["module": "io.sentry.shop.Main", "function": "main", "in_app": true],
            ])
        #expect(explanation.variant == .system)
        #expect(explanation.values.map(\.value) == ["org.springframework.boot.SpringApplication", "run", "Error"])
    }

    @Test func anExceptionGroupOfLikeExceptionsIsThatException() throws {
        func member(_ type: String, _ value: String, id: Int, parent: Int?, isGroup: Bool = false) -> [String: Any] {
            var mechanism: [String: Any] = ["type": "chained", "exception_id": id, "is_exception_group": isGroup]
            if let parent { mechanism["parent_id"] = parent }
            return ["type": type, "value": value, "mechanism": mechanism]
        }
        let alike = try explanation(exceptions: [
            member("Shop.Timeout", "after 3 s", id: 2, parent: 0),
            member("Shop.Timeout", "after 5 s", id: 1, parent: 0),
            member("AggregateException", "One or more errors occurred.", id: 0, parent: nil, isGroup: true),
        ])
        #expect(alike.values.map(\.path) == ["exception/type", "exception/value"])
        #expect(alike.values.map(\.value) == ["Shop.Timeout", "after <int> s"])
        let different = try explanation(exceptions: [
            member("Shop.Timeout", "after 3 s", id: 2, parent: 0), member("Shop.Refused", "no", id: 1, parent: 0),
            member("AggregateException", "One or more errors occurred.", id: 0, parent: nil, isGroup: true),
        ])
        #expect(
            different.values.filter { $0.path.hasSuffix("type") }.map(\.value) == [
                "Shop.Timeout", "Shop.Refused", "AggregateException",
            ])
    }

    @Test func quotedIdentifiersInValuesAndNothingThatCountsAreSentrysToo() throws {
        let value = try explanation(exceptions: [["type": "InFailedSqlTransaction", "value": #"RELEASE "s1_x7""#]])
        #expect(value.values.last?.value == "RELEASE <quoted_identifier>")
        let nothing = try explanation(
            platform: "javascript", frames: [["abs_path": "blob:http://shop.test/7f7a", "filename": "blob:x"]],
            withException: false)
        #expect(nothing.variant == .fallback && nothing.values.isEmpty)
        let custom = try GroupingExplanationTests.explain([
            "fingerprint": ["checkout", "{{ default }}"], "message": "x",
        ])
        #expect(custom.values.map(\.value) == ["x", "checkout"])
    }

    // MARK: Events

    private func explained(platform: String, frames: [[String: Any]]) throws -> [GroupingExplanation.Value] {
        try explanation(platform: platform, frames: frames).values
    }

    private func explanation(
        platform: String, threads: Bool = false, frames: [[String: Any]], withException: Bool = true
    ) throws -> GroupingExplanation {
        var event: [String: Any] = ["platform": platform]
        let stackTrace: [String: Any] = ["frames": frames]
        if threads {
            event["threads"] = ["values": [["crashed": true, "stacktrace": stackTrace]]]
        } else if withException {
            event["exception"] = ["values": [["type": "Error", "value": "boom", "stacktrace": stackTrace]]]
        } else {
            event["stacktrace"] = stackTrace
        }
        return try Self.explain(event)
    }

    private func explanation(exceptions: [[String: Any]]) throws -> GroupingExplanation {
        try Self.explain(["platform": "csharp", "exception": ["values": exceptions]])
    }

    private static func explain(_ event: [String: Any]) throws -> GroupingExplanation {
        var event = event
        event["event_id"] = "0a6e1826774d4b6f9e2f5b0c3d4e5f60"
        event["timestamp"] = 1_767_225_600
        let line = try JSONSerialization.data(withJSONObject: event)
        return try line.withUnsafeBytes { raw in
            try EventRecord.groupingExplanation(line: raw.bindMemory(to: UInt8.self))
        }
    }
}
