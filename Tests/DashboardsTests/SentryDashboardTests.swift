import Foundation
import TestSupport
import Testing

/// `Dashboards/sentry/`: each dashboard matches the documented schema of Sentry's dashboards API, and every tag and
/// field its widgets query is one the pipeline emits, as found in the events of the demo's log.
@Suite struct SentryDashboardTests {
    static let folder = Repository.file("Dashboards/sentry")

    @Test func everyDashboardMatchesTheSchemaAndQueriesOnlyWhatThePipelineEmits() async throws {
        let temporary = try TemporaryDirectory("sentry")
        defer { temporary.remove() }
        let work = temporary.url
        _ = try await BuiltFaultline.run(["--log-dir", work.path], program: BuiltFaultline.demo)
        let emitted = try Emitted(log: work.appendingPathComponent("events.jsonl"))

        let dashboards = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0.hasSuffix(".json") && $0 != "dashboard-schema.json" }
        try #require(!dashboards.isEmpty)
        for dashboard in dashboards {
            let references = try await Self.check(Self.folder.appendingPathComponent(dashboard))
            #expect(!references.tags.isEmpty, "\(dashboard) queries no tag")
            for tag in references.tags {
                #expect(emitted.tags.contains(tag), "\(dashboard) queries the tag \(tag), which no event has")
            }
            for field in references.fields where !field.hasSuffix(")") {
                #expect(emitted.fields.contains(field), "\(dashboard) queries the field \(field), which no event has")
            }
        }
    }

    /// The tags and fields a dashboard's widgets name, from `Tests/peers/check_sentry_dashboard.py`, which fails
    /// when the dashboard does not match `dashboard-schema.json`.
    private static func check(_ dashboard: URL) async throws -> (tags: [String], fields: [String]) {
        let output = try await PythonPeer.run(
            "check_sentry_dashboard.py", [dashboard.path, folder.appendingPathComponent("dashboard-schema.json").path])
        let references = try JSONDecoder().decode([String: [String]].self, from: output)
        return (references["tags"] ?? [], references["fields"] ?? [])
    }
}

/// The tag names, and the event fields in Sentry's query names (`release`, `user`, `user.id`), that the events
/// of a log carry.
private struct Emitted {
    var tags: Set<String> = []
    var fields: Set<String> = []

    init(log: URL) throws {
        for line in try String(contentsOf: log, encoding: .utf8).split(separator: "\n") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let eventTags = event["tags"] as? [String: String] { tags.formUnion(eventTags.keys) }
            for field in ["release", "environment", "level", "message", "platform"] where event[field] != nil {
                fields.insert(field)
            }
            if let user = event["user"] as? [String: Any] {
                fields.insert("user")
                fields.formUnion(user.keys.map { "user.\($0)" })
            }
        }
    }
}
