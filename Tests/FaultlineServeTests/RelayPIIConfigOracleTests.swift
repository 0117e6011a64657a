import FaultlineReporting
import FaultlineServe
import Foundation
import TestSupport
import Testing

/// A Relay PII config does in serve what it does in Relay, with Relay's own engine as the oracle: each config below is
/// applied by Relay (sentry-relay's `pii_strip_event`) and by ``PIIConfig`` to the events of every scrubbing corpus
/// (`Tests/peers/scrubbing/`) and of one with the shapes a config meets at its edges (`Tests/peers/pii/edges.json`),
/// as Relay's normalizer leaves them, and every value of the results is compared.
///
/// The configs use what Faultline applies as Relay does: selectors of every kind (paths, quoted keys, indexes,
/// `*`, `**`, types, `&&`, `||`, `!`), the rule types `pattern`, `redact_pair`, `anything`, `alias`, `multiple`, the
/// builtins whose matches are Relay's (`@email`, `@ip`, `@uuid`, `@mac`, `@imei`, `@usssn`), and every redaction.
/// Where a builtin finds what Faultline's own scanner finds instead, the differences are the next suite's.
@Suite struct RelayPIIConfigOracleTests {
    static let configs: [String] = [
        #"{"applications": {"$string": ["@anything:replace"]}}"#,
        #"{"applications": {"$number || $object || $array": ["@anything:remove"]}}"#,
        #"{"applications": {"**": ["@anything:hash"]}}"#,
        #"{"applications": {"$string && !$http.**": ["@anything:mask"], "$http.headers.*": ["@anything"]}}"#,
        #"""
        {"applications": {
          "$error.value": ["@anything:mask"], "$frame.abs_path || $frame.module": ["@anything:replace"],
          "$http.url": ["@anything:hash"], "contexts.device.name || contexts.app.device_app_hash": ["@anything"],
          "tags.*": ["@anything:replace"], "extra.'sys.argv'.1": ["@anything:remove"], "$user.email": ["@email:mask"],
          "$breadcrumb.data.*": ["@anything:hash"], "debug_meta.images.*.code_file": ["@anything:remove"]
        }}
        """#,
        #"""
        {"rules": {
           "order": {"type": "pattern", "pattern": "ORD-(\\d{4})-(\\d+)", "replaceGroups": [2],
                     "redaction": {"method": "replace", "text": "N"}},
           "sessions": {"type": "redact_pair", "keyPattern": "(?i)session|theme", "redaction": {"method": "mask"}},
           "cards": {"type": "pattern", "pattern": "\\b4\\d{15}\\b", "redaction": {"method": "hash"}},
           "both": {"type": "multiple", "rules": ["order", "cards"], "hideInner": true,
                    "redaction": {"method": "replace", "text": "[both]"}},
           "quiet": {"type": "alias", "rule": "sessions"}
         },
         "applications": {"$string": ["both"], "$http.cookies.* || $http.headers.*": ["quiet"], "extra.*": ["order"]}}
        """#,
        #"{"applications": {"$string": ["@email", "@ip:hash", "@uuid", "@usssn:replace", "@mac:remove", "@imei", "@cookies:filter"]}}"#,
        #"""
        {"applications": {
          "extra.'sys.argv'.2 || extra.'quoted é\"key' || $breadcrumb.data.pairs.0.1": ["@anything:mask"],
          "$frame.abs_path || $frame.filename || $http.env.*": ["@userpath", "@userpath:hash"],
          "($frame.vars.* && !$frame.vars.list) || contexts.checkout.*": ["@anything:replace"],
          "$logentry.params.* | $user.ip_address": ["@anything:hash"], "~$string & tags.*": ["@anything:remove"]
        }}
        """#,
    ]

    @Test(arguments: 0..<8)
    func aConfigChangesEveryValueAsRelayDoes(_ index: Int) async throws {
        // Given the corpora's events as Relay's normalizer leaves them, and a PII config
        let files =
            ["python", "javascript", "cocoa", "java"].map { Repository.file("Tests/peers/scrubbing/\($0).json").path }
            + [Repository.file("Tests/peers/pii/edges.json").path]
        let normalized = Self.lines(try await PythonPeer.run("relay_scrub.py", ["--normalized"] + files))
        let directory = try TemporaryDirectory("pii-config")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("pii.json")
        try Data(Self.configs[index].utf8).write(to: file)

        // When Relay applies it, and Faultline applies it
        let relays = Self.lines(try await PythonPeer.run("relay_scrub.py", ["--pii-config", file.path] + files))
        let config = try PIIConfig(json: Data(Self.configs[index].utf8))
        let ours = normalized.map { config.applied(toEvent: $0) ?? $0 }

        // Then every value of every event is the same
        #expect(relays.count == normalized.count && ours.count == normalized.count)
        var differences: [String] = []
        var changed = 0
        for (relay, (faultline, original)) in zip(relays, zip(ours, normalized)) {
            let expected = try Self.leaves(of: JSONValue(parsing: relay))
            let actual = try Self.leaves(of: JSONValue(parsing: faultline))
            if expected != (try Self.leaves(of: JSONValue(parsing: original))) { changed += 1 }
            // (`received` is the time each normalizing gives)
            for path in Set(expected.keys).union(actual.keys).sorted()
            where expected[path] != actual[path] && path != ".received" {
                differences.append("\(path): Relay \(expected[path] ?? "-"), Faultline \(actual[path] ?? "-")")
            }
        }
        // (the config changes something in the corpora)
        #expect(changed > 0)
        #expect(differences == [], "config \(index)")
    }

    /// The JSON lines of `output`.
    private static func lines(_ output: Data) -> [Data] {
        output.split(separator: UInt8(ascii: "\n")).map { Data($0) }
    }

    /// Each scalar of `value` by its path; `null` and empty containers count as missing, as Relay leaves a removed
    /// value out.
    private static func leaves(of value: JSONValue, at path: String = "") -> [String: String] {
        switch value {
        case .null: return [:]
        case .object(let members):
            return members.reduce(into: [:]) { leaves, member in
                leaves.merge(Self.leaves(of: member.value, at: path + "." + member.key)) { first, _ in first }
            }
        case .array(let elements):
            return elements.enumerated().reduce(into: [:]) { leaves, element in
                leaves.merge(Self.leaves(of: element.element, at: path + ".\(element.offset)")) { first, _ in first }
            }
        case .string(let text): return [path: text]
        case .int(let number): return [path: "\(number)"]
        case .double(let number): return [path: "\(number)"]
        case .bool(let flag): return [path: "\(flag)"]
        }
    }
}
