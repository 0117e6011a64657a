import Foundation

/// A Relay PII config: the advanced data scrubbing rules of a Sentry project, as Relay reads them, so that a team
/// moving from Sentry keeps its rules. `faultline serve --pii-config FILE` applies one to every event before its own
/// scrubbing, as Relay applies a project's rules before those its data scrubbing settings give.
///
/// ```json
/// {
///   "rules": {
///     "order_ids": {"type": "pattern", "pattern": "ORD-\\d+", "redaction": {"method": "replace", "text": "[order]"}}
///   },
///   "applications": {"$string": ["@ip:hash", "@email:mask", "order_ids"], "extra.customer": ["@anything:remove"]}
/// }
/// ```
///
/// - `rules`: rules by id, of the types `pattern` (`pattern`, `replaceGroups`), `redact_pair` (`keyPattern`),
///   `anything`, `password`, `bearer`, `cookies`, `ip`, `email`, `creditcard`, `iban`, `us_ssn`, `pemkey`,
///   `url_auth`, `userpath`, `mac`, `uuid`, `imei`, `alias` (`rule`, `hideInner`) and `multiple` (`rules`,
///   `hideInner`); each with a `redaction`: `{"method": "remove" | "replace" | "mask" | "hash"}`, `replace` with a
///   `text`.
/// - `applications`: for each ``PIISelector``, the ids of the rules to apply there: the config's own, or Relay's
///   builtins (`@ip`, `@ip:hash`, `@email:mask`, `@anything:remove`, `@bearer`, `@common`, `@common:filter`,
///   `@cookies:filter`, ...).
/// - `vars.hashKey` is accepted and, as in Relay today, not used: `hash` is keyed with an empty key.
///
/// Everything is checked when the config is read: a selector or pattern that does not parse, a rule id that is
/// neither defined nor a builtin, an unknown rule type, redaction method or member, a `replaceGroups` group the
/// pattern does not have, an alias that leads back to itself. (Relay skips unknown rules and methods silently; a
/// typo there would scrub nothing.)
package struct PIIConfig: Sendable {
    /// Why a PII config was refused.
    package struct Invalid: Error, CustomStringConvertible, Equatable, Sendable {
        package let description: String

        init(_ description: String) { self.description = description }
    }

    /// A selector and the rules applied where it matches, in the order of their ids.
    struct Application: Sendable {
        let selector: PIISelector
        let rules: [PIIRule]
    }

    /// The applications, in the order of their selectors' texts.
    let applications: [Application]

    /// The config that the JSON text `json` holds.
    ///
    /// - Throws: ``Invalid`` saying what in the config is wrong.
    package init(json: Data) throws(Invalid) {
        var reader = Reader()
        applications = try reader.applications(in: json)
    }
}
