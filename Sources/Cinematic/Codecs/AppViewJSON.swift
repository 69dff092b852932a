import CinematicDomain
import CinematicFeatures

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
enum AppViewJSON {
    static func node(_ view: AppView) -> StateNode {
        object([
            ("screen", .string(view.screen.rawValue)), ("title", .string(view.title)),
            ("list", view.list.map(list) ?? .null), ("detail", view.detail.map(detail) ?? .null),
            ("source", .string(view.source)), ("sort", .string(view.sort.rawValue)), ("sortLabel", .string(view.sortLabel)),
            ("query", .string(view.query)), ("tabs", .list(view.tabs.map(choice))), ("sections", .list(view.sections.map(choice))),
            ("actions", actions(view.actions)),
        ])
    }

    private static func list(_ list: AppListView) -> StateNode {
        object([
            ("list", .string(list.list.wireName)), ("count", .int(list.count)), ("selection", list.selection.map(StateNode.int) ?? .null),
            ("firstVisible", .int(list.firstVisible)), ("rows", .list(list.rows.map(row))), ("status", .string(list.status)),
            ("message", list.message.map(message) ?? .null), ("hint", .string(list.hint)), ("visibleRows", .int(list.visibleRows)),
        ])
    }

    private static func choice(_ choice: AppChoice) -> StateNode {
        object([("id", .string(choice.id)), ("title", .string(choice.title)), ("chosen", .bool(choice.chosen))])
    }

    private static func row(_ row: AppRowView) -> StateNode {
        object([("id", .int(row.id)), ("title", .string(row.title)), ("year", .string(row.year)), ("rating", .string(row.rating)),
                 ("genres", .string(row.genres)), ("selected", .bool(row.selected))])
    }

    private static func message(_ message: AppMessage) -> StateNode {
        object([("kind", .string(message.kind.rawValue)), ("heading", .string(message.heading)), ("body", .string(message.body))])
    }

    private static func detail(_ detail: AppDetailView) -> StateNode {
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

    private static func actions(_ actions: AppActions) -> StateNode {
        object([("back", .bool(actions.back)), ("undo", .bool(actions.undo)), ("retried", .bool(actions.retried)),
                 ("loadMore", .bool(actions.loadMore)), ("activate", .bool(actions.activate)),
                 ("removeSelected", .bool(actions.removeSelected)), ("dismissNotice", .bool(actions.dismissNotice))])
    }
}
