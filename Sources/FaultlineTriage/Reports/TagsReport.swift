import FaultlineLogReading

/// `faultline tags [id]`: each tag's top values with their counts and shares of the events, for all events or one
/// issue's, as Sentry's tag distribution shows them.
package struct TagsReport: Hashable, Sendable, Encodable {
    /// One tag: how many events have it, its most frequent values, and how many other values it has.
    package struct Tag: Hashable, Sendable, Encodable {
        package let key: String
        package let events: Int
        package let values: [Value]
        package let otherValues: Int

        enum CodingKeys: String, CodingKey {
            case key, events, values
            case otherValues = "other_values"
        }
    }

    /// A value of a tag, its events and their share of all the events counted, 0 to 1.
    package struct Value: Hashable, Sendable, Encodable {
        package let value: String
        package let events: Int
        package let share: Double
    }

    /// The issue's id as shown, when the tags are one issue's.
    package let issue: String?
    package let events: Int
    /// By key.
    package let tags: [Tag]
    package let read: ReadCounts

    /// The report of `distribution`, each tag with its `valuesListed` most frequent values.
    package init(_ distribution: TagDistribution, issue: String?, valuesListed: Int) {
        self.issue = issue
        events = distribution.events
        tags = distribution.counts.keys.sorted().map { key in
            let values = distribution.counts[key] ?? [:]
            let ranked = values.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            let total = max(distribution.events, 1)
            return Tag(
                key: key, events: values.values.reduce(0, +),
                values: ranked.prefix(valuesListed).map {
                    Value(value: $0.key, events: $0.value, share: Double($0.value) / Double(total))
                },
                otherValues: max(0, ranked.count - valuesListed))
        }
        read = distribution.readCounts
    }

    package func encode(to encoder: any Encoder) throws {
        try JSONSchemaVersion.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issue, forKey: .issue)
        try container.encode(events, forKey: .events)
        try container.encode(tags, forKey: .tags)
        try container.encode(read, forKey: .read)
    }

    enum CodingKeys: String, CodingKey {
        case issue, events, tags, read
    }

    /// Each tag on a line of its own, then its values with their counts and shares, indented.
    package func text(style: TextStyle) -> String {
        let safe = TerminalText.safe
        var lines = [
            style.bold((issue.map { "issue \($0): " } ?? "") + "tags of \(counted(events, "event"))")
        ]
        if tags.isEmpty { lines.append("No tags.") }
        for tag in tags {
            lines.append("")
            lines.append(style.bold(safe(tag.key)) + "  (\(counted(tag.events, "event")))")
            for value in tag.values {
                let percent = String(format: "%5.1f%%", value.share * 100)
                lines.append("  \(percent)  \(String(value.events).leftPadded(to: 8))  \(safe(value.value))")
            }
            if tag.otherValues > 0 { lines.append("  … and \(counted(tag.otherValues, "other value"))") }
        }
        return lines.joined(separator: "\n") + "\n" + ReadCounts.text(read, style: style)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
