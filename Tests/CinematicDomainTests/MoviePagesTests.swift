import CinematicDomain
import Testing

@Suite("appendingPage")
struct MoviePagesTests {
    private func movie(_ id: Int) -> Movie {
        Movie(id: id, title: "Film \(id)", year: 2000, runtime: 90, rating: 7, votes: 10, genres: [], mpaa: nil)
    }

    /// The definition: every shown film, then the page's films whose id is not shown.
    private func expected(_ shown: [Movie], _ page: [Movie]) -> [Movie] {
        shown + page.filter { film in !shown.contains { $0.id == film.id } }
    }

    @Test("a page is appended whole when none of its films is shown")
    func freshPage() {
        let shown = (1...40).map(movie), page = (41...60).map(movie)
        #expect(shown.appendingPage(page) == shown + page)
        #expect([Movie]().appendingPage(page) == page)
        #expect(shown.appendingPage([]) == shown)
    }

    @Test("films already shown are left out, wherever they are in the list")
    func shiftedCatalog() {
        let shown = (1...2_000).map(movie)
        // Ids on both sides of every shown one: a filter alone, without the real look, would be wrong.
        let page = [1, 2_001, 1_000, 2_065, 2_000, 64, 2_129].map(movie)
        #expect(shown.appendingPage(page) == expected(shown, page))
        #expect(shown.appendingPage(page).count == 2_003)
    }

    @Test("matches the definition on random lists, negative and huge ids included")
    func randomLists() {
        var generator = SystemRandomNumberGenerator()
        let pool = Array(-70...70) + [Int.min, Int.max, Int.max - 63]
        for _ in 0..<500 {
            let shown = (0..<Int.random(in: 0...60, using: &generator)).map { _ in movie(pool.randomElement(using: &generator)!) }
            let page = (0..<Int.random(in: 0...25, using: &generator)).map { _ in movie(pool.randomElement(using: &generator)!) }
            #expect(shown.appendingPage(page) == expected(shown, page))
        }
    }
}
