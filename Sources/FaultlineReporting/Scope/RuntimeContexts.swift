import Foundation

/// The `os`, `device`, `runtime` and `app` contexts of the process, read once. The device's `family` is the system's
/// name, as sentry-cocoa has it; its `model` is the hardware's identifier on Apple platforms (`hw.machine`, such as
/// `iPhone15,2`, on iOS, tvOS and watchOS; `hw.model`, such as `MacBookPro18,3`, on macOS; the simulated device's on
/// a simulator), which Linux does not give a process.
enum RuntimeContexts {
    static let current: [String: JSONValue] = {
        let process = ProcessInfo.processInfo
        let version = process.operatingSystemVersion
        #if os(Linux)
            let osName = "Linux"
        #elseif os(macOS)
            let osName = "macOS"
        #elseif os(iOS)
            let osName = "iOS"
        #elseif os(tvOS)
            let osName = "tvOS"
        #elseif os(watchOS)
            let osName = "watchOS"
        #else
            let osName = "unknown"
        #endif
        #if arch(x86_64)
            let arch = "x86_64"
        #elseif arch(arm64)
            let arch = "arm64"
        #else
            let arch = "unknown"
        #endif
        return [
            "os": [
                "type": "os", "name": .string(osName),
                "version": .string("\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"),
                "raw_description": .string(process.operatingSystemVersionString),
            ],
            "device": .object(
                [
                    "type": "device", "family": .string(osName), "arch": .string(arch),
                    "processor_count": .int(process.processorCount),
                    "memory_size": .int(Int(clamping: process.physicalMemory)),
                ].merging(hardwareModel.map { ["model": .string($0)] } ?? [:]) { $1 }),
            "runtime": ["type": "runtime", "name": "swift"],
            "app": ["type": "app", "app_name": .string(process.processName)],
        ]
    }()

    /// The hardware's model identifier, on Apple platforms.
    private static var hardwareModel: String? {
        #if canImport(Darwin)
            #if os(macOS)
                let name = "hw.model"
            #else
                if let simulated = ProcessInfo.processInfo.environment["SIMULATOR_MODEL_IDENTIFIER"] {
                    return simulated
                }
                let name = "hw.machine"
            #endif
            var size = 0
            guard sysctlbyname(name, nil, &size, nil, 0) == 0, size > 0 else { return nil }
            var bytes = [CChar](repeating: 0, count: size)
            guard sysctlbyname(name, &bytes, &size, nil, 0) == 0 else { return nil }
            return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
            nil
        #endif
    }
}
