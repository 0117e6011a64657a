extension MutableCollection {
    /// The collection with each element that `transform` changes replaced, or `nil` when it changes none, so that
    /// an unchanged collection is not copied. `transform` returns `nil` for an element it leaves as it is.
    func replacingChanged(_ transform: (Element) -> Element?) -> Self? {
        var result: Self?
        for index in indices {
            guard let changed = transform(self[index]) else { continue }
            if result == nil { result = self }
            result?[index] = changed
        }
        return result
    }
}

extension Dictionary {
    /// The dictionary with each value that `transform` changes replaced, or `nil` when it changes none, so that an
    /// unchanged dictionary is not copied. `transform` returns `nil` for a value it leaves as it is.
    func replacingChangedValues(_ transform: (Value) -> Value?) -> Self? {
        var result: Self?
        for (key, value) in self {
            guard let changed = transform(value) else { continue }
            if result == nil { result = self }
            result?[key] = changed
        }
        return result
    }
}
