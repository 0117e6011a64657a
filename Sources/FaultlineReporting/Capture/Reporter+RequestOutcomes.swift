import Faultline
import Foundation

extension Reporter {
    /// Every request counted in the intervals written so far, for the metrics adapter.
    package var requestTotals: RequestTotals { recorder.totals }

    /// Counts how a request that ended at `date` ended, in the interval under way, which starts with the first request
    /// that ends after the last one was written, and is written ``Options/requestOutcomesInterval`` later.
    func count(_ outcome: RequestOutcome, at date: Date) {
        guard requestOutcomesLog != nil, !isClosed else { return }
        guard recorder.count(outcome, at: date, newID: { RandomID.make(using: &identifiers) }) else { return }
        let interval = options.requestOutcomesInterval
        requestOutcomesDue = Task { [weak self, timers = options.timers] in
            guard (try? await Task.sleep(for: interval, clock: timers)) != nil else { return }
            await self?.writeDueRequestOutcomes()
        }
    }

    /// Writes the request outcomes of the interval under way to the log, ending it; nothing when no request ended in
    /// it.
    func writeRequestOutcomes() async {
        requestOutcomesDue?.cancel()
        await writeDueRequestOutcomes()
    }

    /// Writes the request outcomes of the interval under way, at its end.
    private func writeDueRequestOutcomes() async {
        takeHandedOver()
        requestOutcomesDue = nil
        guard let outcomes = recorder.endInterval(at: options.clock()) else { return }
        do {
            try await requestOutcomesLog?.write(outcomes.line())
        } catch {
            let description = String(describing: error)
            ledger.record { $0.lastWriteError = description }
        }
    }

    /// Closes the request outcomes' log, once the last outcomes are written.
    func closeRequestOutcomesLog() async {
        do {
            try await requestOutcomesLog?.close()
        } catch {
            let description = String(describing: error)
            ledger.record { $0.lastWriteError = description }
        }
    }
}
