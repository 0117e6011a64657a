import Faultline
import Foundation

/// Decides at capture, before an event is queued or assembled, whether it goes on: ``Reporter/Options/sampleRate``
/// first, then ``Reporter/Options/fingerprintLimit`` on the events sampled in.
struct CaptureAdmission: Sendable {
    /// What becomes of a capture.
    enum Decision: Equatable {
        /// Queue it; the event carries the number of events of its fingerprint suppressed before it.
        case keep(fingerprint: [String]?, carrying: Int)
        /// Drop it: it was not sampled.
        case sampledOut
        /// Drop it and count it for the next kept event of its fingerprint.
        case suppressed
    }

    let sampleRate: Double
    private var limiter: FingerprintLimiter?

    init(sampleRate: Double, fingerprintLimit: Reporter.FingerprintLimit?) {
        self.sampleRate = sampleRate
        limiter = fingerprintLimit.map(FingerprintLimiter.init)
    }

    /// Decides for a capture of `source` at `date`, whose scope sets `scopeFingerprint` instead of its own.
    mutating func admit(
        _ source: PendingCapture.Source, fingerprint scopeFingerprint: [String]? = nil, at date: Date
    ) -> Decision {
        if sampleRate < 1, sampleRate <= 0 || Double.random(in: 0..<1) >= sampleRate { return .sampledOut }
        let own = source.fingerprint
        // The limiter is mutated in place (a copy would copy its table of windows on every capture).
        guard limiter != nil, own != nil || scopeFingerprint != nil,
            let fingerprint = scopeFingerprint.map({ Scope.fingerprint($0, expanding: own) }) ?? own,
            let decision = limiter?.admit(fingerprint, at: date)
        else { return .keep(fingerprint: nil, carrying: 0) }
        switch decision {
        case .keep(let carried): return .keep(fingerprint: fingerprint, carrying: carried)
        case .suppress: return .suppressed
        }
    }

    /// Takes back the count a kept event was to carry when it could not be queued.
    mutating func restore(_ count: Int, of fingerprint: [String]) {
        limiter?.restore(count, of: fingerprint)
    }
}
