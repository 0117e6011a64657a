import Foundation
import TestSupport
import Testing

/// `--where`, `--grep` and `faultline tags` over a generated log whose counts are known: any field as a filter and a
/// breakdown.
@Suite struct QueryTests {
    /// Twelve events: devices iPhone 15 (6), iPhone 12 (4) and Pixel 8 (2); iOS for the iPhones and Android for the
    /// Pixels, as `contexts.os.name`; users u0 to u3; the decoding failure on the Pixels only, the others timeouts
    /// whose message names an order.
    private static func log() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory("query")
        let devices =
            Array(repeating: "iPhone 15", count: 6) + Array(repeating: "iPhone 12", count: 4)
            + ["Pixel 8", "Pixel 8"]
        var lines = ""
        for (index, device) in devices.enumerated() {
            let isPixel = device.hasPrefix("Pixel")
            var tags = ["device.model": device, "error.kind": isPixel ? "decoding" : "transport"]
            if index % 3 == 0 { tags["feature_flag"] = "new_checkout" }
            let object: [String: Any] = [
                "event_id": String(format: "%032x", index + 1), "timestamp": "2026-11-23T09:\(10 + index):00Z",
                "level": "error", "release": "app@2.\(index % 2)", "user": ["id": "u\(index % 4)"], "tags": tags,
                "contexts": ["os": ["name": isPixel ? "Android" : "iOS", "version": "17.\(index)"]],
                "message": isPixel ? "keyNotFound profileImage" : "Timed out loading Order \(1000 + index)",
                "fingerprint": [isPixel ? "decoding" : "timeout"],
            ]
            lines += String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) + "\n"
        }
        try Data(lines.utf8).write(to: directory.file("events.jsonl"))
        return directory
    }

    private func summary(_ log: TemporaryDirectory, _ arguments: [String]) async throws -> [String: Any] {
        let output = try await BuiltFaultline.run(["summary", "--json", "--log-dir", log.url.path] + arguments)
        return try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
    }

    @Test func whereFiltersByATagAContextFieldAndTheUserAndGrepByText() async throws {
        let log = try Self.log()
        defer { log.remove() }
        func events(_ arguments: [String]) async throws -> Int? {
            try await summary(log, arguments)["event_count"] as? Int
        }
        #expect(try await events(["--where", "device.model=iPhone 15"]) == 6)
        #expect(try await events(["--where", "device.model=iPhone*"]) == 10)
        #expect(try await events(["--where", "device.model!=iPhone*"]) == 2)
        #expect(try await events(["--where", "tags.feature_flag=new_checkout"]) == 4)
        #expect(try await events(["--where", "feature_flag!=*"]) == 8)  // events without the tag
        #expect(try await events(["--where", "contexts.os.name=Android"]) == 2)
        #expect(try await events(["--where", "contexts.os.version=17.1*"]) == 3)  // 17.1, 17.10, 17.11
        #expect(try await events(["--where", "user.id=u1"]) == 3)
        #expect(try await events(["--where", "user.id=u1", "--where", "release=app@2.1"]) == 3)
        #expect(try await events(["--where", "user.id=u1", "--where", "release=app@2.0"]) == 0)
        #expect(try await events(["--grep", "ORDER 100"]) == 10)
        #expect(try await events(["--grep", "order 1003"]) == 1)
        #expect(try await events(["--grep", "profileimage", "--where", "contexts.os.name=iOS"]) == 0)
        // and the issues, tail and events commands read the same filters
        let issues = try await BuiltFaultline.run([
            "issues", "--json", "--where", "contexts.os.name=Android", "--log-dir", log.url.path,
        ])
        let rows =
            try #require(try JSONSerialization.jsonObject(with: issues) as? [String: Any])["issues"] as? [[String: Any]]
        #expect(rows?.map { $0["events"] as? Int } == [2])
        let tail = try await BuiltFaultline.run([
            "tail", "-n", "20", "--json", "--grep", "keynotfound", "--log-dir", log.url.path,
        ])
        #expect(tail.split(separator: UInt8(ascii: "\n")).count == 2)
        // A condition without '=' is a usage error
        let mistaken = try await BuiltFaultline.outcome(of: [
            "summary", "--where", "device.model", "--log-dir", log.url.path,
        ])
        #expect(mistaken.status == 64 && mistaken.errors.contains("is not a condition"))
    }

    @Test func tagsListEachTagsValuesWithExactCountsAndShares() async throws {
        let log = try Self.log()
        defer { log.remove() }
        let output = try await BuiltFaultline.run(["tags", "--json", "--log-dir", log.url.path])
        let report = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        #expect(report["events"] as? Int == 12)
        let tags = try #require(report["tags"] as? [[String: Any]])
        // the events' own tags, and Sentry's built-in ones from their level, release and os context
        #expect(
            tags.map { $0["key"] as? String }
                == ["device.model", "error.kind", "feature_flag", "level", "os", "os.name", "release"])
        let devices = try #require(tags.first?["values"] as? [[String: Any]])
        #expect(devices.map { $0["value"] as? String } == ["iPhone 15", "iPhone 12", "Pixel 8"])
        #expect(devices.map { $0["events"] as? Int } == [6, 4, 2])
        #expect(devices.map { $0["share"] as? Double } == [0.5, 4.0 / 12, 2.0 / 12])
        #expect(tags[2]["events"] as? Int == 4)

        // For one issue, with --key and --values
        let issues = try JSONSerialization.jsonObject(
            with: await BuiltFaultline.run([
                "issues", "--json", "--where", "error.kind=decoding", "--log-dir", log.url.path,
            ]))
        let id = try #require(((issues as? [String: Any])?["issues"] as? [[String: Any]])?.first?["id"] as? String)
        let one = try #require(
            try JSONSerialization.jsonObject(
                with: await BuiltFaultline.run([
                    "tags", id, "--key", "device.model", "--json", "--log-dir", log.url.path,
                ]))
                as? [String: Any])
        #expect(one["issue"] as? String == id && one["events"] as? Int == 2)
        #expect((one["tags"] as? [[String: Any]])?.map { $0["key"] as? String } == ["device.model"])
        let limited = try #require(
            try JSONSerialization.jsonObject(
                with: await BuiltFaultline.run(["tags", "--values", "1", "--json", "--log-dir", log.url.path]))
                as? [String: Any])
        let first = try #require((limited["tags"] as? [[String: Any]])?.first)
        #expect((first["values"] as? [[String: Any]])?.count == 1 && first["other_values"] as? Int == 2)
        // and the text view says the same
        let text = String(decoding: try await BuiltFaultline.run(["tags", "--log-dir", log.url.path]), as: UTF8.self)
        #expect(text.contains(" 50.0%         6  iPhone 15"))
    }
}
