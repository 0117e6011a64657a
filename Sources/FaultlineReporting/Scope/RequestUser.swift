/// A per-request user: events captured while `user` is bound carry it instead of the scope's user.
///
/// ```swift
/// try await RequestUser.$current.withValue(UserContext(id: "KAKAO_kim")) {
///     try await client.send(request)
/// }
/// ```
public enum RequestUser {
    /// The user of the requests made in the current task, if bound.
    @TaskLocal public static var current: UserContext?
}
