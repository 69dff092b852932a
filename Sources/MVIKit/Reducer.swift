/// A pure state machine: turns an intent into a new state and a description of work.
///
/// `reduce` mutates `state` synchronously and returns an ``Effect``; it never awaits,
/// never performs I/O and never sends. Dependencies (use cases, clocks) are stored
/// properties injected by whoever builds the reducer.
///
/// ```swift
/// struct Counter: Reducer {
///     func reduce(_ state: inout Int, _ intent: CounterIntent) -> Effect<CounterIntent> {
///         switch intent {
///         case .increment: state += 1; return .none
///         }
///     }
/// }
/// ```
public protocol Reducer<State, Intent>: Sendable {
    /// Everything the screen renders. Equatable so that tests compare whole states.
    associatedtype State: Equatable & Sendable
    /// Everything that can happen: user events and effect results alike.
    associatedtype Intent: Sendable

    /// Applies `intent` to `state` and describes the asynchronous work that follows.
    func reduce(_ state: inout State, _ intent: Intent) -> Effect<Intent>

    /// Time travel (``Store/revert(toSequence:)``) just set `state` to an earlier one: brings
    /// back in line what lives outside the state (a timer a notice needs, storage the state
    /// mirrors) and returns the effects that do it. The default does nothing.
    ///
    /// ```swift
    /// func reverted(_ state: inout FavoritesState) -> Effect<FavoritesIntent> {
    ///     .run(id: Self.observeEffect) { send in … }   // read storage again: the past list is not what is stored
    /// }
    /// ```
    func reverted(_ state: inout State) -> Effect<Intent>
}

extension Reducer {
    /// Nothing outside the state to bring back in line.
    public func reverted(_ state: inout State) -> Effect<Intent> { .none }
}
