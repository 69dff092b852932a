@testable import Cinematic
import CinematicDomain
import CinematicFeatures
import CinematicTestSupport
import Testing

/// The app's view patches itself from the last view (Codecs/AppViewPart.swift): comparing
/// typed fields must give exactly the patch that comparing the described views gives, on every
/// kind of change a session makes (typing, results, moving, scrolling, tabs, sorting, Details).
@Suite("The app view's typed patch")
struct AppViewPatchTests {
    private let films = (1...45).map { MovieFixtures.movie($0, "A film called number \($0)", year: 1950 + $0) }

    /// The next state: one random change of the kinds a person or an answer makes.
    private func changed(_ state: AppState, _ generator: inout SeededGenerator) -> AppState {
        var state = state
        switch Int.random(in: 0..<9, using: &generator) {
        case 0: state.search.query = ["", "a", "al", "ali", "alie", "alien", "lovf", "  love  "].randomElement(using: &generator)!
        case 1:
            let count = Int.random(in: 0...films.count, using: &generator)
            state.search.results = .loaded(Array(films.prefix(count)))
            state.search.resultsQuery = ["alien", "love"].randomElement(using: &generator)!
            state.search.isExhausted.toggle()
        case 2: state.search.searchPending.toggle()
        case 3:
            let selection = Int.random(in: 0..<50, using: &generator)
            state.positions[state.currentList] = ListPosition(selection: selection, firstVisible: max(0, selection - Int.random(in: 0..<10, using: &generator)))
        case 4: state.visibleRows = Int.random(in: 1...25, using: &generator)
        case 5: state.tab = AppTab.allCases.randomElement(using: &generator)!
        case 6: state.sort = AppSort.allCases.randomElement(using: &generator)!
        case 7: state.favorites.favorites = .loaded(Array(films.shuffled(using: &generator).prefix(Int.random(in: 0...8, using: &generator))))
        default:
            if state.details.isEmpty {
                state.details.append(OpenDetail(key: 1, detail: DetailState(movieID: films[0].id, listing: films[0])))
            } else {
                state.details.removeAll()
            }
        }
        return state
    }

    /// `node` with every typed part in it described (what a patch compares node by node).
    private func described(_ node: StateNode) -> StateNode {
        switch node {
        case let .typed(part): described(part.node)
        case let .object(members): .object(members.map { ($0.key, described($0.value)) })
        case let .list(elements): .list(elements.map(described))
        case .fragment, .cached: node
        }
    }

    @Test("a typed patch is the patch of the described views, over 2,000 random changes")
    func typedPatchIsTheDescribedPatch() throws {
        let codec = AppViewJSON()
        var generator = SeededGenerator(seed: 45)
        var state = AppState()
        var last = codec.node(state.view(rows: codec.rows(_:selected:)))
        var patched = 0
        for _ in 0..<2_000 {
            state = changed(state, &generator)
            let next = codec.node(state.view(rows: codec.rows(_:selected:)))
            let key: StaticString = "view"
            let typed = StatePatch(from: .object([(key, last)]), to: .object([(key, next)]))
            let described = StatePatch(from: .object([(key, described(last))]), to: .object([(key, described(next))]))
            #expect(typed.json.text == described.json.text)
            if !typed.isEmpty { patched += 1 }
            last = next
        }
        #expect(patched > 800)
    }

    @Test("a keystroke patches the view's query and the list's status, nothing else")
    func keystroke() {
        let codec = AppViewJSON()
        var state = AppState()
        state.search.query = "love"
        state.search.results = .loaded(Array(films.prefix(20)))
        state.search.resultsQuery = "love"
        let before = codec.node(state.view(rows: codec.rows(_:selected:)))
        state.search.query = "lovf"
        state.search.searchPending = true
        let after = codec.node(state.view(rows: codec.rows(_:selected:)))
        let key: StaticString = "view"
        let patch = StatePatch(from: .object([(key, before)]), to: .object([(key, after)]))
        #expect(patch.operations.map(\.path) == ["/view/list/status", "/view/query"])
    }
}
