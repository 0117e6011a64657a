/// The version of the schema of every `--json` output, written first in each as `schema_version`. It changes only
/// when a field is renamed, retyped or removed; fields may be added within a version.
public enum JSONSchemaVersion {
    /// The current version.
    public static let current = 1

    private enum Key: String, CodingKey {
        case schemaVersion = "schema_version"
    }

    /// Writes `schema_version` into the object `encoder` encodes.
    static func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(current, forKey: .schemaVersion)
    }
}
