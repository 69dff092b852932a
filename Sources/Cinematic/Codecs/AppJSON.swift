import CJansson
import CinematicDomain
import CinematicFeatures
import MVIKit
import Synchronization

/// The app feature on the wire: the four features composed, plus navigation, positions,
/// undo and notices (docs/wire.md, "app").
///
/// Intents from hosts: its own (`{"type":"tabSelected","tab":"favorites"}`,
/// `{"type":"queryChanged","query":"alien"}`, `{"type":"opened","movieId":2}`,
/// `{"type":"back"}`, `{"type":"undo"}`, …) and any child feature's, wrapped:
/// `{"type":"detail","intent":{"type":"favoriteToggled"}}`.
/// State: `{"tab":"search","search":<search state>,"discover":<discover state>,
/// "favorites":<favorites state>,"details":[<detail state + "listing">, …],"section":"popular",
/// "positions":{"search":{"selection":2,"firstVisible":0}},"removed":[movie, …],"notice":null}`:
/// each child's state exactly as its own store's, so a keystroke patches only `/search`.
struct AppCodec: FeatureCodec {
    typealias Reducer = AppReducer

    static func makeStore(arguments: JSONDocument?, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore {
        // A state file is opened by the runtime (AppStateFile.open), which resumes from it.
        _ = try AppOptions(arguments)
        return CodecStore(serial: serial, initialState: AppState(), reducer: reducer(environment), codec: AppCodec(limits: environment.appLimits),
                          delivery: delivery)
    }

    /// The app's reducer over the runtime's services.
    static func reducer(_ environment: StoreEnvironment) -> AppReducer {
        AppReducer(catalog: environment.catalog, favorites: environment.favorites, clock: environment.clock,
                   debounce: environment.searchDebounce, limits: environment.appLimits)
    }

    private let search = SearchCodec()
    private let discover = DiscoverCodec()
    private let favorites = FavoritesCodec()
    private let details = DetailCodecs()
    private let removed = MovieFragments()
    private let positions = NodeCache<[AppList: ListPosition]>()
    /// Each part described once per distinct value: a keystroke compares Discover's and the
    /// favorites' states (the same storage: constant time) instead of describing them again.
    private let discoverPart = NodeCache<DiscoverState>()
    private let favoritesPart = NodeCache<FavoritesState>()
    private let removedPart = NodeCache<[Movie]>()
    private let notice = NodeCache<AppNotice?>()
    private let view = AppViewJSON()
    /// The bounds the view words ("2,000 shown, the most a list keeps").
    let limits: AppLimits

    /// The app's codec, for lists bounded at `limits` (the runtime's).
    init(limits: AppLimits) { self.limits = limits }

    /// The app's codec at the default bounds (a debug or child codec: how the view words a
    /// list at its bound is the only difference).
    init() { self.init(limits: AppLimits()) }

    static func encodeIntent(_ intent: AppIntent) -> EncodedIntent {
        func nested(_ encoded: EncodedIntent) -> UnsafeMutablePointer<json_t> { JSONDiff.parse(encoded.json) ?? JSONBuilder.null() }
        switch intent {
        case let .host(host): return encodeHost(host)
        case let .search(intent): return result(.searchResult, ["intent": nested(SearchCodec.encodeIntent(intent))])
        case let .discover(intent): return result(.discoverResult, ["intent": nested(DiscoverCodec.encodeIntent(intent))])
        case let .favorites(intent): return result(.favoritesResult, ["intent": nested(FavoritesCodec.encodeIntent(intent))])
        case let .detail(key, intent):
            return result(.detailResult, ["key": JSONBuilder.int(key), "intent": nested(DetailCodec.encodeIntent(intent))])
        case let .undoSaved(movie): return result(.undoSaved, ["movie": DomainJSON.encode(movie)])
        case let .undoFailed(movie, error): return result(.undoFailed, ["movie": DomainJSON.encode(movie), "error": DomainJSON.encode(error)])
        case let .noticeExpired(id): return result(.noticeExpired, ["id": JSONBuilder.int(id)])
        case let .stateFileProblem(text): return result(.stateFileProblem, ["text": JSONBuilder.string(text)])
        case let .restored(restore):
            return result(.restored, ["tab": restore.tab.wireNode, "query": JSONBuilder.string(restore.query),
                                      "details": JSONBuilder.int(restore.details.count)])
        }
    }

    func stateMembers(_ state: AppState) -> [StateMember] {
        details.keep(state.details.map(\.key))
        return [
            (StateKey.tab, .fragment(Self.tabs[state.tab]!)),
            (StateKey.search, .object(search.stateMembers(state.search))),
            (StateKey.discover, discoverPart.node(for: state.discover) { .object(discover.stateMembers($0)) }),
            (StateKey.favorites, favoritesPart.node(for: state.favorites) { .object(favorites.stateMembers($0)) }),
            (StateKey.details, .list(state.details.map(detailNode))),
            (StateKey.section, .fragment(Self.sections[state.section] ?? .string(WireNames.id(of: state.section)))),
            (StateKey.positions, positions.node(for: state.positions) { AppPositions(positions: $0).stateNode }),
            (StateKey.removed, removedPart.node(for: state.removed) { .movies($0, removed) }),
            (StateKey.notice, notice.node(for: state.notice) { notice in
                notice.map { .fragment(JSONFragment(consuming: Self.encode($0))) } ?? .null
            }),
            (StateKey.view, view.node(state.view(limits: limits, rows: view.rows(_:selected:)))),
        ]
    }

    static var scopes: [String] { [SearchCodec.name, DiscoverCodec.name, FavoritesCodec.name, DetailCodec.name] }

    /// Search's, Discover's and Favorites' states as their own stores show them; `detail`:
    /// the shown Detail (the last of `details`), or null when none is open.
    func scopeNode(_ name: String, of state: AppState) -> StateNode {
        switch name {
        case SearchCodec.name: .object(search.stateMembers(state.search))
        case DiscoverCodec.name: discoverPart.node(for: state.discover) { .object(discover.stateMembers($0)) }
        case FavoritesCodec.name: favoritesPart.node(for: state.favorites) { .object(favorites.stateMembers($0)) }
        default: state.details.last.map(detailNode) ?? .null
        }
    }

    /// The child feature's intent (as its own store takes it, Search's query of any length),
    /// wrapped as the app's.
    func scopeIntent(_ name: String, _ root: JSONValueReader) throws(APIError) -> AppIntent {
        switch name {
        case SearchCodec.name: .host(.search(try SearchIntent.Host.read(root)))
        case DiscoverCodec.name: .host(.discover(try DiscoverIntent.Host.read(root)))
        case FavoritesCodec.name: .host(.favorites(try FavoritesIntent.Host.read(root)))
        default: .host(.detail(try DetailIntent.Host.read(root)))
        }
    }

    /// An open Detail: its feature's state and the row it was opened from.
    private func detailNode(_ open: OpenDetail) -> StateNode {
        .object(details.codec(open.key).stateMembers(open.detail) + [("listing", details.listing(open))])
    }

    /// Each section's id, encoded once.
    private static let sections = Dictionary(uniqueKeysWithValues: DiscoverSection.all.map { ($0, JSONFragment.string(WireNames.id(of: $0))) })

    /// Each tab's name, encoded once.
    private static let tabs = Dictionary(uniqueKeysWithValues: AppTab.allCases.map { ($0, JSONFragment.string($0.wireName)) })

    /// A notice as the wire shows it (schema `appNotice`).
    static func encode(_ notice: AppNotice) -> UnsafeMutablePointer<json_t> {
        JSONBuilder.object([
            "id": JSONBuilder.int(notice.id), "kind": JSONBuilder.string(wireName(of: notice.kind)),
            "text": JSONBuilder.string(notice.text), "offersUndo": JSONBuilder.bool(notice.offersUndo),
            "expires": JSONBuilder.bool(notice.expires),
        ])
    }

    /// A notice kind's wire name.
    static func wireName(of kind: AppNotice.Kind) -> String {
        switch kind {
        case .removed: "removed"
        case .restored: "restored"
        case .undoFailed: "undoFailed"
        case .nothingToUndo: "nothingToUndo"
        case .queryShortened: "queryShortened"
        case .stateFile: "stateFile"
        }
    }
}

/// One Detail codec per open Detail (each keeps its own caches), forgotten when it closes.
private final class DetailCodecs: Sendable {
    private let codecs = Mutex<[Int: (codec: DetailCodec, listing: NodeCache<Movie?>)]>([:])

