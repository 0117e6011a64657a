/// A user of the Boleto app, as `GET /boleto/users/{id}` returns it in the envelope's `data`.
///
/// Users 1 to 1_000_000 exist. Even ids signed in with Kakao, odd ids with Apple; one user in twenty (`id % 20 == 0`)
/// deleted their photo and has `"profileImage": null`, the field that broke decoding in seed 003.
struct BoletoUser: Encodable, Sendable {
    /// The ids of the users that exist.
    static let existingIDs = 1...1_000_000

    let id: Int
    let name: String
    let userType: String
    let profileImage: String?

    private enum CodingKeys: String, CodingKey {
        case id
        case name
        case userType
        case profileImage
    }

    init(id: Int) {
        self.id = id
        self.name = "user-\(id)"
        self.userType = id.isMultiple(of: 2) ? "KAKAO" : "APPLE"
        self.profileImage = id.isMultiple(of: 20) ? nil : "https://img.boleto.test/u/\(id).png"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(userType, forKey: .userType)
        try container.encode(profileImage, forKey: .profileImage)
    }
}
