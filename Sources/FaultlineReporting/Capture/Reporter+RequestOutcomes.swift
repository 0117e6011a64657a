import Faultline
import Foundation

extension Reporter {
    /// Counts how a request that ended at `date` ended, in the interval under way, which starts with the first request
    /// that ends after the last one was written, and is written ``Options/requestOutcomesInterval`` later.
    func count(_ outcome: RequestOutcome, at date: Date) {
        guard requestOutcomesLog != nil, !isClosed, let name = outcome.name else { return }
        let context = outcome.context
        let route = RequestOutcomes.Route(method: context.method.rawValue, route: context.route)
        var outcomes = requestOutcomes ?? startRequestOutcomes(at: date)
        switch outcome {
        case .response(_, _, let duration), .failure(_, _, let duration):
            outcomes.record(route, outcome: name, duration: duration)
        case .failedAfterResponse:
            outcomes.reclassifySuccess(of: route, as: name)
        }
        requestOutcomes = outcomes
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
        guard var outcomes = requestOutcomes else { return }
        requestOutcomes = nil
        outcomes.end = max(outcomes.start, options.clock())
        requestTotals.add(outcomes)
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

    /// A new interval from `start`, to be written when it ends.
    private func startRequestOutcomes(at start: Date) -> RequestOutcomes {
        let interval = options.requestOutcomesInterval
        requestOutcomesDue = Task { [weak self, timers = options.timers] in
            guard (try? await Task.sleep(for: interval, clock: timers)) != nil else { return }
            await self?.writeDueRequestOutcomes()
        }
        return RequestOutcomes(
            id: RandomID.make(using: &identifiers), start: start, release: options.release,
            environment: options.environment)
    }
}
