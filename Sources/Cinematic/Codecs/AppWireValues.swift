import CJansson
import CinematicDomain
import CinematicFeatures

/// The app's intent members on the wire (schema: appTab, appList, appSearchIntent, …): the
/// values the generated app intent decoder reads (Generated/FeatureWire.swift).

extension AppTab: WireValue {
    /// The tab's wire name.
    var wireName: String { id }

    static func read(_ member: JSONValueReader) throws(APIError) -> AppTab {
        let name = try member.string()
        guard let tab = allCases.first(where: { $0.wireName == name }) else {
            throw .invalid("unknown tab \"\(name)\"; tabs: search, discover, favorites", at: member.path)
        }
        return tab
    }

    var wireNode: UnsafeMutablePointer<json_t> { JSONBuilder.string(wireName) }
}

extension AppSort: WireValue {
    static func read(_ member: JSONValueReader) throws(APIError) -> AppSort {
        let name = try member.string()
        guard let sort = AppSort(rawValue: name) else {
            throw .invalid("unknown sort \"\(name)\"; sorts: default, title, year, rating", at: member.path)
        }
        return sort
    }

    var wireNode: UnsafeMutablePointer<json_t> { JSONBuilder.string(rawValue) }
}

extension AppList: WireValue {
    /// Every list, in wire order: search, favorites, then Discover's sections.
    static var all: [AppList] { [.search, .favorites] + DiscoverSection.all.map(AppList.discover) }

    /// The list's wire name: "search", "favorites", or a Discover section's id.
    var wireName: String {
        switch self {
        case .search: "search"
        case .favorites: "favorites"
        case let .discover(section): WireNames.id(of: section)
        }
    }

    /// The wire name as a constant: the list's member in the state's `positions`, so a patch
    /// addresses one list's position (`/positions/search`). Each is its ``wireName``
    /// (AppWireTests checks every list).
    var stateKey: StaticString {
        switch wireName {
        case "search": "search"
        case "favorites": "favorites"
        case "popular": "popular"
        case "topRated": "topRated"
        case "action": "action"
        case "animation": "animation"
        case "comedy": "comedy"
        case "drama": "drama"
        case "documentary": "documentary"
        case "romance": "romance"
        case "short": "short"
        default: "unknownList"
        }
    }

    static func read(_ member: JSONValueReader) throws(APIError) -> AppList {
        let name = try member.string()
        guard let list = all.first(where: { $0.wireName == name }) else {
            throw .invalid("unknown list \"\(name)\"; lists: \(all.map(\.wireName).joined(separator: ", "))", at: member.path)
        }
        return list
    }

    var wireNode: UnsafeMutablePointer<json_t> { JSONBuilder.string(wireName) }
}

extension IntentReader {
    /// An intent nested in another (`{"type":"search","intent":{…}}`), its errors naming its path.
    init(nested member: JSONValueReader) throws(APIError) {
        object = try member.object("an intent object")
        type = try object.required("type").string()
    }

    /// Decodes this intent as `codec`'s host intent (unknown and internal types refused).
    func decode<Codec: FeatureCodec>(with codec: Codec) throws(APIError) -> Codec.Reducer.Intent.Host {
        guard let kind = Codec.HostKind(rawValue: type) else {
            throw unknown(hostIntents: Codec.hostIntents, internalIntents: Codec.internalIntents)
        }
        return try codec.decodeHost(kind, self)
    }
}

/// A nested intent as JSON (a new reference), from its encoded form.
private func node(of encoded: EncodedIntent) -> UnsafeMutablePointer<json_t> {
    JSONDiff.parse(encoded.json) ?? JSONBuilder.null()
}

extension SearchIntent.Host: WireValue {
    static func read(_ member: JSONValueReader) throws(APIError) -> SearchIntent.Host {
        let intent = try IntentReader(nested: member)
        guard intent.type == SearchCodec.HostKind.queryChanged.rawValue else { return try intent.decode(with: SearchCodec()) }
        try intent.object.rejectUnknownKeys(allowing: ["type", "query"])
        return .queryChanged(try intent.object.required("query").string())
    }

    var wireNode: UnsafeMutablePointer<json_t> { node(of: SearchCodec.encodeHost(self)) }
}

extension DiscoverIntent.Host: WireValue {
    static func read(_ member: JSONValueReader) throws(APIError) -> DiscoverIntent.Host {
        try IntentReader(nested: member).decode(with: DiscoverCodec())
    }

    var wireNode: UnsafeMutablePointer<json_t> { node(of: DiscoverCodec.encodeHost(self)) }
}

extension FavoritesIntent.Host: WireValue {
    static func read(_ member: JSONValueReader) throws(APIError) -> FavoritesIntent.Host {
        try IntentReader(nested: member).decode(with: FavoritesCodec())
    }

    var wireNode: UnsafeMutablePointer<json_t> { node(of: FavoritesCodec.encodeHost(self)) }
}

extension DetailIntent.Host: WireValue {
    static func read(_ member: JSONValueReader) throws(APIError) -> DetailIntent.Host {
        try IntentReader(nested: member).decode(with: DetailCodec())
    }

