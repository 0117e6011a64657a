import Foundation

/// Secrets made fresh for one test run, to plant where apps leak them and then look for in every byte written or
/// sent: each is unique, so finding one anywhere is a leak.
struct PlantedSecrets {
    let jwt: String
    let jwtPayload: String
    let jwtSignature: String
    let authToken = "at" + PlantedSecrets.random(24)
    let cookieSID = "sid" + PlantedSecrets.random(24)
    let apiKey = "sk_" + PlantedSecrets.random(24)
    let debugBearer = "bt" + PlantedSecrets.random(30)
    let queryAPIKey = "qk" + PlantedSecrets.random(20)
    let queryToken = "qt" + PlantedSecrets.random(20)
    let queryAccessToken = "qa" + PlantedSecrets.random(20)
    let bodyPassword = "pw" + PlantedSecrets.random(16)
    let bodyClientSecret = "cs" + PlantedSecrets.random(24)
    let basicPassword = "bp" + PlantedSecrets.random(16)
    let breadcrumbPassword = "bc" + PlantedSecrets.random(16)
    let gitPassword = "gp" + PlantedSecrets.random(16)
    let logRefreshToken = "rt" + PlantedSecrets.random(24)
    let databasePassword = "db" + PlantedSecrets.random(16)
    let privateKeyBody = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + PlantedSecrets.random(40)
    let rotatedAPIKey = "rk" + PlantedSecrets.random(24)
    /// A card number that passes the Luhn check, in groups of four.
    let cardNumber: String

    init() {
        jwtPayload = Data(#"{"sub":"KAKAO_kim","jti":"\#(Self.random(16))"}"#.utf8).base64URL
        jwtSignature = Data(Self.random(32).utf8).base64URL
        jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.\(jwtPayload).\(jwtSignature)"
        var digits = [4] + (0..<14).map { _ in Int.random(in: 0...9) }
        digits.append(Self.luhnCheckDigit(digits))
        cardNumber = stride(from: 0, to: 16, by: 4).map { start in
            digits[start..<start + 4].map(String.init).joined()
        }.joined(separator: " ")
    }

    /// The `Basic` credential of `deploy` with ``basicPassword``.
    var basicCredential: String { Data("deploy:\(basicPassword)".utf8).base64EncodedString() }

    /// Every planted secret, and the forms in which a leak would show it (the card without spaces, the JWT's parts).
    var all: [String] {
        [
            jwt, jwtPayload, jwtSignature, authToken, cookieSID, apiKey, debugBearer, queryAPIKey, queryToken,
            queryAccessToken, bodyPassword, bodyClientSecret, basicCredential, basicPassword, breadcrumbPassword,
            gitPassword, logRefreshToken, databasePassword, privateKeyBody, rotatedAPIKey, cardNumber,
            cardNumber.replacingOccurrences(of: " ", with: ""),
        ]
    }

    /// The secrets of `all` found in `data`.
    func found(in data: Data) -> [String] {
        all.filter { data.range(of: Data($0.utf8)) != nil }
    }

    private static func random(_ count: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<count).map { index in index == 0 ? "7" : alphabet.randomElement()! })
    }

    private static func luhnCheckDigit(_ digits: [Int]) -> Int {
        // The check digit will be last, so the digits doubled are the ones at odd distance from it.
        let sum = digits.reversed().enumerated().reduce(0) { sum, element in
            let (offset, digit) = element
            guard offset.isMultiple(of: 2) else { return sum + digit }
            return sum + (digit * 2 > 9 ? digit * 2 - 9 : digit * 2)
        }
        return (10 - sum % 10) % 10
    }
}

extension Data {
    /// Base64url without padding, as JWTs encode their segments.
    fileprivate var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
