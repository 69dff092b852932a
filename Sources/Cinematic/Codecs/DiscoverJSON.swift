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

    static let hostIntents: Set<String> = ["task", "refresh", "loadMore"]
    static let internalIntents: Set<String> = ["sectionLoaded", "sectionFailed"]

    /// One cache per section: a page arriving re-encodes only its own section.
    private let sections: [FragmentCache<DiscoverSectionState>] = DiscoverSection.all.map { _ in FragmentCache() }

    func decodeIntent(_ intent: IntentReader) throws(APIError) -> DiscoverIntent {
        switch intent.type {
        case "task":
            try intent.requireNoMembers()
            return .task
        case "refresh":
            try intent.requireNoMembers()
            return .refresh
        case "loadMore":
            try intent.object.rejectUnknownKeys(allowing: ["type", "section"])
            let member = try intent.object.required("section")
            let name = try member.string()
            guard let section = DiscoverSection(name: name) else {
                let names = DiscoverSection.all.map(\.name).joined(separator: ", ")
                throw .invalid("unknown section \"\(name)\"; sections: \(names)", at: member.path)
            }
            return .loadMore(section)
        default:
            throw intent.unknown(hostIntents: Self.hostIntents, internalIntents: Self.internalIntents)
        }
    }

    func encodeState(_ state: DiscoverState) -> JSONFragment {
        let fragments = state.sections.enumerated().map { index, section in
            index < sections.count ? sections[index].fragment(for: section, Self.node) : JSONFragment(consuming: Self.node(section))
        }
        return .object(["sections": .array(fragments)])
    }

    static func node(_ section: DiscoverSectionState) -> UnsafeMutablePointer<json_t> {
        JSONBuilder.object([
            "section": JSONBuilder.string(section.section.name),
            "movies": DomainJSON.encode(section.movies, value: DomainJSON.encode),
            "pagesLoaded": JSONBuilder.int(section.pagesLoaded),
            "isExhausted": JSONBuilder.bool(section.isExhausted),
            "isLoadingMore": JSONBuilder.bool(section.isLoadingMore),
            "loadMoreError": section.loadMoreError.map(DomainJSON.encode) ?? JSONBuilder.null(),
        ])
    }
}
