/// The only way an effect reports back to its store.
///
/// Sending from an effect that was cancelled or replaced is a no-op: the store checks,
/// inside its own isolation and atomically with the reduce, that the effect still holds its
/// id. A late answer therefore never becomes an intent.
///
/// ```swift
/// .run(id: "search") { send in
///     await send(.resultsLoaded(try await repository.searchMovies(matching: query)))
/// }
/// ```
public struct Send<Intent: Sendable>: Sendable {
    @usableFromInline
    let deliver: @Sendable (Intent) -> Void

    /// Creates a send that hands each intent to `deliver`.
    public init(_ deliver: @escaping @Sendable (Intent) -> Void) { self.deliver = deliver }

    /// Sends `intent` to the store, which reduces it before this returns (unless the effect
    /// is no longer current, in which case the intent is dropped).
    public func callAsFunction(_ intent: Intent) async { deliver(intent) }
}
