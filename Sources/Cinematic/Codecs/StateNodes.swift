import CJansson
import CinematicDomain
import MVIKit

extension StateNode {
    /// A loading phase as the wire shows it (`{"phase":"loaded","value":…}`, with where a
    /// loaded answer came from: `"source"`, `"cachedAt"`; nothing for `.local`), as a node
    /// whose `value` a patch can reach into. The source members are those ``DomainJSON/set(_:on:)`` adds
    /// to an internal intent.
    static func phase<Value, Failure>(_ phase: LoadingPhase<Value, Failure>, source: AnswerSource = .local,
                                      value: (Value) -> StateNode, failure: (Failure) -> StateNode) -> StateNode {
        switch phase {
        case .idle: return .object([(key: "phase", value: .fragment(Phases.idle))])
        case .loading: return .object([(key: "phase", value: .fragment(Phases.loading))])
        case let .failed(error):
            let members: [StateMember] = [(key: "phase", value: .fragment(Phases.failed)), (key: "error", value: failure(error))]
            return .object(members)
        case let .loaded(loaded):
            var members: [StateMember] = [("phase", .fragment(Phases.loaded)), ("value", value(loaded))]
            switch source {
            case .local: break
            case .live: members.append(("source", .fragment(Phases.live)))
            case let .cache(cachedAt): members += [("source", .fragment(Phases.cache)), ("cachedAt", .int(Int(cachedAt)))]
            }
            return .object(members)
        }
    }

    /// A movie error (`{"code":…,"message":…}`), or null.
    static func error(_ error: MovieError?) -> StateNode {
        error.map { .fragment(JSONFragment(consuming: DomainJSON.encode($0))) } ?? .null
    }

    /// The failure of a phase that cannot fail.
    static func never(_ never: Never) -> StateNode {}

    /// A list of movies, each encoded once while it stays in the list (`cache`).
    static func movies(_ movies: [Movie], _ cache: MovieFragments) -> StateNode {
        cache.node(for: movies)
    }
}

/// The movies of one list, encoded once each (keyed by id).
typealias MovieFragments = ListFragmentCache<Movie, Int>

extension ListFragmentCache where Element == Movie, Key == Int {
    /// An empty cache of movie fragments.
    convenience init() { self.init(key: \.id, encode: DomainJSON.encode) }
}

/// The phase names and sources, encoded once.
private enum Phases {
    static let idle = JSONFragment.string("idle")
    static let loading = JSONFragment.string("loading")
    static let loaded = JSONFragment.string("loaded")
    static let failed = JSONFragment.string("failed")
    static let live = JSONFragment.string("live")
    static let cache = JSONFragment.string("cache")
}
