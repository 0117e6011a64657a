#if !FUZZING
    import FaultlineFuzzTargets
    import Foundation

    /// `FaultlineFuzz TARGET FILE...` in a regular build: runs each file through the target, as libFuzzer would run
    /// it once, and says what the target found. For reproducing a finding under a debugger.
    @main
    struct Replay {
        static func main() throws {
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
                let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
                FileHandle.standardError.write(Data("usage: FaultlineFuzz \(names) FILE...\n".utf8))
                exit(64)
            }
            var failed = false
            for path in arguments.dropFirst() {
                do {
                    try target.run(try Data(contentsOf: URL(fileURLWithPath: path)))
                    print("\(path): ok")
                } catch {
                    print("\(path): \(error)")
                    failed = true
                }
            }
            exit(failed ? 1 : 0)
        }
    }
#endif
