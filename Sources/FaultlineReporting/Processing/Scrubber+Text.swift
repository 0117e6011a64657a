/// Value scrubbing: secrets inside free text, found by ``ScrubRules/valuePatterns`` and ``ScrubRules/scrubText``.
extension Scrubber {
    /// `text` with the secrets that ``ScrubRules/valuePatterns`` find replaced by `[Filtered]`, then passed to
    /// ``ScrubRules/scrubText``: `invalid token eyJhbGciOi…` becomes `invalid token [Filtered]`,
    /// `<html>debug: api_key=sk_4f9a…</html>` becomes `<html>debug: api_key=[Filtered]</html>`. Text without a
    /// secret is returned as it is, without a copy.
    public func text(_ text: String) -> String {
        let scrubbed = scanner.scrubbed(text, replacement: Self.filtered) ?? text
        return rules.scrubText?(scrubbed) ?? scrubbed
    }

    /// `value` with every string in it scrubbed as ``text(_:)`` scrubs text, at any depth; keys are kept.
    public func texts(in value: JSONValue) -> JSONValue {
        scrubbed(value) ?? value
    }

    /// The text scrubbed, or `nil` when nothing in it changed.
    func scrubbed(_ text: String) -> String? {
        guard let scrubText = rules.scrubText else { return scanner.scrubbed(text, replacement: Self.filtered) }
        let patterned = scanner.scrubbed(text, replacement: Self.filtered)
        let custom = scrubText(patterned ?? text)
        return patterned != nil || custom != text ? custom : nil
    }

    /// The value with its strings scrubbed, or `nil` when none changed, so that an unchanged value is not copied.
    func scrubbed(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .string(let string):
            return scrubbed(string).map(JSONValue.string)
        case .object(let object):
            return scrubbed(object).map(JSONValue.object)
        case .array(let array):
            return array.replacingChanged(scrubbed).map(JSONValue.array)
        case .int, .double, .bool, .null:
            return nil
        }
    }

    /// The object with its strings scrubbed, or `nil` when none changed.
    func scrubbed(_ object: [String: JSONValue]) -> [String: JSONValue]? {
        object.replacingChangedValues(scrubbed)
    }
}
