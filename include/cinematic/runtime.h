/*
 * cinematic/runtime.h: the runtime: opening one and its configuration, closing it, queued
 * delivery (cinematic_runtime_fd, cinematic_runtime_dispatch), the manual clock and a
 * host-provided catalog (cinematic_runtime_set_provider, cinematic_runtime_respond).
 *
 * Part of the C API of libcinematic: hosts include <cinematic.h>, which includes this header
 * and holds the conventions every function here follows (statuses, error detail, ownership,
 * handles, input, THREADS, files). Including this header alone includes <cinematic.h> too.
 */
#ifndef CINEMATIC_RUNTIME_H
#define CINEMATIC_RUNTIME_H

#include "../cinematic.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Opens a runtime. config_json (borrowed; NULL for all defaults) is an object with any of:
 *   "catalog":   "embedded" (default: the built-in 58,788-film catalog; its index is
 *                built by `make lib` and compiled into the library, so opening it builds
 *                nothing and writes nothing anywhere; see CATALOG INDEX in
 *                cinematic/catalog_index.h)
 *                | {"path": "/dir/movies.idx"} (an index built by cinematic-index or
 *                cinematic_catalog_build_index from a movie file of your own; a file that
 *                is not a cinematic index, or of another format version, is
 *                CINEMATIC_ERR_IO and left untouched)
 *                | "host" (the host answers catalog requests; see cinematic_runtime_set_provider)
 *                | {"host": "<source>"} (the same, declaring the catalog's source: the
 *                provider's base URL or a name, 1 to 1024 UTF-8 bytes). The offline cache
 *                keeps each source's answers apart: only the source that stored an answer
 *                is ever shown it. Plain "host" is an anonymous source: it gets no default
 *                offline cache, and the rows it stores in an explicit cache are its own.
 *   "favorites": ":memory:" (default: empty, created on the favorites' thread at the
 *                first write, so opening runs no SQL for it), a file path (its directory
 *                must exist; created with WAL journaling; refused with CINEMATIC_ERR_IO,
 *                unchanged, when it is another program's file), or
 *                {"path": "...", "readOnly": true} (an existing
 *                favorites file, opened read-only, never written, no file created: listing
 *                works and follows other runtimes' changes, every change fails with a
 *                "storage" error)
 *   "clock":     "system" (default) or "manual" (time moves only with
 *                cinematic_runtime_advance_clock; for tests)
 *   "delivery":  "immediate" (default) or "queued" (see DELIVERY in cinematic.h)
 *   "search":    {"debounceMs": 250}  (0...60000)
 *   "app":       {"rowsPerList": 2000, "details": 16, "undo": 20}: the app store's bounds,
 *                enforced by its reducer on every path (a moved past the last row, the named
 *                loadMore, a nested or child handle's loadMore, retry, a restore): the most
 *                films a list keeps (20...10000, a multiple of 20), Details open (1...16) and
 *                removals undo remembers (0...20). At the bound the state's view says so.
 *   "history":   N (0...100000, default 0 = off): debug history entries each store keeps
 *                (see cinematic_store_history). Off costs nothing; on, a store holds at most
 *                N entries (two states each; states share unchanged parts), the oldest
 *                dropped first.
 *   "record":    "/path/session.jsonl": records the session to that file (created, or a
 *                recording of ours replaced: see "Files are ours or untouched";
 *                CINEMATIC_ERR_IO when it cannot be), one JSON object per line
 *                (docs/wire.md, "Recordings"): the config, every store opened and closed,
 *                every intent each store reduced (host and internal) and each state it
 *                produced, time-travel steps, clock advances, and every catalog and
 *                favorites request the stores made with its answer, each with "t", the
 *                virtual time in ms. Replay it with cinematic_replay. Recording runs on
 *                the runtime's own recorder thread: it never blocks a send; the file is
 *                complete when cinematic_runtime_close returns (which reports a write that
 *                failed).
 * The environment variable CINEMATIC_LOG=stderr makes every runtime log to standard error
 * (see cinematic_runtime_set_logger). Unset or empty: no log. Any other value (the name is
 * exact: "STDERR" is not it) is ignored and reported once per process, when the first
 * runtime opens, by one line on standard error:
 *   cinematic: CINEMATIC_LOG="<value>" is not understood (the only value is "stderr"); not logging
 *   "offlineCache": (a "host" catalog only; checked and unused otherwise) where successful
 *                answers are stored, to be shown with "source":"cache" when the provider
 *                fails with "network" or "timeout"; per source (see "catalog": an answer
 *                stored for one source is never shown for another, or for plain "host").
 *                Default: on for {"host": "<source>"}, at
 *                $XDG_CACHE_HOME/cinematic/offline-cache.sqlite (or ~/.cache/...), skipped
 *                when it cannot be opened there (the runtime works without it); off for
 *                plain "host" (no shared default without a source). false: off.
 *                {"path": "..." (":memory:" allowed), "maxBytes": N (default 64 MiB, >= 1;
 *                least recently used answers evicted first), "ttlSeconds": N (default
 *                604800, >= 1)}, each optional. An explicit path that cannot be opened or
 *                read, or a file that is not ours or is ours from a newer schema (left
 *                unchanged), is CINEMATIC_ERR_IO. A cache another process keeps locked is
 *                not an error: the runtime opens without it. An empty file is adopted in
 *                place; our own damaged cache is replaced by an empty one. A store or
 *                lookup that fails later is a miss; the cache keeps working.
 *   "requestDeadlineMs": (a "host" catalog) 10000 (1...3600000): a provider request not
 *                answered in that time, on the runtime's clock, fails with "timeout" and the
 *                provider receives {"op":"cancel"} for it.
 *   With a "manual" clock the cache's "now" (cachedAt, the time to live) is the real time
 *   at open plus the time advanced.
 * On success *out (required) receives a runtime to close with cinematic_runtime_close.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_JSON / _TOO_LARGE for bad JSON; CINEMATIC_ERR_INVALID
 * for an unknown key or bad value (path named); CINEMATIC_ERR_IO when the catalog, the
 * favorites or an explicitly configured offline cache cannot be built or opened (or is not
 * ours) or the event fd cannot be made; CINEMATIC_ERR_MISUSE when out is NULL.
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
 * Returns CINEMATIC_OK; CINEMATIC_ERR_IO when the runtime's recording failed to write (the
 * runtime is closed all the same; the message names the error, and the file holds every
 * line up to the last complete one); CINEMATIC_ERR_MISUSE (NULL or not a runtime),
 * CINEMATIC_ERR_CLOSED.
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
 * WIRE FORMAT in cinematic.h and docs/wire.md. It runs under the DELIVERY rules and must not block: answer
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
 * {"movie":{...}} or {"error":{"code":...,"message":...}} (schema "providerAnswer": a movie
 * needs "id" and "title"; its optional "alternateTitles", at most 8 names of 1 to 200 UTF-8
 * bytes, puts the first beside the title: "Shichinin no samurai (Seven Samurai)"). Any
 * thread, any time, including from inside the provider callback. Like
 * cinematic_runtime_advance_clock, it returns once the effect it woke reached its next
 * suspension, with the resulting state delivered on the
 * calling thread ("immediate" delivery; from inside a callback, right after it). An answer
 * to a request that was cancelled, expired or already answered is accepted and dropped. An
 * answer that cannot be decoded fails the request with "invalidResponse" (so nothing waits
 * forever) and returns the decoding status. With the offline cache, a "network" or
 * "timeout" error is looked up in the cache on the cache's own thread (never the calling
 * one): the resulting state (the copy or the error) follows shortly after this returns, and
 * cinematic_store_settle waits for it.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_JSON / _TOO_LARGE / _INVALID for a bad answer or a
 * request id that was never issued; CINEMATIC_ERR_MISUSE (bad handle, NULL json, or the
 * catalog is not "host"); CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_respond(cinematic_runtime *rt, uint64_t request_id, const char *response_json);

#ifdef __cplusplus
}
#endif

#endif /* CINEMATIC_RUNTIME_H */
