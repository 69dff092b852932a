import MVIKit
import Testing
import CinematicTestSupport

struct CounterState: Equatable, Sendable {
    var count = 0
}

enum CounterIntent: Sendable {
    case increment
    case loadLater(Int)
    case loaded(Int)
    case stopLoading
}

/// A child feature with an effect of its own.
struct CounterReducer: Reducer {
    static let load: EffectID = "counter.load"
    let gate: Gate

    func reduce(_ state: inout CounterState, _ intent: CounterIntent) -> Effect<CounterIntent> {
        switch intent {
        case .increment:
            state.count += 1
            return .none
        case let .loadLater(value):
            return .run(id: Self.load) { [gate] send in
                await gate.wait()
                await send(.loaded(value))
            }
        case let .loaded(value):
            state.count = value
            return .none
        case .stopLoading:
            return .cancel(Self.load)
        }
    }
}

struct AppState: Equatable, Sendable {
    var counter = CounterState()
    var title = ""
}

enum AppIntent: Sendable {
    case counter(CounterIntent)
    case rename(String)

    var counter: CounterIntent? {
        if case let .counter(intent) = self { return intent }
        return nil
    }
}

/// A parent that owns `title` and delegates `counter` to the child through a `Scope`.
struct AppReducer: Reducer {
    let counter: Scope<AppState, AppIntent, CounterReducer>

    init(gate: Gate = Gate()) {
        counter = Scope(state: \AppState.counter, intent: { $0.counter }, embed: AppIntent.counter,
                        child: CounterReducer(gate: gate))
    }

    func reduce(_ state: inout AppState, _ intent: AppIntent) -> Effect<AppIntent> {
        switch intent {
        case let .rename(title):
            state.title = title
            return .none
        case .counter:
            return counter.reduce(&state, intent)
        }
    }
}

@Suite("Scope: child reducers on sub-state")
struct ScopeTests {
    @Test func childIntentsChangeOnlyTheSubState() {
        let reducer = AppReducer()
        var state = AppState(title: "home")
        let effect = reducer.reduce(&state, .counter(.increment))
        #expect(state == AppState(counter: CounterState(count: 1), title: "home"))
        #expect(effect.isNone)
    }

    @Test func theScopeIgnoresTheParentsOwnIntents() {
        let scope = AppReducer().counter
        var state = AppState(counter: CounterState(count: 2), title: "home")
        let effect = scope.reduce(&state, .rename("other"))
        #expect(state == AppState(counter: CounterState(count: 2), title: "home"))
        #expect(effect.isNone)
    }

    @Test func childEffectsAreLiftedIntoParentIntents() async {
        let gate = Gate()
        let store = Store(initialState: AppState(), reducer: AppReducer(gate: gate))
        store.send(.rename("home"))
        store.send(.counter(.loadLater(42)))
        #expect(store.hasPendingEffects)
        gate.open()
        await store.settle(within: .seconds(5))
        #expect(store.state == AppState(counter: CounterState(count: 42), title: "home"))
    }

    @Test func liftedEffectsKeepTheirIdForCancellation() async {
        let gate = Gate()
        let store = Store(initialState: AppState(), reducer: AppReducer(gate: gate))
        store.send(.counter(.loadLater(7)))
        store.send(.counter(.stopLoading))
        #expect(!store.hasPendingEffects)
        gate.open()
        store.send(.counter(.increment))
        await store.settle(within: .seconds(5))
        #expect(store.state == AppState(counter: CounterState(count: 1)))
    }
}
