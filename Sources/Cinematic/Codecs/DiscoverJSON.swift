import CJansson
import CinematicDomain
import CinematicFeatures
import MVIKit

/// The Discover feature on the wire.
///
/// Intents from hosts: `{"type":"task"}`, `{"type":"refresh"}`,
/// `{"type":"loadMore","section":"popular"}`.
/// State: `{"sections":[{"section":"popular","movies":<phase>,"pagesLoaded":1,
/// "isExhausted":false,"isLoadingMore":false,"loadMoreError":null}, …]}`.
struct DiscoverCodec: FeatureCodec {
    typealias Reducer = DiscoverReducer

    static func makeStore(arguments: JSONDocument?, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore {
        try requireNoArguments(arguments)
        return CodecStore(serial: serial, initialState: DiscoverState(), reducer: DiscoverReducer(catalog: environment.catalog),
                          codec: DiscoverCodec(), delivery: delivery)
    }

    /// One cache of films per section: a page appended to a section encodes its 20 films.
    private let movies: [MovieFragments] = DiscoverSection.all.map { _ in MovieFragments() }
    /// One cache per section: a state change in one section leaves the others' nodes as they were.
    private let sections: [NodeCache<DiscoverSectionState>] = DiscoverSection.all.map { _ in NodeCache() }

    static func encodeIntent(_ intent: DiscoverIntent) -> EncodedIntent {
        switch intent {
        case let .host(host): encodeHost(host)
        case let .sectionLoaded(section, page, movies, source):
            result(.sectionLoaded, ["section": section.wireNode, "page": JSONBuilder.int(page), "movies": DomainJSON.encode(movies)],
                   source: source)
        case let .sectionFailed(section, page, error):
            result(.sectionFailed, ["section": section.wireNode, "page": JSONBuilder.int(page), "error": DomainJSON.encode(error)])
        case let .restored(sections): result(.restored, ["sections": JSONBuilder.array(sections) { $0.wireNode }])
        }
    }

    func stateMembers(_ state: DiscoverState) -> [StateMember] {
        [(StateKey.sections, .list(state.sections.enumerated().map { index, section in
            guard index < sections.count else { return node(section, movies: MovieFragments()) }
            return sections[index].node(for: section) { node($0, movies: movies[index]) }
        }))]
    }

    private func node(_ section: DiscoverSectionState, movies: MovieFragments) -> StateNode {
        .object([
            ("section", .string(WireNames.id(of: section.section))),
            ("title", .string(WireNames.title(of: section.section))),
            ("movies", .phase(section.movies, source: section.source, value: { .movies($0, movies) }, failure: StateNode.error)),
            ("pagesLoaded", .int(section.pagesLoaded)),
            ("isExhausted", .bool(section.isExhausted)),
            ("isLoadingMore", .bool(section.isLoadingMore)),
            ("loadMoreError", .error(section.loadMoreError)),
        ])
    }
}

/// A section on the wire: its id (`"popular"`, `"topRated"`, `"comedy"`; schema `sectionId`).
extension DiscoverSection: WireValue {
    static func read(_ member: JSONValueReader) throws(APIError) -> DiscoverSection {
        let name = try member.string()
        guard let section = WireNames.section(id: name) else {
            throw .invalid("unknown section \"\(name)\"; sections: \(WireNames.sectionIDs.joined(separator: ", "))", at: member.path)
        }
        return section
    }

    var wireNode: UnsafeMutablePointer<json_t> { JSONBuilder.string(WireNames.id(of: self)) }
}
