/// Runs a child reducer on a sub-state of a parent state and lifts its effects into the
/// parent's intents (seed 001, "single State + sub-state").
///
/// ```swift
/// let search = Scope(state: \AppState.search, intent: AppIntent.searchIntent, embed: AppIntent.search,
///                    child: SearchReducer(...))
/// // inside the parent's reduce:
/// return search.reduce(&state, intent)
/// ```
public struct Scope<ParentState: Equatable & Sendable, ParentIntent: Sendable, Child: Reducer>: Reducer {
    @usableFromInline let state: WritableKeyPath<ParentState, Child.State> & Sendable
    @usableFromInline let extract: @Sendable (ParentIntent) -> Child.Intent?
    @usableFromInline let embed: @Sendable (Child.Intent) -> ParentIntent
    @usableFromInline let child: Child

    /// Creates a scope. `extract` picks the child's intents out of the parent's (nil for the
    /// parent's own intents, which this scope ignores); `embed` wraps them back.
    @inlinable
    public init(
        state: WritableKeyPath<ParentState, Child.State> & Sendable,
        intent extract: @escaping @Sendable (ParentIntent) -> Child.Intent?,
        embed: @escaping @Sendable (Child.Intent) -> ParentIntent,
        child: Child
    ) {
        self.state = state
        self.extract = extract
        self.embed = embed
        self.child = child
    }

    /// Reduces the child's intents on the sub-state; every other intent is a no-op.
    @inlinable
    public func reduce(_ parent: inout ParentState, _ intent: ParentIntent) -> Effect<ParentIntent> {
        guard let childIntent = extract(intent) else { return .none }
        return child.reduce(&parent[keyPath: state], childIntent).map(embed)
    }

    /// Time travel reached the parent: the child brings its part in line (``Reducer/reverted(_:)``).
    @inlinable
    public func reverted(_ parent: inout ParentState) -> Effect<ParentIntent> {
        child.reverted(&parent[keyPath: state]).map(embed)
    }
}
