import CinematicDomain

/// The wire names of domain values. The domain knows none of them: renaming one is a change
/// here, in the schema (schema/cinematic.schema.json) and in the generated host types.
enum WireNames {
    /// An error's code, from the closed set "network", "notFound", "invalidResponse",
    /// "storage", "timeout".
    static func code(of error: MovieError) -> String { error.code }

    /// Rebuilds an error from a host's code. A code outside the closed set becomes
    /// `.invalidResponse`, carrying the unknown code in its message; `notFound` keeps the
    /// library's own message.
    static func error(code: String, message: String) -> MovieError {
        switch code {
        case "network": .network(message)
        case "notFound": .notFound
        case "storage": .storage(message)
        case "invalidResponse": .invalidResponse(message)
        case "timeout": .timeout(message)
        default: .invalidResponse("unknown error code \"\(code)\": \(message)")
        }
    }

    /// A Discover section's id: "popular", "topRated", or the genre in lower case ("comedy").
    static func id(of section: DiscoverSection) -> String { section.id }

    /// A Discover section's display title: "Popular", "Top rated", or the genre ("Comedy").
    static func title(of section: DiscoverSection) -> String { section.title }

    /// The section with wire id `id`; nil when none has it.
    static func section(id: String) -> DiscoverSection? {
        DiscoverSection.all.first { self.id(of: $0) == id }
    }

    /// Every section id, in display order.
    static var sectionIDs: [String] { DiscoverSection.all.map(id(of:)) }
}
