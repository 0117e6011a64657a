import FaultlineRecords
import FaultlineReporting
import FaultlineServe
import Foundation

/// The file `faultline serve --forward-config` reads: which accepted projects and keys go to which upstream DSN.
///
/// ```json
/// {"routes": [
///   {"project": "1", "key": "0123456789abcdef0123456789abcdef", "upstream": "https://abc@o1.ingest.sentry.io/42"},
///   {"project": "2", "key": "fedcba9876543210fedcba9876543210", "upstream": "https://def@glitchtip.example.com/7"}
/// ]}
/// ```
struct ForwardRoutesFile: Decodable {
    /// Why the file cannot be used, said with its path.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Route: Decodable {
        let project: String
        let key: String
        let upstream: String
    }

    let routes: [Route]

    /// The routes of the file at `path`.
    static func routes(at path: String) throws -> [ForwardRoute] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Failure(description: "cannot read --forward-config \(path): \(error.localizedDescription)")
        }
        let file: ForwardRoutesFile
        do {
            file = try JSONDecoder().decode(ForwardRoutesFile.self, from: data)
        } catch {
            throw Failure(
                description: "--forward-config \(path) is not {\"routes\": [{\"project\", \"key\", \"upstream\"}, …]}: "
                    + "\(error)")
        }
        guard !file.routes.isEmpty else { throw Failure(description: "--forward-config \(path) has no routes") }
        return try file.routes.enumerated().map { index, route in
            guard Int(route.project) != nil, !route.key.isEmpty else {
                throw Failure(
                    description: "route \(index + 1) of \(path) needs a numeric project and a non-empty key")
            }
            do {
                return ForwardRoute(projectID: route.project, publicKey: route.key, upstream: try DSN(route.upstream))
            } catch {
                throw Failure(description: "route \(index + 1) of \(path): \(error)")
            }
        }
    }
}
