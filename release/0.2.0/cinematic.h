/*
 * cinematic.h: the C API of libcinematic (Cinematic Core).
 *
 * libcinematic runs a movie app's features (Search, Discover, Favorites, Detail) as MVI
 * stores: a host sends intents as JSON strings, reads states as JSON strings, and the
 * effects (debounces, catalog queries, favorites writes) run inside the library and report
 * back through callbacks.
 *
 *     cinematic_runtime *rt;
 *     cinematic_store *search;
 *     cinematic_runtime_open(NULL, &rt);
 *     cinematic_store_open(rt, "search", NULL, &search);
 *     cinematic_store_send(search, "{\"type\":\"queryChanged\",\"query\":\"dune\"}");
 *     cinematic_store_settle(search, 5000);
 *     char *state;
 *     cinematic_store_state(search, &state);   // {"query":"dune","results":{"phase":"loaded",...}}
 *     puts(state);
 *     cinematic_free(state);
 *     cinematic_runtime_close(rt);             // closes its stores too
 *
 * CONVENTIONS
 *
 * Status. Every function returns an int status (CINEMATIC_OK = 0, else a CINEMATIC_ERR_*)
 * except the pure getters cinematic_version, cinematic_status_name, cinematic_last_error and
 * cinematic_free. Results go through out-pointers, which are set to NULL / -1 / 0 on
 * failure. After any error the runtime and its stores keep working.
 *
 * Error detail. cinematic_last_error() returns a JSON envelope describing the last failed
 * call on the calling thread, for example
 *     {"status":"invalid","message":"missing required member \"query\"","path":"$.query"}
 *     {"status":"json","message":"malformed JSON: ...","line":1,"column":9}
 * Every status-returning call clears it, so after a success it is NULL (even when a
 * callback run inside that call made a failing call of its own).
 *
 * Ownership. Every pointer argument is BORROWED for the duration of the call: the library
 * copies what it keeps. Every char * the library hands out through an out-pointer is OWNED
 * BY THE CALLER and must be released with cinematic_free() (never free(): the library may
 * use another allocator). Strings passed to callbacks are BORROWED for the duration of the
 * callback: copy them to keep them. Static strings (version, status names) are never freed.
 *
 * Handles. cinematic_runtime and cinematic_store are opaque. A NULL handle, or a value that
 * is not a handle of the expected kind, gives CINEMATIC_ERR_MISUSE; a handle that was
 * closed gives CINEMATIC_ERR_CLOSED. Neither ever crashes, and closed handles are never
 * reused.
 *
 * Input. JSON inputs are NUL-terminated UTF-8 of at most 1 MiB (CINEMATIC_ERR_TOO_LARGE
 * beyond). Malformed JSON, invalid UTF-8, duplicate keys, NUL escapes in strings and
 * documents nested more than 2048 levels deep (the innermost value counts as a level) give
 * CINEMATIC_ERR_JSON. A well-formed document that is not a valid intent, config or argument
 * (including a top-level scalar such as 42 or null) gives CINEMATIC_ERR_INVALID naming the
 * offending path ("$" for the document itself). Unknown keys in configs, arguments and
 * intents are errors (typos surface at once); unknown keys in provider answers are ignored
 * (forward compatibility).
 *
 * Threads. Every function may be called from any thread. cinematic_store_send reduces
 * before it returns: a cinematic_store_state right after it sees the intent applied.
 *
 * THREADS: the execution model. The library keeps a host alive whatever the host does:
 *   - A host's thread never waits for I/O, for another runtime or for a callback of another
 *     thread. cinematic_store_send decodes, reduces, delivers the state it produced (with
 *     "immediate" delivery, before any effect of that intent runs) and starts the effects up
 *     to their first suspension, in microseconds, whatever the effects then do. A heart tap
 *     returns at once even while another process holds the favorites file locked: the write
 *     waits on the library's favorites thread and the heart rolls back only if it fails.
 *   - Blocking work runs on threads each runtime owns: one per SQLite connection (catalog,
 *     favorites), one for its effects, one for delivering what effects produce. Nothing of a
 *     runtime runs on Swift's shared cooperative pool, so a runtime whose callbacks are slow
 *     stalls only its own deliveries, never another runtime.
 *   - No lock is held while the library calls out (callbacks, observers, task cancellation),
 *     so a callback may call back in; the library's own locks are leaves.
 *   - Work per input is bounded: JSON documents are at most 1 MiB and 2048 levels deep, a
 *     search query at most 256 characters (CINEMATIC_ERR_INVALID beyond).
 *   - The blocking calls, all documented as such: cinematic_runtime_open (opens files, and
 *     builds the embedded catalog's cache on first use, ~1.5 s), cinematic_runtime_close and
 *     cinematic_store_close (wait for a callback of the closed runtime or store running on
 *     another thread, except from inside a callback; see below), cinematic_store_settle (by
 *     design), cinematic_runtime_advance_clock and cinematic_runtime_respond (wait, bounded by
 *     CPU work, until the effects they woke reached their next suspension).
 *   - Deadlock freedom across callbacks: called from inside any callback (of any runtime),
 *     cinematic_store_close, cinematic_runtime_close, cinematic_store_observe and
 *     cinematic_runtime_set_provider do not wait for a callback running on another thread;
 *     no new callback of that store, runtime or provider starts after they return, but one
 *     already running elsewhere may finish afterwards. cinematic_store_settle is refused
 *     there (CINEMATIC_ERR_MISUSE) for the same reason.
 *     (Two callbacks that each close the other's store would otherwise wait forever.)
 *
 * Favorites shared across runtimes and processes. Runtimes using the same favorites file see
 * each other's changes within about 50 ms (the favorites thread polls SQLite's data_version;
 * read-only favorites compare the file's size and time instead). A heart tap flips what is
 * stored at that moment, so two processes toggling the same movies end with every heart
 * equal to the file.
 *
 * Files are ours or untouched. A favorites file is adopted only when it is new (missing or
 * empty) or carries this library's application_id ("CINE") and a schema it knows; files of
 * 0.1.0 (no application_id, our exact schema) are adopted and stamped. Anything else gives
 * CINEMATIC_ERR_IO, and the file is left unchanged byte for byte: the check reads the SQLite
 * header before SQLite opens it. Read-only favorites create nothing (no -wal, no -shm).
 * cinematic_runtime_close returns after the catalog and favorites files are closed.
 *
 * Versioning. The header's CINEMATIC_VERSION and cinematic_version() (the loaded library's)
 * follow semantic versioning; the ABI only grows.
 *
 * WIRE FORMAT
 *
 * The JSON that crosses this API (configs, store arguments, intents, states, error
 * envelopes, the provider protocol) is specified by schema/cinematic.schema.json (JSON Schema
 * draft 2020-12), the contract, and explained feature by feature in docs/wire.md. Keys are
 * camelCase everywhere. Host types (Python TypedDicts, Kotlin data classes) and this header's
 * status and version block are generated from the schema (tools/wiregen.py). The features:
 * "search", "discover", "favorites", "detail" (see docs/wire.md for their arguments, intents
 * and states). A host-provided catalog ("catalog": "host") receives requests such as
 * {"op":"search","query":"dune","page":1} with an id, and answers with
 * cinematic_runtime_respond; {"op":"cancel"} says an answer is no longer needed.
 */
