import Hummingbird

/// Assembles every route of the seed server around one ``SeedServerState``.
enum SeedRouter {
    static func make(state: SeedServerState) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: FallbackMiddleware())
        BoletoRoutes(state: state).add(to: router)
        E05Routes(state: state).add(to: router)
        PlainRoutes(state: state).add(to: router)
        FlakyRoutes(state: state).add(to: router)
        MalformedRoutes().add(to: router)
        MiscRoutes().add(to: router)
        EchoingRoutes().add(to: router)
        return router
    }
}
