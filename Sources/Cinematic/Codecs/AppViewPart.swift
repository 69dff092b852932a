import CinematicFeatures

/// The app's view as a ``TypedStatePart``: a keystroke compares its fields with the last
/// view's and patches those that changed (the query, the list's status), describing nothing
/// else. Described whole only when read whole (a first delivery, a state read).
final class AppViewPart: TypedStatePart, @unchecked Sendable {
    // @unchecked: immutable lets of Sendable types.
    private let view: AppView
    private let parts: AppViewParts

    /// The part of `view`, its described parts cached in `parts`.
    init(_ view: AppView, parts: AppViewParts) {
        self.view = view
        self.parts = parts
    }

    /// The view's members, in wire order (schema `appView`).
    private enum Member: TypedPartMembers {
        case screen, title, list, detail, source, sort, sortLabel, query, tabs, sections, actions

        var key: StaticString {
            switch self {
            case .screen: "screen"
            case .title: "title"
            case .list: "list"
            case .detail: "detail"
            case .source: "source"
            case .sort: "sort"
            case .sortLabel: "sortLabel"
            case .query: "query"
            case .tabs: "tabs"
            case .sections: "sections"
            case .actions: "actions"
            }
        }

        func same(_ a: AppView, _ b: AppView) -> Bool {
            switch self {
            case .screen: a.screen == b.screen
            case .title: a.title == b.title
            // Two lists: compared member by member by their own parts (comparing them whole first
            // would compare every member twice).
            case .list: a.list == nil && b.list == nil
            case .detail: a.detail == b.detail
            case .source: a.source == b.source
            case .sort: a.sort == b.sort
            case .sortLabel: a.sortLabel == b.sortLabel
            case .query: a.query == b.query
            case .tabs: a.tabs == b.tabs
            case .sections: a.sections == b.sections
            case .actions: a.actions == b.actions
            }
        }
    }

    private func node(_ member: Member) -> StateNode {
        switch member {
        case .screen: .string(view.screen.rawValue)
        case .title: .string(view.title)
        case .list: view.list.map { .typed(AppListPart($0, parts: parts)) } ?? .null
        case .detail: parts.detail.node(for: view.detail) { $0.map(AppViewJSON.detail) ?? .null }
        case .source: .string(view.source)
        case .sort: .string(view.sort.rawValue)
        case .sortLabel: .string(view.sortLabel)
        case .query: .string(view.query)
        case .tabs: parts.tabs.node(for: view.tabs) { .list($0.map(AppViewJSON.choice)) }
        case .sections: parts.sections.node(for: view.sections) { .list($0.map(AppViewJSON.choice)) }
        case .actions: parts.actions.node(for: view.actions, AppViewJSON.actions)
        }
    }

    override func describe() -> StateNode { Member.object(node) }

    override func patch(from old: TypedStatePart, at path: String, into patch: inout StatePatch) -> Bool {
        guard let old = old as? AppViewPart else { return false }
        Member.patch(old.view, view, old: old.node, new: node, at: path, into: &patch)
        return true
    }
}

/// A list view (``AppListView``) as a ``TypedStatePart``: moving the selection patches the
/// two rows whose `selected` changed and the list's `selection`; typing patches its `status`.
final class AppListPart: TypedStatePart, @unchecked Sendable {
    // @unchecked: immutable lets of Sendable types.
    private let list: AppListView
    private let parts: AppViewParts

    /// The part of `list`, its rows' nodes cached in `parts`.
    init(_ list: AppListView, parts: AppViewParts) {
        self.list = list
        self.parts = parts
    }

    /// A list view's members, in wire order (schema `appListView`).
    private enum Member: TypedPartMembers {
        case list, count, selection, firstVisible, rows, status, message, hint, visibleRows

        var key: StaticString {
            switch self {
            case .list: "list"
            case .count: "count"
            case .selection: "selection"
            case .firstVisible: "firstVisible"
            case .rows: "rows"
            case .status: "status"
            case .message: "message"
            case .hint: "hint"
            case .visibleRows: "visibleRows"
            }
        }

        func same(_ a: AppListView, _ b: AppListView) -> Bool {
            switch self {
            case .list: a.list == b.list
            case .count: a.count == b.count
            case .selection: a.selection == b.selection
            case .firstVisible: a.firstVisible == b.firstVisible
            case .rows: a.rows == b.rows
            case .status: a.status == b.status
            case .message: a.message == b.message
            case .hint: a.hint == b.hint
            case .visibleRows: a.visibleRows == b.visibleRows
            }
        }
    }

    private func node(_ member: Member) -> StateNode {
        switch member {
        case .list: .string(list.list.wireName)
        case .count: .int(list.count)
        case .selection: list.selection.map(StateNode.int) ?? .null
        case .firstVisible: .int(list.firstVisible)
        case .rows: parts.rowList.node(for: list.rows) { .list(parts.rowNodes.nodes($0)) }
        case .status: .string(list.status)
        case .message: parts.message.node(for: list.message) { $0.map(AppViewJSON.message) ?? .null }
        case .hint: .string(list.hint)
        case .visibleRows: .int(list.visibleRows)
        }
    }

    override func describe() -> StateNode { Member.object(node) }

    override func patch(from old: TypedStatePart, at path: String, into patch: inout StatePatch) -> Bool {
        guard let old = old as? AppListPart else { return false }
        Member.patch(old.list, list, old: old.node, new: node, at: path, into: &patch)
        return true
    }
}
