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
 * HEADERS. Include <cinematic.h> alone: it holds this manual's conventions, the statuses and
 * the library's functions, and includes the rest of the API, one header per part:
 *   cinematic/catalog_index.h  CATALOG INDEX: building an index, a runtime's catalog state
 *   cinematic/runtime.h        runtime: open and config, close, queued delivery, the manual
 *                              clock, a host-provided catalog
 *   cinematic/store.h          stores: open (THE APP), scope, send, state, observe, settle
 *   cinematic/snapshot.h       SNAPSHOTS: a store's or a runtime's, taken and restored
 *   cinematic/debug.h          debugging: history, time travel, the log, replay
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
 * beyond); one input has a limit of its own: a runtime snapshot given to
 * cinematic_runtime_restore, at most 2 MiB (the largest one the limits allow is 1.6 MiB).
 * Malformed JSON, invalid UTF-8, duplicate keys, NUL escapes in strings and
 * documents nested more than 2048 levels deep (the innermost value counts as a level) give
 * CINEMATIC_ERR_JSON. A well-formed document that is not a valid intent, config or argument
 * (including a top-level scalar such as 42 or null, and a number no 64-bit integer or double
 * holds, such as 9223372036854775808 or 1e400) gives CINEMATIC_ERR_INVALID naming the
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
 *     favorites, a host catalog's offline cache), one for its effects, one for delivering
 *     what effects produce. Nothing of a runtime runs on Swift's shared cooperative pool, so
 *     a runtime whose callbacks are slow stalls only its own deliveries, never another
 *     runtime. One more thread serves the whole process: its timer, which only wakes
 *     effects sleeping on the system clock (debounces, provider request deadlines). Each
 *     thread starts when it is first given work (favorites in a file: at open, to watch
 *     the file), so a runtime never asked for a thread's work does not have that thread.
 *   - No lock is held while the library calls out (callbacks, observers, task cancellation),
 *     so a callback may call back in; the library's own locks are leaves.
 *   - Work per input is bounded: JSON documents are at most 1 MiB (a runtime snapshot 2 MiB)
 *     and 2048 levels deep, a search query at most 256 characters and 1024 UTF-8 bytes
 *     (CINEMATIC_ERR_INVALID beyond), so no query costs more than a few plain ones; a movie
 *     file indexed by cinematic_catalog_build_index at most 256 MiB (inflated too), its titles
 *     at most 1024 characters (every bound is listed there).
 *   - No host thread waits on the library's own I/O either: recordings are written by the
 *     runtime's recorder thread, CINEMATIC_LOG=stderr lines by one library thread per
 *     process through a bounded buffer (1 MiB; lines past it are dropped and their count
 *     written once stderr drains), offline cache writes by the cache's thread (at most 256
 *     waiting; more are dropped: the cache is disposable).
 *   - Memory is bounded by configuration, never by uptime or input size: answered host
 *     requests leave nothing behind (their deadline timers included, on either clock: a
 *     request answered or replaced is let go at once, not when its deadline would have
 *     passed), a replay holds one line of its recording at a time.
 *   - The blocking calls, all documented as such: cinematic_runtime_open (opens files and
 *     checks their headers; the catalog is made ready on the catalog's own thread: the
 *     embedded one is read in place in about a millisecond, a file read and checked once;
 *     searches wait for it there, never the host),
 *     cinematic_catalog_build_index (builds an index: seconds), cinematic_runtime_close and
 *     cinematic_store_close (wait for a callback of the closed runtime or store running on
 *     another thread, except from inside a callback; see below), cinematic_store_settle (by
 *     design), cinematic_runtime_advance_clock and cinematic_runtime_respond (wait, bounded by
 *     CPU work, until the effects they woke reached their next suspension), cinematic_replay
 *     (runs a whole recording), cinematic_runtime_set_logger (waits for a log line running
 *     on another thread, like cinematic_store_observe).
 *   - Deadlock freedom across callbacks: called from inside any callback (of any runtime),
 *     cinematic_store_close, cinematic_runtime_close, cinematic_store_observe and
 *     cinematic_runtime_set_provider do not wait for a callback running on another thread;
 *     no new callback of that store, runtime or provider starts after they return, but one
 *     already running elsewhere may finish afterwards. cinematic_store_settle is refused
 *     there (CINEMATIC_ERR_MISUSE) for the same reason.
 *     (Two callbacks that each close the other's store would otherwise wait forever.)
 *
 * DELIVERY: how callbacks run (state and patch observers, the provider, the logger, the
 * history observer). A runtime's config chooses one of two modes:
 *   - "immediate" (default): a callback runs on the thread that produced what it reports:
 *     the host's thread for the state its cinematic_store_send, _advance_clock or _respond
 *     produced (before the call returns; called from inside a callback, right after that
 *     callback), the runtime's delivery thread for what effects produce later. While another
 *     thread is delivering for the runtime, that thread may deliver it instead (in order).
 *   - "queued": callbacks wait in the runtime's queue; cinematic_runtime_fd becomes readable
 *     and the host runs them on its own thread with cinematic_runtime_dispatch.
 * In both modes: callbacks of one runtime never run concurrently; each store's states arrive
 * in the order they were produced (a state observer sees the current state first); a
 * callback may call back in (send, state, observe, close; not cinematic_store_settle or
 * cinematic_runtime_dispatch: CINEMATIC_ERR_MISUSE); no callback of a store starts after
 * its close returned (THREADS says what may still be finishing on another thread).
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
 * The offline cache of a host catalog follows the same rule with its own application_id
 * ("CNOC"), and tells busy from damaged. A missing or empty cache file is initialized in
 * place under SQLite's locks (never unlinked), so any number of processes may create one
 * cache at once. A cache another process keeps locked is waited for (about 2 s), then that
 * runtime runs without it: nothing is ever deleted. Only our own file that SQLite reports
 * damaged (corrupt, not a database), at open (which reads every stored answer, so one
 * damaged page anywhere among them is found there, not refused) or later during a lookup or
 * store, is replaced, in place and in one transaction, by an empty cache: another process
 * using it sees the old file or the new one, never none. Each replacement is logged
 * ("offline cache the offline cache at <path> was damaged (<SQLite's words>); it was
 * replaced by an empty one"; see cinematic_runtime_set_logger and CINEMATIC_LOG).
 * A recording ("record") is a file the library writes itself, under the same rule: a new
 * file is created under a temporary name and linked into place (never over anything); an
 * existing path is replaced (by rename: a reader of the old file keeps it whole) only when
 * it is a regular file, not a symbolic link, starts as a recording of ours (or is empty), and
 * no other runtime or process is recording to it (one writer per file: an exclusive flock
 * held while recording). A FIFO is written as it is. A record path naming the runtime's own
 * favorites, offline cache or index (or their -wal/-shm/-journal) is refused. Anything else
 * gives CINEMATIC_ERR_IO, and the file is left unchanged. A write that fails (disk full, file
 * too large, a pipe nobody reads) stops the recording at its last complete line, is logged
 * ("runtime recording stopped: ...") and is reported by cinematic_runtime_close
 * (CINEMATIC_ERR_IO); the session itself goes on.
 * cinematic_runtime_close returns after the catalog, favorites and offline cache files are
 * closed, and a recording is written and flushed to disk (fsync).
 *
 * Files we read are hostile until proven ours. Every file the library reads is opened
 * without blocking and must be a regular file: a FIFO, a device, a socket or a directory at
 * any path below is CINEMATIC_ERR_IO at once ("... is not a regular file (a FIFO)"), never a
 * hang. What each reader accepts, and what a hostile file gets:
 *   - A catalog index ("catalog": {"path"}): at most 4 GiB; SQLite's header with the index's
 *     application_id ("CIDX") and format, checked before anything else is read (otherwise
 *     CINEMATIC_ERR_IO at open, the file untouched). It is then read whole, in one read, into
 *     memory the library owns (one copy however many runtimes of the process open that same
 *     file), on the catalog's thread: nothing of it is mapped, nothing is
 *     written or created beside it (a header that says WAL is read as a plain database: no
 *     -wal, no -shm), and rewriting or truncating the file while a runtime uses it changes
 *     nothing that runtime serves. Every array the search reads in place is validated there,
 *     in one pass (the search section's trailer and frame: every part's offset and length
 *     inside it; a sorted vocabulary of non-empty words, postings ascending in range, offsets
 *     in range, ratings finite in 0...10): a truncated, damaged or crafted index fails the
 *     catalog's load, and
 *     cinematic_runtime_catalog_state says {"phase":"failed"} with a message naming the
 *     field ("the index is damaged: its words are not sorted at word 12"); every store then
 *     shows a failed phase. A film whose stored distribution is not ten numbers in 0...100
 *     fails that film's Detail ("storage") and nothing else.
 *   - The favorites (read-write or read-only) and the offline cache: SQLite files, checked as
 *     "Files are ours or untouched" says before SQLite opens them, then read by SQLite, which
 *     reports damage as an error (a failed phase or a status), never a crash.
 *   - A recording (cinematic_replay): streamed, one line of at most 1 MiB at a time, each
 *     line a JSON document validated like any input (see cinematic_replay).
 *   - A movie file (cinematic_catalog_build_index): see that function for its bounds.
 * The JSON layer never traps on a value: a number JSON cannot hold is encoded as null, and
 * none can reach it from a file, since files are validated where they enter.
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
 * cinematic_runtime_respond; {"op":"cancel"} says an answer is no longer needed (the request
 * was replaced, or passed its deadline: "requestDeadlineMs"). With a host catalog, loaded
 * phases say where their value came from: "source":"live", or "source":"cache" with
 * "cachedAt" (Unix seconds) when the provider failed and the offline cache had the answer.
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
#define CINEMATIC_VERSION_MINOR 4
#define CINEMATIC_VERSION_PATCH 0
#define CINEMATIC_VERSION "0.4.0"
/** MAJOR * 10000 + MINOR * 100 + PATCH, for compile-time comparisons. */
#define CINEMATIC_VERSION_NUMBER 400

/** Statuses: every function returns one (as int). Values never change; new ones may be
 *  added. cinematic_status_name gives the name in parentheses. */
typedef enum cinematic_status {
    CINEMATIC_OK = 0, /**< Success. ("ok") */
    CINEMATIC_ERR_JSON = 1, /**< Input is not well-formed JSON / valid UTF-8, or nests too deep. ("json") */
    CINEMATIC_ERR_INVALID = 2, /**< Well-formed, but not a valid intent, config or argument. ("invalid") */
    CINEMATIC_ERR_UNKNOWN_FEATURE = 3, /**< No feature has that name. ("unknown_feature") */
    CINEMATIC_ERR_IO = 4, /**< A file or system resource failed, or a file is not ours. ("io") */
    CINEMATIC_ERR_CLOSED = 5, /**< The handle was closed. ("closed") */
    CINEMATIC_ERR_MISUSE = 6, /**< NULL or foreign handle, NULL required pointer, wrong mode or thread, more than 256 stores in a runtime. ("misuse") */
    CINEMATIC_ERR_TIMEOUT = 7, /**< A wait ran out of time. ("timeout") */
    CINEMATIC_ERR_TOO_LARGE = 8 /**< Input larger than 1 MiB (a runtime snapshot: 2 MiB). ("too_large") */
} cinematic_status;

/** The features cinematic_store_open accepts, in the schema's order, as an initializer:
 *  `const char *names[] = CINEMATIC_FEATURE_NAMES;`. Each one's intents and state are in
 *  the wire files (docs/wire.md lists them). */
#define CINEMATIC_FEATURE_NAMES { "search", "discover", "favorites", "detail", "app" }
/** How many names CINEMATIC_FEATURE_NAMES holds. */
#define CINEMATIC_FEATURE_COUNT 5
/** Arguments each feature's store can always be opened with, in CINEMATIC_FEATURE_NAMES order
 *  (NULL: the feature takes none), e.g. for a host's smoke test over every feature. */
#define CINEMATIC_FEATURE_SAMPLE_ARGUMENTS { NULL, NULL, NULL, "{\"movieId\":15249}", NULL }
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

#ifdef __cplusplus
}
#endif

/* The rest of the API, in the order of the HEADERS list above. */
#include "cinematic/catalog_index.h"
#include "cinematic/runtime.h"
#include "cinematic/store.h"
#include "cinematic/snapshot.h"
#include "cinematic/debug.h"

#endif /* CINEMATIC_H */
