import CinematicDomain
import Testing
import CinematicTestSupport

@Suite("DiscoverSection")
struct DiscoverSectionTests {
    @Test func allIsPopularTopRatedThenEveryGenre() {
        #expect(DiscoverSection.all == [.popular, .topRated] + Genre.all.map(DiscoverSection.genre))
        #expect(DiscoverSection.all.count == 2 + Genre.all.count)
    }
}
