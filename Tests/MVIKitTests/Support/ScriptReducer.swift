import MVIKit
import CinematicTestSupport

/// The state of the scriptable test feature.
struct ScriptState: Equatable, Sendable {
    var value = 0
    var log: [String] = []
}

/// Intents of the scriptable test feature. `perform` lets a test hand the store any effect,
/// so store semantics are tested without inventing one feature per test.
enum ScriptIntent: Sendable {
    case set(Int)
    case increment
    case record(String)
    /// Changes nothing (observers must not hear about it).
    case noop
    /// Leaves the state alone and returns the effect.
    case perform(Effect<ScriptIntent>)
}

/// A reducer whose effects are supplied by the test through ``ScriptIntent/perform(_:)``.
struct ScriptReducer: Reducer {
    func reduce(_ state: inout ScriptState, _ intent: ScriptIntent) -> Effect<ScriptIntent> {
        switch intent {
        case let .set(value):
            state.value = value
            return .none
        case .increment:
            state.value += 1
            return .none
        case let .record(entry):
            state.log.append(entry)
            return .none
        case .noop:
            return .none
        case let .perform(effect):
            return effect
        }
    }
}

typealias ScriptStore = Store<ScriptReducer>

func makeScriptStore(_ state: ScriptState = ScriptState(), historyCapacity: Int = 0) -> ScriptStore {
    Store(initialState: state, reducer: ScriptReducer(), historyCapacity: historyCapacity)
}
