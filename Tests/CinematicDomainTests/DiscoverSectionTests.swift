import CinematicDomain
import Testing
import CinematicTestSupport

@Suite("DiscoverSection")
struct DiscoverSectionTests {
    @Test func allIsPopularTopRatedThenEveryGenre() {
        #expect(DiscoverSection.all == [.popular, .topRated] + Genre.all.map(DiscoverSection.genre))
        #expect(DiscoverSection.all.count == 2 + Genre.all.count)
        #expect(Set(DiscoverSection.all.map(\.name)).count == DiscoverSection.all.count)
    }

    @Test func names() {
        #expect(DiscoverSection.popular.name == "popular")
        #expect(DiscoverSection.topRated.name == "topRated")
        #expect(DiscoverSection.genre("Comedy").name == "Comedy")
    }

    @Test(arguments: DiscoverSection.all)
    func nameRoundTrips(section: DiscoverSection) {
        #expect(DiscoverSection(name: section.name) == section)
    }

    @Test(arguments: ["", "Popular", "POPULAR", "toprated", "TopRated", "top_rated", "comedy", "Western", " popular", "Drama "])
    func unknownNamesParseToNil(name: String) {
        #expect(DiscoverSection(name: name) == nil)
    }
}