    /// The codec of the Detail under `key`.
    func codec(_ key: Int) -> DetailCodec { entry(key).codec }

    /// The row a Detail was opened from, as a node (null when unknown).
    func listing(_ open: OpenDetail) -> StateNode {
        entry(open.key).listing.node(for: open.detail.listing) { movie in
            movie.map { .fragment(JSONFragment(consuming: DomainJSON.encode($0))) } ?? .null
        }
    }

    /// Forgets the codecs of Details no longer open.
    func keep(_ keys: [Int]) {
        codecs.withLock { codecs in
            guard codecs.count != keys.count || !keys.allSatisfy({ codecs[$0] != nil }) else { return }
            codecs = codecs.filter { keys.contains($0.key) }
        }
    }

    private func entry(_ key: Int) -> (codec: DetailCodec, listing: NodeCache<Movie?>) {
        codecs.withLock { codecs in
            if let entry = codecs[key] { return entry }
            let entry = (codec: DetailCodec(), listing: NodeCache<Movie?>())
            codecs[key] = entry
            return entry
        }
    }
}

/// The app's arguments (schema `appArgs`): NULL or `{}`, or `{"stateFile": path, "fresh": bool}`.
struct AppOptions: Sendable {
    /// Where the app saves its snapshot and resumes from; nil: no state file.
    var stateFile: String?
    /// Start fresh even when the state file holds a state.
    var fresh = false

    init(_ arguments: JSONDocument?) throws(APIError) {
        let decoded = try AppCodec.decodeArguments(arguments)
        if decoded.stateFile?.isEmpty == true { throw .invalid("stateFile must be a path of 1 to 4096 bytes", at: "$.stateFile") }
        stateFile = decoded.stateFile
        fresh = decoded.fresh ?? false
    }
}
