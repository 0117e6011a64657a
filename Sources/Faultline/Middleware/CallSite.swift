/// The place in the app's code that sent a request or captured an event: its module, file, function and line, as
/// the compiler names them at the call.
///
/// ``APIClient/send(_:file:function:line:)`` records its caller's, so a failure says which screen or use case asked
/// for it even when several call the same route. A wrapper of `send` that takes `file`, `function` and `line` with
/// the same defaults and passes them on names its own caller instead.
///
/// It is one frame: in Swift concurrency each `await` call is a tail call, so the thread's stack at `send` holds the
/// executor's frames, not the callers above this one.
public struct CallSite: Hashable, Sendable, CustomStringConvertible {
    /// The file as `#fileID` names it: `Module/File.swift`.
    public let fileID: String
    /// The function as `#function` names it, such as `loadProfile()`.
    public let function: String
    /// The line of the call.
    public let line: Int

    /// Creates a call site; the defaults name the caller of this initializer.
    public init(fileID: String = #fileID, function: String = #function, line: Int = #line) {
        self.fileID = fileID
        self.function = function
        self.line = line
    }

    /// The module, the part of ``fileID`` before its slash.
    public var module: String {
        fileID.firstIndex(of: "/").map { String(fileID[..<$0]) } ?? fileID
    }

    /// `Module/File.swift:42 in loadProfile()`.
    public var description: String { "\(fileID):\(line) in \(function)" }
}