#ifndef CINEMATIC_H
#define CINEMATIC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* BEGIN GENERATED: version and statuses (tools/wiregen.py from schema/cinematic.schema.json) */
/** The version this header describes. Compare with cinematic_version() at run time. */
#define CINEMATIC_VERSION_MAJOR 0
#define CINEMATIC_VERSION_MINOR 2
#define CINEMATIC_VERSION_PATCH 0
#define CINEMATIC_VERSION "0.2.0"
/** MAJOR * 10000 + MINOR * 100 + PATCH, for compile-time comparisons. */
#define CINEMATIC_VERSION_NUMBER 200

/** Statuses: every function returns one (as int). Values never change; new ones may be
 *  added. cinematic_status_name gives the name in parentheses. */
typedef enum cinematic_status {
    CINEMATIC_OK = 0, /**< Success. ("ok") */
    CINEMATIC_ERR_JSON = 1, /**< Input is not well-formed JSON / valid UTF-8, or nests too deep. ("json") */
    CINEMATIC_ERR_INVALID = 2, /**< Well-formed, but not a valid intent, config or argument. ("invalid") */
    CINEMATIC_ERR_UNKNOWN_FEATURE = 3, /**< No feature has that name. ("unknown_feature") */
    CINEMATIC_ERR_IO = 4, /**< A file or system resource failed, or a file is not ours. ("io") */
    CINEMATIC_ERR_CLOSED = 5, /**< The handle was closed. ("closed") */
    CINEMATIC_ERR_MISUSE = 6, /**< NULL or foreign handle, NULL required pointer, wrong mode or thread. ("misuse") */
    CINEMATIC_ERR_TIMEOUT = 7, /**< A wait ran out of time. ("timeout") */
    CINEMATIC_ERR_TOO_LARGE = 8 /**< Input larger than 1 MiB. ("too_large") */
} cinematic_status;
/* END GENERATED */

