/// What rewrites a JSON text as it is read (``JSONValue/object(parsing:members:rewriting:)``), by where each value
/// is: the reader tells it each member's key and each array element, keeps for each value the place it gave, and
/// writes a container or a scalar in the place its answer says. What it writes must be one JSON scalar: a text read
/// as valid stays valid.
package struct JSONRewrite {
    /// What the rewrite knows of a value's place, in an encoding of its own.
    package typealias Place = UInt32

    /// A scalar value as the reader found it.
    package enum Scalar {
        /// A string, given with its quotes; whether it holds escapes.
        case string(hasEscapes: Bool)
        /// A number or `true`, `false`, `null`.
        case other
    }

    /// The place of the document's value.
    package let root: Place
    /// The place of the value of the member named `key` (its UTF-8, unescaped) of an object in `place`.
    package let member: (_ key: UnsafeBufferPointer<UInt8>, _ place: Place) -> Place
    /// The place of an element of an array in `place`: `pairKey` is the first element's text (unescaped) when the
    /// array is a pair, two elements of which the first is a string, and this is the second.
    package let element: (_ pairKey: UnsafeBufferPointer<UInt8>?, _ place: Place) -> Place
    /// The place of the elements of an array in `place` that is not empty, told whether it is a list of pairs (each
    /// element two elements, of which the first is a string), as Relay reads `[[key, value], …]`; `nil` to leave the
    /// place as it is and not read ahead.
    package let array: ((_ place: Place, _ isPairList: Bool) -> Place)?
    /// The JSON text to write instead of the object (`isObject`) or array in `place`, which is then checked but not
    /// read; `nil` to read it.
    package let container: (_ place: Place, _ isObject: Bool) -> [UInt8]?
    /// The JSON text to write instead of the scalar `text` (as written, a string with its quotes) in `place`; `nil`
    /// to keep it.
    package let scalar: (_ text: UnsafeBufferPointer<UInt8>, _ kind: Scalar, _ place: Place) -> [UInt8]?

    package init(
        root: Place, member: @escaping (UnsafeBufferPointer<UInt8>, Place) -> Place,
        element: @escaping (UnsafeBufferPointer<UInt8>?, Place) -> Place,
        array: ((Place, Bool) -> Place)? = nil, container: @escaping (Place, Bool) -> [UInt8]?,
        scalar: @escaping (UnsafeBufferPointer<UInt8>, Scalar, Place) -> [UInt8]?
    ) {
        self.root = root
        self.member = member
        self.element = element
        self.array = array
        self.container = container
        self.scalar = scalar
    }
}
