import CinematicDomain
import CinematicFeatures
import Synchronization

/// The app state's `view` on the wire (schema `appView`): what the person sees, worded by the
/// core (``AppView``), so every host draws the same screen. Its parts are objects a patch
/// addresses member by member: moving the selection patches a row's `selected`, the list's
/// `selection` and `firstVisible`.
///
/// ```json
/// {"screen":"search","title":"Search","list":{"list":"search","count":20,"selection":0,"firstVisible":0,
///  "rows":[{"id":1652,"title":"Alien","year":"1979","rating":"8.3","genres":"","selected":true}],
///  "status":"20 shown, more match","message":null},"detail":null,"source":"","sort":"default",
///  "actions":{"back":false,"undo":false,"retry":false,"loadMore":true,"activate":true,"removeSelected":false}}
/// ```
///
/// The view is a ``TypedStatePart``: a keystroke compares its fields with the last view's and
/// patches the two that changed (the query, the list's status); nothing else is described.
/// Each part that is described is described once per distinct value (the rows one by one, the
/// tabs, the sections, the Detail, the actions), so a patch skips it in constant time.
final class AppViewJSON: Sendable {
    private let parts = AppViewParts()
    private let window = Mutex<(movies: ArraySlice<Movie>, selected: Int?, rows: [AppRowView])?>(nil)
    /// The rows of `movies` (``AppRowView/init(movie:)`` each, the one at `selected` selected),
    /// worded again only when the films shown or the selection changed (for
    /// ``AppState/view(limits:rows:)``: a keystroke words no row).
    func rows(_ movies: ArraySlice<Movie>, selected: Int?) -> [AppRowView] {
        // The same films: the same storage (one comparison) while the list stays loaded.
        if let rows = window.withLock({ $0.flatMap { $0.movies == movies && $0.selected == selected ? $0.rows : nil } }) { return rows }
        let rows = AppRowView.rows(movies, selected: selected)
        window.withLock { $0 = (movies, selected, rows) }
        return rows
    }

    /// The view's node: a part that patches itself from the last view's.
    func node(_ view: AppView) -> StateNode { .typed(AppViewPart(view, parts: parts)) }

    static func choice(_ choice: AppChoice) -> StateNode {
        object([("id", .string(choice.id)), ("title", .string(choice.title)), ("chosen", .bool(choice.chosen))])
    }

    static func row(_ row: AppRowView) -> StateNode {
        object([("id", .int(row.id)), ("title", .string(row.title)), ("year", .string(row.year)), ("rating", .string(row.rating)),
                 ("genres", .string(row.genres)), ("selected", .bool(row.selected))])
    }

    static func message(_ message: AppMessage) -> StateNode {
        object([("kind", .string(message.kind.rawValue)), ("heading", .string(message.heading)), ("body", .string(message.body))])
    }

    static func detail(_ detail: AppDetailView) -> StateNode {
        object([
            ("heading", .string(detail.heading)),
            ("facts", .list(detail.facts.map { object([("label", .string($0.label)), ("value", .string($0.value))]) })),
            ("isFavorite", .bool(detail.isFavorite)), ("heart", .string(detail.heart)),
            ("message", detail.message.map(message) ?? .null), ("histogram", detail.histogram.map(histogram) ?? .null),
        ])
    }

    private static func histogram(_ histogram: AppHistogram) -> StateNode {
        object([
            ("heading", .string(histogram.heading)), ("note", .string(histogram.note)),
            ("bars", .list(histogram.bars.map { bar in
                object([("stars", .int(bar.stars)), ("starsLabel", .string(bar.starsLabel)), ("share", .fragment(JSONFragment(consuming: JSONBuilder.real(bar.share)))),
                         ("label", .string(bar.label)), ("fraction", .fragment(JSONFragment(consuming: JSONBuilder.real(bar.fraction))))])
            })),
        ])
    }

    /// An object node of `members` (typed, so mixed member literals infer).
    private static func object(_ members: [StateMember]) -> StateNode { .object(members) }

    static func actions(_ actions: AppActions) -> StateNode {
        object([("back", .bool(actions.back)), ("undo", .bool(actions.undo)), ("retried", .bool(actions.retried)),
                 ("loadMore", .bool(actions.loadMore)), ("activate", .bool(actions.activate)),
                 ("removeSelected", .bool(actions.removeSelected)), ("dismissNotice", .bool(actions.dismissNotice))])
    }
}

/// The caches of the view's parts that are described (each once per distinct value).
final class AppViewParts: Sendable {
    let rowNodes = RowNodes()
    let rowList = NodeCache<[AppRowView]>()
    let tabs = NodeCache<[AppChoice]>()
    let sections = NodeCache<[AppChoice]>()
    let detail = NodeCache<AppDetailView?>()
    let actions = NodeCache<AppActions>()
    let message = NodeCache<AppMessage?>()
}

/// The rows of the last view, each a cached node: a row that stays the same (scrolled, or
/// still there after a keystroke) keeps its node, so only rows that came or changed (the two
/// whose `selected` moved) are described and serialized.
final class RowNodes: Sendable {
    private let last = Mutex<[Int: (row: AppRowView, node: StateNode)]>([:])

    func nodes(_ rows: [AppRowView]) -> [StateNode] {
        last.withLock { last in
            var next: [Int: (row: AppRowView, node: StateNode)] = [:]
            next.reserveCapacity(rows.count)
            let nodes = rows.map { row in
                if let kept = last[row.id], kept.row == row {
                    next[row.id] = kept
                    return kept.node
                }
                let node = StateNode.cached(SerializedNode(AppViewJSON.row(row)))
                next[row.id] = (row, node)
                return node
            }
            last = next
            return nodes
        }
    }
}