/** A runtime: configuration, clock, catalog, favorites and callback delivery for its stores. */
typedef struct cinematic_runtime cinematic_runtime;
/** A store: one feature's state machine, owned by a runtime. */
typedef struct cinematic_store cinematic_store;

/* ------------------------------------------------------------------------------------ */
/* Library                                                                               */

/** The loaded library's version, e.g. "0.1.0". Static: never free it. Any thread. */
const char *cinematic_version(void);

/** The name of a status, e.g. "invalid" for CINEMATIC_ERR_INVALID, "unknown" for a value
 *  that is no status. Static: never free it. Any thread. */
const char *cinematic_status_name(int status);

/** The JSON error envelope of the last failed call on this thread, or NULL when the last
 *  call succeeded. Borrowed: valid until the next cinematic_* call on this thread. */
const char *cinematic_last_error(void);

/** Frees a string the library returned through an out-pointer. NULL is a no-op. */
void cinematic_free(void *p);

/* ------------------------------------------------------------------------------------ */
/* Runtime                                                                               */

/**
 * Opens a runtime. config_json (borrowed; NULL for all defaults) is an object with any of:
 *   "catalog":   "embedded" (default: the built-in 58,788-film catalog, cached as SQLite
 *                under $XDG_CACHE_HOME/cinematic or ~/.cache/cinematic, or, when that
 *                cannot be written, /tmp/cinematic-cache-<uid>; built on first use, ~1.5 s)
 *                | {"path": "/dir/catalog.sqlite"} (the embedded catalog cached at that path)
 *                | "host" (the host answers catalog requests; see cinematic_runtime_set_provider)
 *   "favorites": ":memory:" (default), a file path (its directory must exist; created with
 *                WAL journaling; refused with CINEMATIC_ERR_IO, unchanged, when it is
 *                another program's file), or {"path": "...", "readOnly": true} (an existing
 *                favorites file, opened read-only, never written, no file created: listing
 *                works and follows other runtimes' changes, every change fails with a
 *                "storage" error)
 *   "clock":     "system" (default) or "manual" (time moves only with
 *                cinematic_runtime_advance_clock; for tests)
 *   "delivery":  "immediate" (default) or "queued" (see DELIVERY above)
 *   "search":    {"debounceMs": 250}  (0...60000)
 * On success *out (required) receives a runtime to close with cinematic_runtime_close.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_JSON / _TOO_LARGE for bad JSON; CINEMATIC_ERR_INVALID
 * for an unknown key or bad value (path named); CINEMATIC_ERR_IO when the catalog or the
 * favorites cannot be built or opened or the event fd cannot be made; CINEMATIC_ERR_MISUSE
 * when out is NULL.
 */
int cinematic_runtime_open(const char *config_json, cinematic_runtime **out);

