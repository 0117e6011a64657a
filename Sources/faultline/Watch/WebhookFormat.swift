import ArgumentParser
import FaultlineTriage
import Foundation

/// The body `faultline watch` posts, for the receivers people use: a Slack-compatible incoming webhook (also Mattermost,
/// Discord's `/slack` endpoint, Rocket.Chat), an ntfy topic, or a generic JSON object.
enum WebhookFormat: String, ExpressibleByArgument, CaseIterable {
    case slack, ntfy, json

    /// One issue flagged with `signal`: its request's body and the headers it needs.
    func request(for row: IssueRow, signal: String) throws -> (body: Data, headers: [String: String]) {
        let summary = Self.summary(of: row, signal: signal)
        switch self {
        case .slack:
            let body = try JSONSerialization.data(withJSONObject: ["text": summary.title + "\n" + summary.details])
            return (body, ["Content-Type": "application/json"])
        case .ntfy:
            return (
                Data(summary.details.utf8),
                ["Title": summary.title, "Tags": signal == "new" ? "new" : "warning", "Content-Type": "text/plain"]
            )
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try encoder.encode(Alert(signal: signal, issue: row)), ["Content-Type": "application/json"])
        }
    }

    /// `faultline: new issue 243e3b92` and a line of what it is: title, route and status, counts, releases.
    private static func summary(of row: IssueRow, signal: String) -> (title: String, details: String) {
        let place = [row.route, row.status].compactMap { $0 }.joined(separator: " ")
        let releases = row.releases.isEmpty ? "" : "; releases \(row.releases.prefix(3).joined(separator: ", "))"
        let since = row.signals?.since.map { ", since \($0)" } ?? ""
        let details =
            "\(row.title)\(place.isEmpty ? "" : " (\(place))"): \(counted(row.events, "event")), \(counted(row.users, "user"))\(since)"
            + "\(releases). Run 'faultline show \(row.id)'."
        return ("faultline: \(signal) issue \(row.id)", details)
    }

    /// The generic JSON body: the signal and the issue as `--json` prints it.
    private struct Alert: Encodable {
        let schemaVersion = JSONSchemaVersion.current
        let signal: String
        let issue: IssueRow

        enum CodingKeys: String, CodingKey {
            case signal, issue
            case schemaVersion = "schema_version"
        }
    }
}
