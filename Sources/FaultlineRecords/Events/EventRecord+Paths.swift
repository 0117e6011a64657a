extension EventRecord {
    /// The value at `path` in the event on `line`, such as `["contexts", "os", "name"]` or `["request", "method"]`:
    /// a string as it is, a number or a boolean as its JSON text; `nil` when a member is missing, the value is `null`,
    /// an object or an array, or the line is not a JSON object. Read from the line's bytes, without building the
    /// members it steps over, for `--where` conditions on what ``EventScan`` does not read.
    package static func value(at path: [String], in line: UnsafeBufferPointer<UInt8>) -> String? {
        guard let first = path.first else { return nil }
        var scanner = JSONScanner(line)
        return value(at: path.dropFirst(), named: first, in: &scanner)
    }

    /// The value of the member `name` of the object at the cursor, followed down `rest`.
    private static func value(at rest: ArraySlice<String>, named name: String, in scanner: inout JSONScanner)
        -> String?
    {
        guard scanner.nextValueKind() == .object else { return nil }
        var found: String?
        var name = name
        _ = name.withUTF8 { name in
            scanner.object { key, scanner in
                guard found == nil, key.elementsEqual(name) else { return scanner.skipValue() }
                if let next = rest.first {
                    found = value(at: rest.dropFirst(), named: next, in: &scanner)
                    return false  // found or not, the rest of the object is not needed
                }
                switch scanner.nextValueKind() {
                case .string, .number: found = scanner.scalarText()
                case .boolean: found = scanner.boolean().map(String.init)
                default: break
                }
                return false
            }
        }
        return found
    }
}