/**
 * Closes the runtime and every store it still has: effects stop, outstanding provider
 * requests are abandoned (no cancel callbacks), a favorites write already queued completes
 * (one waiting for another process's lock gives up), the runtime's threads end and its files
 * are closed when this returns, and no callback of this runtime runs after this returns
 * (when called from inside a callback, that callback is the last, and a callback running on
 * another thread may still be finishing; see THREADS). The handle and its stores' handles
 * answer CINEMATIC_ERR_CLOSED afterwards. Blocks for as long as that takes (file closes and
 * a running callback of this runtime on another thread).
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE (NULL or not a runtime), CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_close(cinematic_runtime *rt);

/**
 * With "queued" delivery, stores in *out_fd a file descriptor that is readable while
 * callbacks wait; add it to your poll/select/event loop and call cinematic_runtime_dispatch
 * when it is readable. The descriptor belongs to the runtime: do not read, write or close it;
 * it is closed by cinematic_runtime_close.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_MISUSE for NULL arguments or "immediate" delivery;
 * CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_fd(cinematic_runtime *rt, int *out_fd);

/**
 * Runs every waiting callback on the calling thread, in order, and stores how many ran in
 * *out_count (optional, may be NULL). Returns at once with 0 when another thread is
 * dispatching. With "immediate" delivery nothing waits and the count is 0.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_MISUSE (bad handle, or called from inside a
 * callback); CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_dispatch(cinematic_runtime *rt, int *out_count);

/**
 * Moves a "manual" clock forward by milliseconds (>= 0) and wakes the effects whose sleep
 * (e.g. a search debounce) has elapsed. Returns once those effects have reached their next
 * suspension, with what they produced delivered on the calling thread ("immediate"
 * delivery, unless another thread is delivering at that moment) or queued: a debounced
 * query's provider request has been made when it returns, so tests need no polling. Work
 * that waits on a library thread (an embedded-catalog search, a favorites write) finishes
 * later: use cinematic_store_settle. The clock saturates at about 73 billion years instead
 * of overflowing; once there, time stops and new sleeps end at once.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_INVALID for a negative value; CINEMATIC_ERR_MISUSE
 * (bad handle, or the runtime uses the system clock); CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_advance_clock(cinematic_runtime *rt, int64_t milliseconds);

/**
 * A catalog provider: receives request_json (borrowed for the call) for request_id; see
 * WIRE FORMAT above and docs/wire.md. It runs under the DELIVERY rules and must not block: answer
 * later (from any thread) with cinematic_runtime_respond, or at once from inside it.
 */
typedef void (*cinematic_request_fn)(void *userdata, uint64_t request_id, const char *request_json);

/**
 * Registers the provider of a "host" catalog (fn NULL removes it). userdata is passed back
 * untouched; the host keeps it valid until the provider is replaced or the runtime closed:
 * when this returns, the previous provider is not running on another thread and is never
 * called again. Requests still waiting for delivery go to the new provider.
 * Register it before opening stores: requests made while none is registered fail.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_MISUSE (bad handle, or the catalog is not "host");
 * CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_set_provider(cinematic_runtime *rt, cinematic_request_fn fn, void *userdata);

/**
 * Answers provider request request_id with response_json (borrowed): {"movies":[...]},
 * {"movie":{...}} or {"error":{"code":...,"message":...}}. Any thread, any time, including
 * from inside the provider callback. Like cinematic_runtime_advance_clock, it returns once
 * the effect it woke reached its next suspension, with the resulting state delivered on the
 * calling thread ("immediate" delivery; from inside a callback, right after it). An answer
 * to a request that was cancelled or already answered is accepted and dropped. An answer
 * that cannot be decoded fails the request with "invalidResponse" (so nothing waits forever)
 * and returns the decoding status.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_JSON / _TOO_LARGE / _INVALID for a bad answer or a
 * request id that was never issued; CINEMATIC_ERR_MISUSE (bad handle, NULL json, or the
 * catalog is not "host"); CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_respond(cinematic_runtime *rt, uint64_t request_id, const char *response_json);

/* ------------------------------------------------------------------------------------ */
/* Stores                                                                                */

/**
 * Opens a store of feature ("search", "discover", "favorites", "detail"; see docs/wire.md)
 * with args_json (borrowed; NULL when the feature takes none). *out (required) receives a
 * store to close with cinematic_store_close (or implicitly with its runtime).
 * Returns CINEMATIC_OK; CINEMATIC_ERR_UNKNOWN_FEATURE; CINEMATIC_ERR_JSON / _TOO_LARGE /
 * _INVALID for bad args; CINEMATIC_ERR_MISUSE (bad runtime, NULL feature or out);
 * CINEMATIC_ERR_CLOSED (the runtime is closed).
 */
int cinematic_store_open(cinematic_runtime *rt, const char *feature, const char *args_json, cinematic_store **out);

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

#endif /* CINEMATIC_H */
