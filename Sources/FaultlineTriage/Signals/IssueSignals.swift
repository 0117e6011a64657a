import FaultlineRecords

/// What an issue's events in an incident window say against its history (``SignalWindow`` defines each): whether it
/// is new, spiking or regressed, since when, for whom, and in which releases.
package struct IssueSignals: Hashable, Sendable, Codable {
    /// A spike: the issue's events and rates (events per hour) in the baseline and the window, and their ratio,
    /// `null` when the baseline had none.
    package struct Spike: Hashable, Sendable, Codable {
        package let baselineEvents: Int
        package let windowEvents: Int
        package let baselineRate: Double
        package let windowRate: Double
        package let factor: Double?

        enum CodingKeys: String, CodingKey {
            case factor
            case baselineEvents = "baseline_events"
            case windowEvents = "window_events"
            case baselineRate = "baseline_per_hour"
            case windowRate = "window_per_hour"
        }
    }

    /// The issue's share of one release's events.
    package struct ReleaseShare: Hashable, Sendable, Codable {
        package let release: String
        package let events: Int
        /// Its events over all the release's events, 0 to 1.
        package let share: Double
    }

    /// First seen in the window.
    package let isNew: Bool
    /// Its rates, whether it spikes or not; ``isSpiking`` says whether they make a spike.
    package let spike: Spike
    package let isSpiking: Bool
    /// In the newest release, not in the one before, and in an older one.
    package let isRegressed: Bool
    /// In the newest release and in no older one.
    package let isNewInRelease: Bool
    /// The newest release and the one before it, by their first events.
    package let newestRelease: String?
    package let previousRelease: String?
    /// RFC 3339 UTC: when a new issue started, the minute a spiking one jumped, or a regressed one's first event in the
    /// window; `null` for the others.
    package let since: String?
    /// The users it hit in the window, and all users seen in the window.
    package let users: Int
    package let usersInWindow: Int
    /// Its events by user segment in the window, most first.
    package let segments: [String: Int]
    /// Its releases up to the window's end, newest first, with its share of each.
    package let releases: [ReleaseShare]

    enum CodingKeys: String, CodingKey {
        case spike, since, users, segments, releases
        case isNew = "new"
        case isSpiking = "spiking"
        case isRegressed = "regressed"
        case isNewInRelease = "new_in_release"
        case newestRelease = "newest_release"
        case previousRelease = "previous_release"
        case usersInWindow = "users_in_window"
    }

    /// The signals' names, as the text reports list them: `new`, `spiking`, `regressed`, `new in <release>` (for an
    /// issue not new in the window: a new issue is new in every release it has).
    package var names: [String] {
        var names: [String] = []
        if isNew { names.append("new") }
        if isSpiking { names.append("spiking") }
        if isRegressed { names.append("regressed") }
        if isNewInRelease, !isNew, let newestRelease { names.append("new in \(newestRelease)") }
        return names
    }

    /// Whether any signal flags it.
    package var isFlagged: Bool { isNew || isSpiking || isRegressed }
}

extension LogScan {
    /// The signals of `issue` in the scan's window; `nil` for a scan without one.
    package func signals(of issue: Issue) -> IssueSignals? {
        guard let window, let history = histories[issue.fingerprint] else { return nil }
        let isNew = history.firstSeen >= window.start
        let hours = (window.end - window.start) / 3600
        let baselineHours = window.baseline / 3600
        let windowRate = hours > 0 ? Double(issue.events) / hours : 0
        let baselineRate = baselineHours > 0 ? Double(history.baselineEvents) / baselineHours : 0
        let factor = history.baselineEvents > 0 ? windowRate / baselineRate : nil
        let isSpiking =
            !isNew && issue.events >= window.spikeMinimum && (factor.map { $0 >= window.spikeFactor } ?? true)
        let spike = IssueSignals.Spike(
            baselineEvents: history.baselineEvents, windowEvents: issue.events, baselineRate: baselineRate,
            windowRate: windowRate, factor: factor)

        let ordered = releasesByFirstEvent
        let newest = ordered.last
        let previous = ordered.dropLast().last
        let older = ordered.dropLast()
        let inNewest = newest.map { history.releases[$0, default: 0] > 0 } ?? false
        let inPrevious = previous.map { history.releases[$0, default: 0] > 0 } ?? false
        let inOlder = older.contains { history.releases[$0, default: 0] > 0 }
        let isRegressed = inNewest && !inPrevious && older.dropLast().contains { history.releases[$0, default: 0] > 0 }

        let since: Double? =
            if isNew {
                history.firstSeen
            } else if isSpiking {
                jumpMinute(of: issue, spike: spike, window: window)
            } else if isRegressed {
                issue.firstSeen
            } else {
                nil
            }
        let shares = ordered.reversed().compactMap { release -> IssueSignals.ReleaseShare? in
            guard let events = history.releases[release], events > 0 else { return nil }
            return IssueSignals.ReleaseShare(
                release: release, events: events, share: Double(events) / Double(max(1, releaseEvents[release] ?? 0)))
        }
        return IssueSignals(
            isNew: isNew, spike: spike, isSpiking: isSpiking, isRegressed: isRegressed,
            isNewInRelease: inNewest && !inOlder, newestRelease: newest, previousRelease: previous,
            since: since.map { RFC3339.string(seconds: $0, precision: .seconds) }, users: issue.users.count,
            usersInWindow: users.count,
            segments: issue.segments, releases: shares)
    }

    /// The releases up to the window's end, by their first event, oldest first; the last is the newest.
    package var releasesByFirstEvent: [String] {
        releaseFirstSeen.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
    }

    /// The first minute in the window with at least `factor` times the baseline's events per minute, and at least
    /// one event.
    private func jumpMinute(of issue: Issue, spike: IssueSignals.Spike, window: SignalWindow) -> Double? {
        let threshold = max(1, window.spikeFactor * spike.baselineRate / 60)
        if let minutes = issue.minutes {
            return minutes.filter { Double($0.value) >= threshold }.keys.min().map { Double($0 * 60) }
        }
        return issue.hours.filter { Double($0.value) >= threshold * 60 }.keys.min().map { Double($0 * 3600) }
    }
}
