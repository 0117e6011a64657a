import ArgumentParser
import FaultlineTriage
import Foundation

/// `--since` and `--until`: the window of time a command counts.
struct WindowOptions: ParsableArguments {
    // Taken as given even when they start with `-`, so that `--since -5m` is answered as a time that is not one,
    // not as a missing value.
    @Option(
        parsing: .unconditional,
        help:
            "The window's start: what happened from this time is counted, 30m, 2h, 7d, 2026-11-23 or 2026-11-23T14:00Z."
    )
    var since: String?

    @Option(parsing: .unconditional, help: "The window's end: what happened before this time is counted, as --since.")
    var until: String?

    /// `--since` (`defaultSince` when it is not given) and `--until` in seconds since 1970, read relative to `now`.
    ///
    /// - Throws: A `ValidationError` (exit status 64) when a time cannot be read or the window ends before it starts.
    func window(defaultSince: String? = nil, now: Double = Date().timeIntervalSince1970) throws -> (
        since: Double?, until: Double?
    ) {
        func seconds(_ text: String?) throws -> Double? {
            guard let text else { return nil }
            guard let seconds = TimeExpression.seconds(text, now: now) else {
                if text.hasPrefix("-"), TimeExpression.duration(String(text.dropFirst())) != nil {
                    throw ValidationError(
                        "'\(text)' is not a time; durations count back from now: write \(text.dropFirst()).")
                }
                throw ValidationError("'\(text)' is not a time: use 30m, 2h, 7d, 2026-11-23 or 2026-11-23T14:00:00Z.")
            }
            return seconds
        }
        let (start, end) = (try seconds(since ?? defaultSince), try seconds(until))
        if let start, start > now, let since {
            throw ValidationError("--since \(since) is in the future: the window would hold no event yet.")
        }
        if let start, let end, end < start, let until {
            throw ValidationError(
                "--until \(until) is before --since \(since ?? defaultSince ?? ""): the window ends before it starts.")
        }
        return (start, end)
    }
}