    var wireNode: UnsafeMutablePointer<json_t> { node(of: DetailCodec.encodeHost(self)) }
}

/// Positions in lists, by list (schema `appPositions`).
struct AppPositions: WireValue, Equatable, Sendable {
    var positions: [AppList: ListPosition]

    static func read(_ member: JSONValueReader) throws(APIError) -> AppPositions {
        let object = try member.object("positions by list")
        try object.rejectUnknownKeys(allowing: Set(AppList.all.map(\.wireName)))
        var positions: [AppList: ListPosition] = [:]
        for list in AppList.all {
            guard let entry = object.optional(list.wireName) else { continue }
            let position = try entry.object("a position {\"selection\", \"firstVisible\"}")
            try position.rejectUnknownKeys(allowing: ["selection", "firstVisible"])
            let selection = try position.required("selection").int(minimum: 0, maximum: Int(Int32.max))
            let first = try position.required("firstVisible").int(minimum: 0, maximum: Int(Int32.max))
            positions[list] = ListPosition(selection: selection, firstVisible: min(first, selection))
        }
        return AppPositions(positions: positions)
    }

    /// One member per list moved in (wire order), each position encoded whole: a patch
    /// touches only the list whose position changed.
    var stateNode: StateNode {
        .object(AppList.all.compactMap { list in
            positions[list].map { position in
                (list.stateKey, .fragment(.object([("selection", .int(position.selection)), ("firstVisible", .int(position.firstVisible))])))
            }
        })
    }

    var wireNode: UnsafeMutablePointer<json_t> {
        let object = JSONBuilder.object()
        for list in AppList.all {
            guard let position = positions[list] else { continue }
            JSONBuilder.set(object, list.wireName, JSONBuilder.object([
                "selection": JSONBuilder.int(position.selection), "firstVisible": JSONBuilder.int(position.firstVisible),
            ]))
        }
        return object
    }
}

/// An open Detail in an app snapshot (schema `appSnapshotDetail`).
struct AppDetailSnapshot: WireValue, Equatable, Sendable {
    var movieID: Int
    var listing: Movie?

    static func read(_ member: JSONValueReader) throws(APIError) -> AppDetailSnapshot {
        let object = try member.object("a Detail {\"movieId\", \"listing\"}")
        try object.rejectUnknownKeys(allowing: ["movieId", "listing"])
        let listing = try object.optional("listing").flatMap { value throws(APIError) in value.isNull ? nil : try Movie.read(value) }
        return AppDetailSnapshot(movieID: try object.required("movieId").int(), listing: listing)
    }

    var wireNode: UnsafeMutablePointer<json_t> {
        JSONBuilder.object(["movieId": JSONBuilder.int(movieID), "listing": listing.map(DomainJSON.encode) ?? JSONBuilder.null()])
    }
}

extension Movie: WireValue {
    /// A film as lists show it (schema `movie`), every member checked (a restored row is shown
    /// and may be stored in the favorites).
    static func read(_ member: JSONValueReader) throws(APIError) -> Movie {
        let object = try member.object("a movie")
        try object.rejectUnknownKeys(allowing: ["id", "title", "year", "runtime", "rating", "votes", "genres", "mpaa"])
        let rating = try object.required("rating").double()
        guard rating.isFinite else { throw .invalid("rating is not a number", at: "\(member.path).rating") }
        let genres = try object.required("genres").list(of: String.self, maxItems: 64)
        let mpaa = try object.required("mpaa")
        return Movie(id: try object.required("id").int(), title: try object.required("title").string(),
                     year: try object.required("year").int(), runtime: try object.required("runtime").int(),
                     rating: rating, votes: try object.required("votes").int(), genres: genres,
                     mpaa: mpaa.isNull ? nil : try mpaa.string())
    }

    var wireNode: UnsafeMutablePointer<json_t> { DomainJSON.encode(self) }
}

/// A notice kept by an app snapshot (schema `appSnapshotNotice`): one that stays until dismissed.
struct AppSnapshotNotice: WireValue, Equatable, Sendable {
    var kind: AppNotice.Kind
    var text: String
    var offersUndo: Bool

    static func read(_ member: JSONValueReader) throws(APIError) -> AppSnapshotNotice {
        let object = try member.object("a notice {\"kind\", \"text\", \"offersUndo\"}")
        try object.rejectUnknownKeys(allowing: ["kind", "text", "offersUndo"])
        let name = try object.required("kind").string()
        guard let kind = AppNotice.Kind.allCases.first(where: { AppCodec.wireName(of: $0) == name }) else {
            throw .invalid("unknown notice kind \"\(name)\"", at: "\(member.path).kind")
        }
        return AppSnapshotNotice(kind: kind, text: try object.required("text").text(maxCharacters: 1000, maxBytes: 4000),
                                 offersUndo: try object.required("offersUndo").bool())
    }

    var wireNode: UnsafeMutablePointer<json_t> {
        JSONBuilder.object(["kind": JSONBuilder.string(AppCodec.wireName(of: kind)), "text": JSONBuilder.string(text),
                            "offersUndo": JSONBuilder.bool(offersUndo)])
    }
}
