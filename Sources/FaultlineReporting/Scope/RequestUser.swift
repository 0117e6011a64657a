/// A per-request user: events captured while a user is bound carry it instead of the scope's user.
///
/// ```swift
/// do throws(RequestFailure) {
///     let order = try await RequestUser.with(UserContext(id: "KAKAO_kim")) {
///         try await client.send(APIRequest<Order>(.get, "/orders/{id}", pathParameters: ["id": id]))
///     }
/// } catch {
///     // `error` is a RequestFailure
/// }
/// ```
///
/// ``with(_:operation:)`` keeps the operation's typed throws; `RequestUser.$current.withValue` (the task-local's
/// own) throws `any Error`.
public enum RequestUser {
    /// The user of the requests made in the current task, if bound.
    @TaskLocal public static var current: UserContext?

    /// Runs `operation` with `user` bound as the user of the requests it makes; returns what it returns, and throws
    /// what it throws, with its type.
    public static func with<Value, Failure: Error>(
        _ user: UserContext?, operation: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await $current.withValue(user) { () async -> Result<Value, Failure> in
            do throws(Failure) {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
