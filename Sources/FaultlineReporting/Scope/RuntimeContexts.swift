import Foundation

/// The `os`, `device` and `runtime` contexts of the process, read once.
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
            "device": [
                "type": "device", "arch": .string(arch), "processor_count": .int(process.processorCount),
                "memory_size": .int(Int(clamping: process.physicalMemory)),
            ],
            "runtime": ["type": "runtime", "name": "swift"],
            "app": ["type": "app", "app_name": .string(process.processName)],
        ]
    }()
}
