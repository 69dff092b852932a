/*
 * cinematic/store.h: stores: opening one of a feature (THE APP among them) and a child
 * handle of one (cinematic_store_scope), sending intents, reading and observing states
 * (whole or as patches), and waiting for effects.
 *
 * Part of the C API of libcinematic: hosts include <cinematic.h>, which includes this header
 * and holds the conventions every function here follows (statuses, error detail, ownership,
 * handles, input, THREADS, files). Including this header alone includes <cinematic.h> too.
 */
#ifndef CINEMATIC_STORE_H
#define CINEMATIC_STORE_H

#include "../cinematic.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Opens a store of feature ("search", "discover", "favorites", "detail", "app"; see
 * docs/wire.md) with args_json (borrowed; NULL when the feature takes none). *out (required)
 * receives a store to close with cinematic_store_close (or implicitly with its runtime). Any
 * feature also takes {"snapshot": {...}}: opens from that snapshot (see cinematic_store_restore).
 *
 * THE APP. "app" is the whole movie app in one store: the four features composed (each
 * behaving exactly as its own store), plus what lies between them: the tab shown, a stack
 * of open Details, the person's place in each list, the favorites undo, the query fitted to
 * a search's bounds (any text is taken), and the notice a person reads; docs/wire.md, "app".
 * A host renders its state and turns keys and clicks into its intents: the state's "view"
 * is what the person sees, already worded (the shown list's rows in view, selection, status
 * line, the message instead of rows, the Detail's facts, heart and histogram, the actions
 * available), and the keymap in docs/wire.md ("app") says which named action each key sends
 * (activate, moveBy, pageBy, moveToStart, moveToEnd, loadMore, removeSelected, sortChanged,
 * sortNext, tabBy, sectionBy; resized tells how many rows the host shows), so every UI behaves
 * alike without deciding anything. Its args may name a
 * state file, {"stateFile": path} (borrowed; {"fresh": true} ignores what it holds): the app
 * resumes from it and saves to it by itself, so no host decides when to save or how to
 * resume. cinematic_store_open reads the file then (a bounded read: a regular file of at
 * most 1 MiB, not a symbolic link, opened without blocking; a FIFO or a device is refused at
 * once), starting {"cinematicAppState":, of a format this library reads, and the app opens
 * from its snapshot (a recording shows it opened with {"snapshot": ...}, so a replay
 * restores it the same way and never touches the file). A missing file is a fresh start,
 * anything else (an empty file included) a fresh start with a notice (kind "stateFile")
 * saying why, and that file is then left untouched for the session (nothing is saved over
 * it). One session saves to a file at a time: the store holds an exclusive lock on
 * ".<name>.lock" beside it (created mode 0600, never written or removed) until it closes; a
 * second app store on the same file, in this process or another, resumes from it with a
 * "stateFile" notice ("Another session of this app is using ...") and never saves over the
 * first's session. Rows a snapshot or state file brings back are not trusted: a Detail's
 * row for another film is dropped, a Detail's row is replaced by the catalog's once its
 * detail loads (the heart stores nothing before), an undo stores the catalog's row of a
 * restored film (nothing when the catalog does not hold it), and a notice offers undo only
 * with something to undo. Saving happens
 * once the app has been quiet for 1 s on the runtime's clock (a manual clock: when advanced)
 * and when the store closes; it follows "Files are ours or untouched" (a new temporary file
 * beside the path, fsync, rename over nothing or over a state file of ours; never through a
 * symbolic link), mode 0600 (it holds what the person searched); a failed save is a notice. Closing an app store with a state file blocks
 * until its last save is written.
 * A runtime keeps at most 256 stores open (as many as a runtime snapshot carries, so every
 * runtime snapshot restores); close one to open another.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_UNKNOWN_FEATURE; CINEMATIC_ERR_JSON / _TOO_LARGE /
 * _INVALID for bad args; CINEMATIC_ERR_MISUSE (bad runtime, NULL feature or out, or the
 * runtime already has 256 stores open); CINEMATIC_ERR_CLOSED (the runtime is closed).
 */
int cinematic_store_open(cinematic_runtime *rt, const char *feature, const char *args_json, cinematic_store **out);

/**
 * Opens a child handle of store (an "app" store; or a child's parent) showing one part of its
 * state: scope (borrowed) "search", "discover", "favorites" (each exactly as its own store's
 * state) or "detail" (the shown Detail, the last of "details"; null when none is open).
 * *out (required) receives a store handle that works like any store's:
 *   - cinematic_store_state and the observers give the part (whole states, or patches whose
 *     paths are relative to the part), delivered like the parent's (same runtime queue,
 *     same order); a part that did not change delivers nothing.
 *   - cinematic_store_send takes the child feature's intents as its own store would
 *     ({"type":"queryChanged","query":"dune"} for "search"; a query of any length, fitted
 *     by the app) and sends them through the parent: the parent's history, recording and
 *     replay see them as the parent's ({"type":"search","intent":{...}}).
 *   - cinematic_store_settle, _pending_effects, _history, _revert and _snapshot act on the
 *     parent (a child has no effects, history or snapshot of its own).
 * Lifetime: close it with cinematic_store_close (only its callback stops); closing the
 * parent (or its runtime) closes it too, after which its handle answers CINEMATIC_ERR_CLOSED.
 * Threads: any thread, like the parent's calls; it never waits.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_INVALID for a scope the store's feature does not have
 * (the message lists its scopes) or a child handle given as store; CINEMATIC_ERR_MISUSE
 * (bad handle, NULL scope or out); CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_scope(cinematic_store *store, const char *scope, cinematic_store **out);

/**
 * Closes the store: its effects are cancelled (late results are dropped) and no callback
 * for it runs after this returns. May be called from inside a callback (then a callback of
 * this store already running on another thread may still be finishing; see THREADS).
 * Provider cancellations it causes are delivered on the calling thread.
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE, CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_close(cinematic_store *store);

/**
 * Sends an intent (borrowed, copied): reduces it, delivers the state it produced, starts
 * its effects and returns; never waits for I/O or for another thread (see THREADS).
 * Any thread, including from inside a callback.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_JSON / _TOO_LARGE for bad JSON; CINEMATIC_ERR_INVALID
 * for an unknown or internal intent type, a missing or mistyped member, or an unknown
 * member (path named); CINEMATIC_ERR_MISUSE (bad handle, NULL intent); CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_send(cinematic_store *store, const char *intent_json);

/**
 * Stores in *out_json a snapshot of the current state as JSON, owned by the caller: free it
 * with cinematic_free.
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE (bad handle or NULL out_json),
 * CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_state(cinematic_store *store, char **out_json);

/**
 * A state callback: state_json is borrowed for the call; store is the store's handle.
 */
typedef void (*cinematic_state_fn)(void *userdata, cinematic_store *store, const char *state_json);

/**
 * Registers the store's state callback (replacing any previous one; fn NULL removes it).
 * The callback first receives the current state, then every distinct state in order, under
 * the DELIVERY rules. States queued for a replaced callback are dropped. userdata is passed
 * back untouched; the host keeps it valid until the callback is replaced or the store
 * closed.
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE, CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_observe(cinematic_store *store, cinematic_state_fn fn, void *userdata);

/**
 * Registers the store's state callback in patch mode: like cinematic_store_observe
 * (replacing any previous callback of either kind; fn NULL removes it; the same DELIVERY
 * rules and userdata contract), but each delivery is an envelope saying what changed:
 *   {"seq": 1, "state": {...}}                 the first: the whole current state
 *   {"seq": 2, "patch": [{"op": "replace", "path": "/query", "value": "dune"}, ...]}
 * Each patch is an RFC 6902 JSON Patch ("add", "remove", "replace"; paths are RFC 6901 JSON
 * Pointers) that turns the state of the previous delivery into this one; applying every
 * patch in order to the first state gives, at each delivery, exactly what
 * cinematic_store_state returns for that state. seq counts deliveries of this registration
 * from 1 with no gaps; a host that missed one (or wants the whole state again) calls this
 * function again, which starts over at {"seq": 1, "state": ...}.
 * Patches come from what changed, not from comparing encodings: a page appended to a list
 * is one "add" at ".../-" per new film, a removed favorite one "remove", a heart tap a
 * "replace" of "/isFavorite". Shapes: "patchedDelivery" in schema/cinematic.schema.json.
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE, CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_observe_patches(cinematic_store *store, cinematic_state_fn fn, void *userdata);

/**
 * Blocks until the store has no effect in flight (including effects started by the results
 * of effects) or timeout_ms passes (negative: no limit). Cancelled effects do not count:
 * their late results are dropped whenever they arrive. With "immediate" delivery it also
 * waits until the resulting states have been delivered (not provider callbacks such as a
 * {"op":"cancel"}, which belong to the runtime). With a "manual" clock a pending
 * debounce waits for cinematic_runtime_advance_clock; with a "host" catalog a request waits
 * for its answer (and with "queued" delivery for a dispatch on another thread).
 * Returns CINEMATIC_OK; CINEMATIC_ERR_TIMEOUT; CINEMATIC_ERR_MISUSE (bad handle, or called
 * from inside a callback); CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_settle(cinematic_store *store, int64_t timeout_ms);

/**
 * Stores in *out_count how many effects are in flight (0 when quiescent), e.g. to check
 * that a repeated intent started no duplicate work.
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE (bad handle or NULL out_count),
 * CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_pending_effects(cinematic_store *store, int *out_count);

#ifdef __cplusplus
}
#endif

#endif /* CINEMATIC_STORE_H */
