/// `faultline report --json`: what the page shows, as data: the summary, the incident signals when there is a window
/// (`null` otherwise), the timeline, the top issues, and the events by kind, route, server code, status, user and
/// release.
extension HTMLReport: Encodable {
    enum CodingKeys: String, CodingKey {
        case summary, incident, timeline, issues, breakdowns
        case generatedAt = "generated_at"
    }

    public func encode(to encoder: any Encoder) throws {
        try JSONSchemaVersion.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(generatedAt, forKey: .generatedAt)
        try container.encode(summary, forKey: .summary)
        try container.encode(incident, forKey: .incident)
        try container.encode(timeline, forKey: .timeline)
        try container.encode(issues, forKey: .issues)
        try container.encode(
            Dictionary(uniqueKeysWithValues: breakdowns.map { ($0.id, $0.counts) }), forKey: .breakdowns)
    }
}
