import FaultlineRecords
import FaultlineReporting
import Foundation

extension PIIConfig {
    /// Reads a config's JSON and resolves its applications' rules, checking each part.
    struct Reader {
        /// A rule as the config (or Relay's builtins) defines it, before aliases and lists are resolved.
        private enum Spec {
            case rule(PIIRule.Matcher)
            case alias(String, hidesInner: Bool)
            case multiple([String], hidesInner: Bool)
        }

        /// The config's own rules: their specs and redactions (`nil`: the default).
        private var specs: [String: (spec: Spec, redaction: PIIRedaction?)] = [:]

        mutating func applications(in json: Data) throws(Invalid) -> [Application] {
            let root: JSONValue
            do {
                root = try JSONValue(parsing: json)
            } catch {
                throw Invalid("the PII config is not JSON: \(error)")
            }
            guard case .object(let members) = root else { throw Invalid("the PII config is not a JSON object") }
            try Self.expect(members, within: ["rules", "vars", "applications"], of: "the PII config")
            if let vars = members["vars"] {
                guard case .object(let variables) = vars else { throw Invalid("`vars` is not an object") }
                try Self.expect(variables, within: ["hashKey"], of: "`vars`")
            }
            switch members["rules"] {
            case nil, .null?: break
            case .object(let rules)?:
                for (id, rule) in rules { specs[id] = try Self.spec(of: rule, id: id) }
            default: throw Invalid("`rules` is not an object of rules by id")
            }
            let applications: [String: JSONValue]
            switch members["applications"] {
            case nil, .null?: applications = [:]
            case .object(let object)?: applications = object
            default: throw Invalid("`applications` is not an object of rule ids by selector")
            }
            return try applications.sorted { $0.key < $1.key }.map { (text, ids) throws(Invalid) in
                let selector = try PIISelector(parsing: text)
                guard case .array(let list) = ids else {
                    throw Invalid("the application `\(text)` is not a list of rule ids")
                }
                var rules: [String: PIIRule] = [:]
                for id in list {
                    guard case .string(let id) = id else {
                        throw Invalid("the application `\(text)` lists a rule id that is not a string")
                    }
                    try collect(id, into: &rules, under: nil, from: "the application `\(text)`", path: [])
                }
                return Application(selector: selector, rules: rules.values.sorted { $0.id < $1.id })
            }
        }

        /// Adds the rules `id` stands for to `rules`: itself, or what its alias or list leads to, with the redaction
        /// `inherited` from an outer rule that hides its inner ones, when that one sets one.
        private func collect(
            _ id: String, into rules: inout [String: PIIRule], under inherited: PIIRedaction?, from referrer: String,
            path: [String]
        ) throws(Invalid) {
            guard !path.contains(id) else {
                throw Invalid("the rule `\(id)` leads back to itself: \((path + [id]).joined(separator: " → "))")
            }
            guard let (spec, redaction) = specs[id] ?? Self.builtin(id) else {
                throw Invalid(
                    "\(referrer) names the rule `\(id)`, which is neither in `rules` nor one of Relay's builtins "
                        + "(@anything, @ip, @email, @creditcard, @iban, @usssn, @pemkey, @urlauth, @userpath, "
                        + "@password, @bearer, @mac, @uuid, @imei, each also as `:remove`, `:replace`, `:mask`, "
                        + "`:hash`; @common, @common:filter, @cookies:filter)")
            }
            let resolved = inherited ?? redaction
            switch spec {
            case .rule(let matcher):
                guard rules[id] == nil else { return }
                rules[id] = PIIRule(id: id, matcher: matcher, redaction: resolved ?? .remove)
            case .alias(let target, let hidesInner):
                try collect(
                    target, into: &rules, under: hidesInner ? resolved : nil, from: "the rule `\(id)`",
                    path: path + [id])
            case .multiple(let targets, let hidesInner):
                for target in targets {
                    try collect(
                        target, into: &rules, under: hidesInner ? resolved : nil, from: "the rule `\(id)`",
                        path: path + [id])
                }
            }
        }

        /// A rule of the config's `rules`.
        private static func spec(of value: JSONValue, id: String) throws(Invalid) -> (Spec, PIIRedaction?) {
            guard case .object(let members) = value else { throw Invalid("the rule `\(id)` is not an object") }
            guard case .string(let type)? = members["type"] else {
                throw Invalid("the rule `\(id)` has no `type`")
            }
            let redaction = try Self.redaction(members["redaction"], rule: id)
            let known: Set<String>
            let spec: Spec
            switch type {
            case "pattern":
                known = ["pattern", "replaceGroups"]
                let pattern = try PIIPattern(try string(members["pattern"], "pattern", rule: id), rule: id)
                spec = .rule(.pattern(pattern, groups: try groups(members["replaceGroups"], of: pattern, rule: id)))
            case "redact_pair", "redactPair":
                known = ["keyPattern"]
                let key = try string(members["keyPattern"], "keyPattern", rule: id)
                spec = .rule(.redactPair(key: try PIIPattern(key, rule: id)))
            case "alias":
                known = ["rule", "hideInner"]
                spec = .alias(
                    try string(members["rule"], "rule", rule: id), hidesInner: try flag(members["hideInner"], id))
            case "multiple":
                known = ["rules", "hideInner"]
                guard case .array(let list)? = members["rules"] else {
                    throw Invalid("the rule `\(id)` has no `rules` list")
                }
                let ids = try list.map { (element) throws(Invalid) in
                    guard case .string(let target) = element else {
                        throw Invalid("the rule `\(id)` lists a rule id that is not a string")
                    }
                    return target
                }
                spec = .multiple(ids, hidesInner: try flag(members["hideInner"], id))
            default:
                guard let matcher = matcher(ofType: type) else {
                    throw Invalid(
                        "the rule `\(id)` has the unknown type `\(type)`; known: pattern, redact_pair, anything, "
                            + "password, bearer, cookies, ip, email, creditcard, iban, us_ssn, pemkey, url_auth, "
                            + "userpath, mac, uuid, imei, alias, multiple")
                }
                known = []
                spec = .rule(matcher)
            }
            try expect(members, within: known.union(["type", "redaction"]), of: "the rule `\(id)`")
            return (spec, redaction)
        }

