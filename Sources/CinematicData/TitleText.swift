/// Title and query text rules shared by the catalog build and the search, so both sides
/// normalize the same way.
enum TitleText {
    /// Articles the catalog moves to the end of a title ("Godfather, The").
    private static let articles: Set<String> = [
        "The", "A", "An", "La", "Le", "Les", "L'", "Il", "El", "Der", "Die", "Das", "O", "I", "De",
        "Los", "Las", "Un", "Una", "Une", "Uno", "Un'", "Den", "Det", "To", "Ta", "Ha-", "Gli", "Lo",
        "Het", "Os", "En", "Ein", "Eine", "Een", "Oi", "al-", "As", "Les",
    ]

    /// A catalog title split into its article (if moved to the end) and the rest.
    struct Parts {
        /// "The" for "Godfather, The"; nil when the title has no trailing article.
        let article: String?
        /// "Godfather" for "Godfather, The".
        let core: String

        /// "The Godfather": the article in front. Elided articles ("L'", "Ha-") join directly.
        var display: String {
            guard let article else { return core }
            let joiner = article.hasSuffix("'") || article.hasSuffix("-") ? "" : " "
            return article + joiner + core
        }
    }

    /// Splits "Godfather: Part II, The" into article "The" and core "Godfather: Part II".
    static func parts(ofCatalogTitle title: String) -> Parts {
        guard let comma = title.lastIndex(of: ",") else { return Parts(article: nil, core: title) }
        let after = title[title.index(after: comma)...]
        guard after.first == " " else { return Parts(article: nil, core: title) }
        let article = String(after.dropFirst())
        guard articles.contains(article), comma > title.startIndex else { return Parts(article: nil, core: title) }
        return Parts(article: article, core: String(title[..<comma]))
    }

    /// The words of `text`: maximal runs of letters and digits, lowercased. Everything else
    /// (punctuation, operators, emoji, quotes) separates words and is dropped.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber {
                current.append(contentsOf: character.lowercased())
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Words joined by single spaces: the form titles and queries are compared in.
    static func normalized(_ text: String) -> String { words(text).joined(separator: " ") }
}
