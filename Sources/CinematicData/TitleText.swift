/// Catalog titles: the article the catalog moves to the end ("Godfather, The") put back in
/// front for display. Search words are ``SearchText``'s.
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
        // An ASCII title's last comma is its last "," byte; otherwise a Character (a comma
        // with a combining mark is not one).
        var text = title
        let ascii = text.withUTF8 { $0.isASCII }
        guard let comma = ascii ? title.utf8.lastIndex(of: UInt8(ascii: ",")) : title.lastIndex(of: ",") else {
            return Parts(article: nil, core: title)
        }
        let after = title[title.index(after: comma)...]
        guard after.first == " " else { return Parts(article: nil, core: title) }
        let article = String(after.dropFirst())
        guard articles.contains(article), comma > title.startIndex else { return Parts(article: nil, core: title) }
        return Parts(article: article, core: String(title[..<comma]))
    }
}
