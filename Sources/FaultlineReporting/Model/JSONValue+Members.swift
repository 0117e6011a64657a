import Foundation

extension JSONValue {
    /// The members named `names` of the JSON object `data` holds, after checking the whole text as
    /// ``init(parsing:)`` does, without building the other values; `nil` when the text is JSON but not an object.
    ///
    /// What an ingest reads of an event it stores as sent, where building the whole tree would cost a large part of its
    /// CPU per event.
    ///
    /// - Throws: ``ParseError`` where ``init(parsing:)`` throws one.
    package static func members(
        _ names: Set<String>, ofObjectParsing data: some DataProtocol
    ) throws(ParseError) -> [String: JSONValue]? {
        let result: Result<[String: JSONValue]?, ParseError> =
            data.withContiguousStorageIfAvailable { bytes in
                Result { () throws(ParseError) in try JSONParser.members(names, of: bytes) }
            }
            ?? Array(data).withUnsafeBufferPointer { bytes in
                Result { () throws(ParseError) in try JSONParser.members(names, of: bytes) }
            }
        return try result.get()
    }
}
