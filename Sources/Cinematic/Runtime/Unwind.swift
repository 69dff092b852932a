/// What a half-opened runtime must close if opening fails: each step registers how to undo
/// itself, and a failure undoes them all, last first.
///
/// ```swift
/// var unwind = Unwind()
/// let effects = ThreadExecutor(name: "cinematic-effects")
/// unwind.push { effects.shutDown() }
/// do { queue = try DeliveryQueue(…) } catch { throw unwind.fail(error) }
/// ```
struct Unwind {
    private var undos: [() -> Void] = []

    /// Registers `undo` to run if a later step fails.
    mutating func push(_ undo: @escaping () -> Void) { undos.append(undo) }

    /// Undoes every registered step, last first, and returns `error` to throw.
    func fail(_ error: APIError) -> APIError {
        for undo in undos.reversed() { undo() }
        return error
    }
}
