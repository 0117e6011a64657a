import Faultline
import Foundation

/// Keeps at most ``Reporter/FingerprintLimit/events`` events of a fingerprint in each window that its first kept event
/// opens, and counts the others until the next kept event of that fingerprint carries their number.
///
/// Its memory holds the fingerprints whose window is open or who have a count to carry, and at most as many again:
/// the others are forgotten whenever their number has doubled.
struct FingerprintLimiter: Sendable {
    /// What to do with an event of a fingerprint.
    enum Decision: Equatable {
        /// Keep it, carrying the number of events of its fingerprint suppressed since the previous one was kept.
        case keep(carrying: Int)
        /// Suppress it: the fingerprint's window already holds its events.
        case suppress
    }

    /// One fingerprint's window.
    private struct Window {
        var start: Date
        var kept: Int
        /// Events suppressed since the last kept one, to be carried by the next.
        var suppressed: Int
    }

    let limit: Reporter.FingerprintLimit
    private let windowSeconds: TimeInterval
    private var windows: [[String]: Window] = [:]
    /// How many fingerprints make the next sweep.
    private var sweepAt = Self.smallestSweep
    private static let smallestSweep = 64

    init(limit: Reporter.FingerprintLimit) {
        self.limit = limit
        windowSeconds = limit.window.timeInterval
    }

    /// How many fingerprints it remembers.
    var trackedFingerprints: Int { windows.count }

    /// Decides for an event of `fingerprint` at `date`, and counts it.
    mutating func admit(_ fingerprint: [String], at date: Date) -> Decision {
        if windows.count >= sweepAt { sweep(at: date) }
        // One lookup, the window changed in place: this runs for every capture in a storm.
        return Self.admit(
            at: date, to: &windows[fingerprint, default: Window(start: date, kept: 0, suppressed: 0)],
            events: limit.events, seconds: windowSeconds)
    }

    private static func admit(at date: Date, to window: inout Window, events: Int, seconds: TimeInterval) -> Decision {
        if !isOpen(window, at: date, seconds: seconds) {
            window.start = date
            window.kept = 0
        }
        guard window.kept < events else {
            window.suppressed += 1
            return .suppress
        }
        window.kept += 1
        let carried = window.suppressed
        window.suppressed = 0
        return .keep(carrying: carried)
    }

    /// Takes back a count that a kept event was to carry but could not (the reporter's queue was full), for the next
    /// kept event of `fingerprint` to carry.
    mutating func restore(_ count: Int, of fingerprint: [String]) {
        guard count > 0 else { return }
        windows[fingerprint, default: Window(start: .distantPast, kept: 0, suppressed: 0)].suppressed += count
    }

    /// Whether `window` still runs at `date`; one whose start is later than `date` (the clock was set back) is over.
    private static func isOpen(_ window: Window, at date: Date, seconds: TimeInterval) -> Bool {
        let elapsed = date.timeIntervalSince(window.start)
        return elapsed >= 0 && elapsed < seconds
    }

    /// Forgets the fingerprints whose window is over and who have nothing to carry.
    private mutating func sweep(at date: Date) {
        let seconds = windowSeconds
        windows = windows.filter { $0.value.suppressed > 0 || Self.isOpen($0.value, at: date, seconds: seconds) }
        sweepAt = max(Self.smallestSweep, 2 * windows.count)
    }
}
