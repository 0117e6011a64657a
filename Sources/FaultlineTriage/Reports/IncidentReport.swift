import FaultlineLogReading
import FaultlineRecords

/// `faultline incident`: the first questions of an incident answered for a window: what is new, what is spiking,
/// what regressed in the newest release, since when, and for whom; and which routes fail more often or got slower
/// (``RouteSignals``). ``SignalWindow`` defines each signal.
package struct IncidentReport: Hashable, Sendable, Encodable {
    /// The window and the thresholds, as the report used them.
    package struct Window: Hashable, Sendable, Encodable {
        package let start: String
        package let end: String
        package let baselineHours: Double
        package let spikeFactor: Double
        package let spikeMinimum: Int

        enum CodingKeys: String, CodingKey {
            case start, end
            case baselineHours = "baseline_hours"
            case spikeFactor = "spike_factor"
            case spikeMinimum = "spike_minimum"
        }
    }

    package let window: Window
    package let events: Int
    package let issues: Int
    package let users: Int
    package let newestRelease: String?
    package let previousRelease: String?
    /// The issues a signal flags: new first, then spiking, then regressed, most events first within each.
    package private(set) var flagged: [IssueRow]
    /// The routes a signal flags, most failed requests first.
    package let routes: [RouteSignals]
    package let read: ReadCounts
    /// Flagged issues left out by ``limited(to:)``, after the ones listed.
    package private(set) var leftOut = 0
    /// How many issues are new, spiking and regressed, listed or not.
    private let newIssues, spikingIssues, regressedIssues: Int

    enum CodingKeys: String, CodingKey {
        case window, flagged, routes, read
        case leftOut = "left_out"
        case events = "event_count"
        case issues = "issue_count"
        case users = "user_count"
        case newestRelease = "newest_release"
        case previousRelease = "previous_release"
    }

    /// The incident view of a scan made with a window, with the signals of its routes' requests (the flagged are
    /// kept).
    package init(_ scan: LogScan, routes: [RouteSignals] = []) {
        self.routes = routes.filter(\.isFlagged)
        let signalWindow = scan.window ?? SignalWindow(start: scan.firstSeen ?? 0, end: (scan.lastSeen ?? 0) + 1)
        window = Window(
            start: RFC3339.string(seconds: signalWindow.start, precision: .seconds),
            end: RFC3339.string(seconds: signalWindow.end, precision: .seconds),
            baselineHours: signalWindow.baseline / 3600, spikeFactor: signalWindow.spikeFactor,
            spikeMinimum: signalWindow.spikeMinimum)
        events = scan.events
        issues = scan.issues.count
        users = scan.users.count
        let rows = IssuesReport.rows(of: scan, sortedBy: .events).filter { $0.signals?.isFlagged == true }
        func rank(_ row: IssueRow) -> Int {
            guard let signals = row.signals else { return 3 }
            return signals.isNew ? 0 : signals.isSpiking ? 1 : 2
        }
        flagged = rows.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(
            \.element)
        newIssues = rows.count { $0.signals?.isNew == true }
        spikingIssues = rows.count { $0.signals?.isSpiking == true }
        regressedIssues = rows.count { $0.signals?.isRegressed == true }
        let releases = scan.releasesByFirstEvent
        newestRelease = releases.last
        previousRelease = releases.dropLast().last
        read = scan.counts
    }

    package func encode(to encoder: any Encoder) throws {
        try JSONSchemaVersion.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(window, forKey: .window)
        try container.encode(events, forKey: .events)
        try container.encode(issues, forKey: .issues)
        try container.encode(users, forKey: .users)
        try container.encode(newestRelease, forKey: .newestRelease)
        try container.encode(previousRelease, forKey: .previousRelease)
        try container.encode(flagged, forKey: .flagged)
        try container.encode(leftOut, forKey: .leftOut)
        try container.encode(routes, forKey: .routes)
        try container.encode(read, forKey: .read)
    }

    /// The report with its first `count` flagged issues only; the others are counted in ``leftOut``, and in the
    /// signals' counts.
    package func limited(to count: Int) -> IncidentReport {
        var report = self
        report.flagged = Array(flagged.prefix(count))
        report.leftOut += flagged.count - report.flagged.count
        return report
    }

    /// The incident as the terminal shows it: the window, the flagged issues with their numbers, and the
    /// definitions the flags follow.
    package func text(style: TextStyle) -> String {
        let counts = [
            counted(newIssues, "new issue"), "\(spikingIssues) spiking", "\(regressedIssues) regressed",
        ]
        var lines = [
            style.bold(
                TerminalText.wrapped(
                    "incident window \(window.start) to \(window.end), baseline the "
                        + "\(Self.hours(window.baselineHours)) before", toWidth: style.width)),
            "\(counted(events, "event")) in \(counted(issues, "issue")), \(counted(users, "user")); "
                + counts.joined(separator: ", "),
        ]
        if let newestRelease {
            lines.append(
                "newest release \(TerminalText.safe(newestRelease))"
                    + (previousRelease.map { ", after \(TerminalText.safe($0))" } ?? ""))
        }
        lines.append("")
        if flagged.isEmpty {
            lines.append("Nothing is new, spiking or regressed in the window.")
        } else {
            lines.append(Self.table(flagged, windowEnd: window.end, style: style))
            if leftOut > 0 {
                lines.append(
                    style.dim("\(flagged.count) of \(flagged.count + leftOut) flagged issues listed (--limit)."))
            }
        }
        if !routes.isEmpty {
            lines.append("")
            lines.append(Self.table(routes, style: style))
        }
        var legend = [
            "new: first seen in the window. spiking: at least \(window.spikeMinimum) events and "
                + "\(Self.number(window.spikeFactor))× the baseline's rate. regressed: in the newest release, not in the "
                + "one before, seen in an older one. new in a release: not new, seen in no older release."
        ]
        if !routes.isEmpty {
            legend.append(
                "failure rate spiking: \(Self.number(window.spikeFactor))× the baseline's share of failed requests. "
                    + "slower: its p95 in the newest release against the release before. "
                    + "'faultline routes' has every route.")
        }
        legend.append("Run 'faultline show <id>' for one issue's users, releases and breadcrumbs.")
        lines += legend.map { style.dim(TerminalText.wrapped($0, toWidth: style.width)) }
        return lines.joined(separator: "\n") + "\n" + ReadCounts.text(read, style: style)
    }

    /// The flagged issues' table: per-hour rates in the baseline and the window, the factor, and since when (by its
    /// time alone on the day the window ends). Titles are said without the method and route the ROUTE column shows
    /// (``TableTitle``); on a narrow terminal the title gives up cells down to half the width (48 cells at most), then
    /// the kind, factor, per-hour, route and of-requests columns go.
    static func table(_ rows: [IssueRow], windowEnd: String, style: TextStyle) -> String {
        var table = TextTable(
            header: [
                "ID", "SIGNALS", "KIND", "ISSUE", "ROUTE", "EVENTS", "OF REQUESTS", "USERS", "PER HOUR (BEFORE → NOW)",
                "FACTOR", "SINCE",
            ],
            rightAligned: [5, 6, 7, 9], flexible: 3, dropOrder: [2, 9, 8, 4, 6])
        table.minimumFlexibleWidth = IssuesReport.minimumTitleWidth(style.width)
        for row in rows {
            guard let signals = row.signals else { continue }
            let spike = signals.spike
            let title = TableTitle(row.title, route: row.route)
            table.append(
                [
                    row.id, signals.names.joined(separator: ", "), row.kind, title.point, title.route ?? "-",
                    String(row.events), row.shareOfRequests, "\(signals.users) of \(signals.usersInWindow)",
                    "\(number(spike.baselineRate)) → \(number(spike.windowRate))",
                    spike.factor.map { "\(number($0))×" } ?? "-",
                    signals.since.map { since in
                        let minute = UTCTime.minute(since)
                        return since.prefix(10) == windowEnd.prefix(10) ? String(minute.dropFirst(11)) : minute
                    } ?? "-",
                ], keepingHead: title.head)
        }
        if !rows.contains(where: { $0.routeRequests != nil }) { table.leaveOut(6) }
        if !rows.contains(where: { $0.route != nil }) { table.leaveOut(4) }
        return table.render(style: style)
    }

    /// The flagged routes' table: failed requests in the baseline and the window, and p95 by release.
    static func table(_ routes: [RouteSignals], style: TextStyle) -> String {
        var table = TextTable(
            header: ["ROUTE", "SIGNALS", "FAILED (BEFORE → NOW)", "FACTOR", "P95 (BEFORE → NOW)"],
            rightAligned: [3], flexible: 0, dropOrder: [4, 3])
        for route in routes {
            let latency = route.latency.map {
                "\(milliseconds($0.previousP95)) in \(TerminalText.safe($0.previousRelease)) → "
                    + "\(milliseconds($0.p95)) in \(TerminalText.safe($0.release))"
            }
            table.rows.append([
                TerminalText.safe("\(route.method) \(route.route)"), route.names.joined(separator: ", "),
                "\(share(route.baseline)) → \(share(route.window))", route.rateFactor.map { "\(number($0))×" } ?? "-",
                latency ?? "-",
            ])
        }
        return table.render(style: style)
    }

    /// Failed requests as a share: `5.0 % of 1000`.
    private static func share(_ rate: RouteSignals.FailureRate) -> String {
        guard let value = rate.rate else { return "no requests" }
        return String(format: "%.1f %% of %d", value * 100, rate.requests)
    }

    /// Seconds as milliseconds, whole from 10 ms: `176 ms`, `2.5 ms`.
    private static func milliseconds(_ seconds: Double) -> String {
        let milliseconds = seconds * 1000
        return milliseconds >= 10 ? "\(Int(milliseconds.rounded())) ms" : "\(number(milliseconds)) ms"
    }

    /// A rate or factor with at most one decimal: `0.4`, `12`, `2.5`.
    static func number(_ value: Double) -> String {
        // Past 2^53 every Double is whole, and past Int's range it has no Int: written as Swift writes it, 1e+20.
        guard value.magnitude < 0x1p53 else { return String(value) }
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    private static func hours(_ hours: Double) -> String {
        hours.truncatingRemainder(dividingBy: 24) == 0 && hours >= 24 ? "\(number(hours / 24)) d" : "\(number(hours)) h"
    }
}
