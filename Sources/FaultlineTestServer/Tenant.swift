/// One tenant per seed contract: each has its own routes under `/<rawValue>/`, its own tokens and its own way of
/// rejecting them.
package enum Tenant: String, Sendable, CaseIterable {
    /// Seed 000's "Boleto" app: an envelope with business codes, `401` + `40101` for an expired token.
    case boleto
    /// Seed 001's server: only 200, 400 and 500; an expired token is `400 {"errorCode": "E05"}`.
    case e05
    /// Seeds 002 and 004's classic bearer server: a bare `401` with `WWW-Authenticate`.
    case plain
}
