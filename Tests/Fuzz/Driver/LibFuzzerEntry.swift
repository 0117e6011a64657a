#if FUZZING
    import FaultlineFuzzTargets
    import Foundation

    /// The target `FAULTLINE_FUZZ_TARGET` names, read once: `scripts/fuzz` sets it for each run.
    let selectedTarget: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["FAULTLINE_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            fatalError("FAULTLINE_FUZZ_TARGET must name a target: \(names)")
        }
        return target
    }()

    @_silgen_name("LLVMFuzzerRunDriver")
    func runLibFuzzer(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// The program's entry point in a build with `-sanitize=fuzzer` (SwiftPM links an executable's `main` to
    /// `<module>_main`): libFuzzer's driver, with its command line, over the selected target. A disagreement is a
    /// crash to libFuzzer, which saves the input.
    @_cdecl("FaultlineFuzz_main")
    func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        var count = argc
        var arguments = argv
        _ = selectedTarget
        return runLibFuzzer(&count, &arguments) { bytes, size in
            let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
            do {
                try selectedTarget.run(data)
            } catch {
                fatalError("\(selectedTarget.rawValue): \(error)")
            }
            return 0
        }
    }
#endif
