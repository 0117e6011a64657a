import FaultlineReporting

/// Formats seconds since 1970 as RFC 3339 in UTC to the second (`2026-11-23T11:15:13Z`), without a formatter.
public enum UTCTime {
    public static func string(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = RFC3339.civilDate(daysSince1970: days)
        return "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(secondOfDay / 3600)):\(pad(secondOfDay / 60 % 60)):"
            + "\(pad(secondOfDay % 60))Z"
    }

    /// `2026-11-23T09:05:00Z` as `2026-11-23 09:05`, for tables.
    static func minute(_ time: String) -> String {
        String(time.prefix(16)).replacingOccurrences(of: "T", with: " ")
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
