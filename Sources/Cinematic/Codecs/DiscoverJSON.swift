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

    static func makeStore(arguments: JSONDocument?, serial: UInt64, runtime: Runtime) throws(APIError) -> any FeatureStore {
        try requireNoArguments(arguments)
        return CodecStore(serial: serial, initialState: DiscoverState(), reducer: DiscoverReducer(catalog: runtime.catalog),
                          codec: DiscoverCodec(), runtime: runtime)
    }

    /// One cache per section: a page arriving re-encodes only its own section.
    private let sections: [FragmentCache<DiscoverSectionState>] = DiscoverSection.all.map { _ in FragmentCache() }

    static func encodeIntent(_ intent: DiscoverIntent) -> EncodedIntent {
        switch intent {
        case let .host(host): encodeHost(host)
        case let .sectionLoaded(section, page, movies, source):
            result(.sectionLoaded, ["section": section.wireNode, "page": JSONBuilder.int(page), "movies": DomainJSON.encode(movies)],
                   source: source)
        case let .sectionFailed(section, page, error):
            result(.sectionFailed, ["section": section.wireNode, "page": JSONBuilder.int(page), "error": DomainJSON.encode(error)])
        }
    }

    func stateMembers(_ state: DiscoverState) -> [StateMember] {
        let fragments = state.sections.enumerated().map { index, section in
            index < sections.count ? sections[index].fragment(for: section, Self.node) : JSONFragment(consuming: Self.node(section))
        }
        return [("sections", .array(fragments))]
    }

    static func node(_ section: DiscoverSectionState) -> UnsafeMutablePointer<json_t> {
        JSONBuilder.object([
            "section": JSONBuilder.string(WireNames.id(of: section.section)),
            "title": JSONBuilder.string(WireNames.title(of: section.section)),
            "movies": DomainJSON.encode(section.movies, value: DomainJSON.encode, source: section.source),
            "pagesLoaded": JSONBuilder.int(section.pagesLoaded),
            "isExhausted": JSONBuilder.bool(section.isExhausted),
            "isLoadingMore": JSONBuilder.bool(section.isLoadingMore),
            "loadMoreError": section.loadMoreError.map(DomainJSON.encode) ?? JSONBuilder.null(),
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
