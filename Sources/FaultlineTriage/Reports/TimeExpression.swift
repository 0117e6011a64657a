import FaultlineRecords

/// Reads the times `--since` and `--until` take: relative to now (`90s`, `30m`, `2h`, `7d`, `1w`) or absolute
/// (`2026-11-23`, `2026-11-23T14:00:00Z`, `2026-11-23T14:00Z`, or `2026-11-23 14:00` as the tables show times; with an
/// offset or not: UTC is assumed).
package enum TimeExpression {
    /// The seconds a duration such as `90s`, `30m`, `24h`, `7d` or `1w` stands for, or `nil` when `text` is not one.
    package static func duration(_ text: String) -> Double? {
        guard let start = seconds(text, now: 0), start <= 0, text.last?.isLetter == true else { return nil }
        return -start
    }

    /// Seconds since 1970 for `text`, or `nil` when it is neither form.
    package static func seconds(_ text: String, now: Double) -> Double? {
        if let unit = text.last, let amount = Double(text.dropLast()), amount >= 0, amount.isFinite {
            let scale: Double? =
                switch unit {
                case "s": 1
                case "m": 60
                case "h": 3600
                case "d": 86_400
                case "w": 604_800
                default: nil
                }
            // Longer ago than the year 1 is the year 1: no event is older, and every time stays a number of minutes.
            if let scale, (amount * scale).isFinite { return max(now - amount * scale, RFC3339.range.lowerBound) }
        }
        if text.count == 10 { return RFC3339.seconds(text + "T00:00:00Z") }
        let time = withSeconds(text)
        return RFC3339.seconds(time) ?? RFC3339.seconds(time + "Z")
    }

    /// `text` with `T` between its date and time, and `:00` seconds when it gives minutes only (`2026-11-23 14:00`,
    /// `2026-11-23T14:00+09:00`).
    private static func withSeconds(_ text: String) -> String {
        var characters = Array(text)
        guard characters.count >= 16, characters[10] == " " || characters[10] == "T" else { return text }
        characters[10] = "T"
        if characters.count == 16 || !characters[16].isNumber && characters[16] != ":" {
            characters.insert(contentsOf: ":00", at: 16)
        }
        return String(characters)
    }
}
