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

    enum HostKind: String, CaseIterable {
        case task, refresh, loadMore
    }

    static let name = "discover"
    static let sampleArguments: String? = nil
    static let internalIntents = ["sectionLoaded", "sectionFailed"]

    static func makeStore(arguments: JSONDocument?, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore {
        try requireNoArguments(arguments)
        return CodecStore(serial: serial, initialState: DiscoverState(), reducer: DiscoverReducer(catalog: environment.catalog),
                          codec: DiscoverCodec(), delivery: delivery)
    }

    /// One cache per section: a page arriving re-encodes only its own section.
    private let sections: [FragmentCache<DiscoverSectionState>] = DiscoverSection.all.map { _ in FragmentCache() }

    func decodeHost(_ kind: HostKind, _ intent: IntentReader) throws(APIError) -> DiscoverIntent.Host {
        switch kind {
        case .task:
            try intent.requireNoMembers()
            return .task
        case .refresh:
            try intent.requireNoMembers()
            return .refresh
        case .loadMore:
            try intent.object.rejectUnknownKeys(allowing: ["type", "section"])
            let member = try intent.object.required("section")
            let name = try member.string()
            guard let section = WireNames.section(id: name) else {
                let names = WireNames.sectionIDs.joined(separator: ", ")
                throw .invalid("unknown section \"\(name)\"; sections: \(names)", at: member.path)
            }
            return .loadMore(section)
        }
    }

    static func encodeIntent(_ intent: DiscoverIntent) -> EncodedIntent {
        switch intent {
        case .host(.task): .host("task")
        case .host(.refresh): .host("refresh")
        case let .host(.loadMore(section)): .host("loadMore", ["section": JSONBuilder.string(WireNames.id(of: section))])
        case let .sectionLoaded(section, page, movies, source):
            .internal("sectionLoaded", ["section": JSONBuilder.string(WireNames.id(of: section)), "page": JSONBuilder.int(page),
                                        "movies": DomainJSON.encode(movies)], source: source)
        case let .sectionFailed(section, page, error):
            .internal("sectionFailed", ["section": JSONBuilder.string(WireNames.id(of: section)), "page": JSONBuilder.int(page),
                                        "error": DomainJSON.encode(error)])
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
