import CinematicDomain
import CinematicFeatures
import MVIKit

/// Discover's snapshot (schema `discoverSnapshot`): the sections that were not idle and how
/// many pages each had.
extension DiscoverCodec {
    /// A section loading its first page counts as one page; a page in flight after that is
    /// not counted; a failed section is saved (it is tried again on restore).
    static func snapshot(of state: DiscoverState, origin: StoreOrigin) -> Snapshot {
        Snapshot(sections: state.sections.compactMap { section in
            section.movies == .idle ? nil : DiscoverRestoredSection(section: section.section, pages: max(section.pagesLoaded, 1))
        })
    }

    /// Opens with the saved sections loading again (each at most
    /// ``DiscoverReducer/maxRestoredPages`` pages, one after another); a section listed twice
    /// counts once (its first entry).
    static func makeStore(restoring snapshot: Snapshot, view: SnapshotView, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore {
        var seen: Set<String> = []
        let sections = snapshot.sections.filter { seen.insert(WireNames.id(of: $0.section)).inserted }
        let store = try makeStore(arguments: nil, serial: serial, environment: environment, delivery: delivery)
        if !sections.isEmpty { (store as? CodecStore<DiscoverCodec>)?.start(.restored(sections)) }
        return store
    }
}
