import FaultlineRecords
import Foundation
import Testing

@testable import FaultlineReporting

/// Breadcrumbs are encoded once, when they enter the scope; an event that carries them unchanged is written with those
/// bytes, and one whose breadcrumbs were changed after the scope was applied (as `beforeSend` may) is written with the
/// change. Either way the bytes are those the event is written with when no scope encoded its breadcrumbs.
@Suite struct ScopeBreadcrumbEncodingTests {
    static func scope() -> Scope {
        var scope = Scope(maxBreadcrumbs: 3)
        for number in 0..<5 {
            scope.addBreadcrumb(
                Breadcrumb(
                    type: "http", category: "http", level: .warning, message: "GET /items/\(number) \"quoted\"",
                    data: ["status_code": .int(400 + number), "url": .string("https://api.example/items/\(number)")],
                    date: Date(timeIntervalSince1970: 1_790_000_000 + Double(number))))
        }
        return scope
    }

    static func bytesWithoutScope(_ event: SentryEvent) -> String {
        String(decoding: EventEncoder.encode(event), as: UTF8.self)
    }

    @Test func anEventCarryingTheScopesBreadcrumbsUsesTheirBytesEncodedOnce() throws {
        let scope = Self.scope()
        var event = SentryEvent(level: .error, date: Date(timeIntervalSince1970: 1_790_000_100))
        scope.apply(to: &event, user: nil)

        #expect(scope.encodedBreadcrumbs(ifSameAs: try #require(event.breadcrumbs).values) != nil)
        #expect(
            event.breadcrumbs?.values.map(\.message) == [
                "GET /items/2 \"quoted\"", "GET /items/3 \"quoted\"", "GET /items/4 \"quoted\"",
            ])
        let written = String(decoding: EventEncoder.encode(event, scope: scope), as: UTF8.self)
        #expect(written == Self.bytesWithoutScope(event))
    }

    @Test func aBreadcrumbChangedAfterTheScopeWasAppliedIsWrittenAsChanged() throws {
        let scope = Self.scope()
        var event = SentryEvent(level: .error, date: Date(timeIntervalSince1970: 1_790_000_100))
        scope.apply(to: &event, user: nil)

        event.breadcrumbs?.values[1].message = "changed by beforeSend"

        #expect(scope.encodedBreadcrumbs(ifSameAs: try #require(event.breadcrumbs).values) == nil)
        let written = String(decoding: EventEncoder.encode(event, scope: scope), as: UTF8.self)
        #expect(written.contains("changed by beforeSend"))
        #expect(written == Self.bytesWithoutScope(event))
    }

    @Test func breadcrumbsReplacedInTheScopeAreEncodedAgain() throws {
        var scope = Self.scope()
        scope.replaceBreadcrumbs { $0.message == "GET /items/3 \"quoted\"" ? Breadcrumb(message: "replaced") : nil }
        var event = SentryEvent(level: .error, date: Date(timeIntervalSince1970: 1_790_000_100))
        scope.apply(to: &event, user: nil)

        let written = String(decoding: EventEncoder.encode(event, scope: scope), as: UTF8.self)
        #expect(written.contains(#""message":"replaced""#))
        #expect(written == Self.bytesWithoutScope(event))
    }
}
