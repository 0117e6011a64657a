/// Times shown in tables and charts: an RFC 3339 time to the second (`2026-11-23T09:05:00Z`, as the reports' JSON
/// carries them, written by `RFC3339`) cut to its minute, `2026-11-23 09:05`. A display form, not a codec: it is
/// never read back.
enum UTCTime {
    static func minute(_ time: String) -> String {
        String(time.prefix(16)).replacingOccurrences(of: "T", with: " ")
    }
}