        /// The matcher of a rule type that takes no parameters.
        private static func matcher(ofType type: String) -> PIIRule.Matcher? {
            switch type {
            case "anything": .anything
            case "password": .password
            case "bearer": .values(scanner(.authorizationCredential))
            case "ip": .values(scanner(.ipAddress))
            case "email": .values(scanner(.email))
            case "creditcard": .values(scanner(.cardNumber))
            case "iban": .values(scanner(.iban))
            case "us_ssn", "usssn": .values(scanner(.socialSecurityNumber))
            case "pemkey": .values(scanner(.privateKey))
            case "url_auth", "urlauth": .values(scanner(.urlPassword))
            case "userpath": .values(scanner(.userPath))
            case "mac": PIIBuiltins.mac
            case "uuid": PIIBuiltins.uuid
            case "imei": PIIBuiltins.imei
            case "cookies": PIIBuiltins.cookies
            default: nil
            }
        }

        private static func scanner(_ pattern: ValuePattern) -> ValueScanner {
            ValueScanner(rules: ScrubRules(), patterns: [pattern])
        }

        /// One of Relay's builtin rules: `@kind` or `@kind:method`, and `@common`.
        private static func builtin(_ id: String) -> (Spec, PIIRedaction?)? {
            PIIBuiltins.rule(id).map { (spec, redaction) in
                switch spec {
                case .rule(let type): (.rule(matcher(ofType: type)!), redaction)
                case .list(let ids): (.multiple(ids, hidesInner: false), redaction)
                case .alias(let target): (.alias(target, hidesInner: true), redaction)
                }
            }
        }

        private static func redaction(_ value: JSONValue?, rule: String) throws(Invalid) -> PIIRedaction? {
            guard let value, value != .null else { return nil }
            guard case .object(let members) = value, case .string(let method)? = members["method"] else {
                throw Invalid("the rule `\(rule)` has a `redaction` without a `method`")
            }
            try expect(members, within: method == "replace" ? ["method", "text"] : ["method"], of: "its redaction")
            switch method {
            case "default": return nil
            case "remove": return .remove
            case "mask": return .mask
            case "hash": return .hash
            case "replace":
                switch members["text"] {
                case nil: return .replace("[Filtered]")
                case .string(let text)?: return .replace(text)
                default: throw Invalid("the rule `\(rule)` has a replace redaction whose `text` is not a string")
                }
            default:
                throw Invalid(
                    "the rule `\(rule)` has the unknown redaction method `\(method)`; known: remove, replace, mask, "
                        + "hash, default")
            }
        }

        private static func groups(_ value: JSONValue?, of pattern: PIIPattern, rule: String) throws(Invalid)
            -> Set<Int>
        {
            guard let value, value != .null else { return [0] }
            guard case .array(let list) = value else {
                throw Invalid("the rule `\(rule)` has `replaceGroups` that is not a list of group numbers")
            }
            let captures = pattern.captureCount
            return try Set(
                list.map { (element) throws(Invalid) in
                    guard case .int(let group) = element else {
                        throw Invalid("the rule `\(rule)` has a `replaceGroups` element that is not a group number")
                    }
                    guard (0...captures).contains(group) else {
                        throw Invalid(
                            "the rule `\(rule)` replaces the group \(group), but its pattern has groups 0 to "
                                + "\(captures)"
                        )
                    }
                    return group
                })
        }

        private static func string(_ value: JSONValue?, _ name: String, rule: String) throws(Invalid) -> String {
            guard case .string(let text)? = value, !text.isEmpty else {
                throw Invalid("the rule `\(rule)` has no `\(name)` text")
            }
            return text
        }

        private static func flag(_ value: JSONValue?, _ rule: String) throws(Invalid) -> Bool {
            switch value {
            case nil, .null?: return false
            case .bool(let flag)?: return flag
            default: throw Invalid("the rule `\(rule)` has a `hideInner` that is not true or false")
            }
        }

        /// Refuses a member of `members` that is not one of `known`: a misspelt member would scrub nothing.
        private static func expect(_ members: [String: JSONValue], within known: Set<String>, of what: String)
            throws(Invalid)
        {
            guard let unknown = members.keys.sorted().first(where: { !known.contains($0) }) else { return }
            throw Invalid(
                "\(what) has the unknown member `\(unknown)`; known: \(known.sorted().joined(separator: ", "))")
        }
    }
}
