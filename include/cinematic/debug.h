/*
 * cinematic/debug.h: debugging: a store's history and time travel, the runtime's log, and
 * replaying a recording (made with the runtime config's "record").
 *
 * Part of the C API of libcinematic: hosts include <cinematic.h>, which includes this header
 * and holds the conventions every function here follows (statuses, error detail, ownership,
 * handles, input, THREADS, files). Including this header alone includes <cinematic.h> too.
 */
#ifndef CINEMATIC_DEBUG_H
#define CINEMATIC_DEBUG_H

#include "../cinematic.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Stores in *out_json, owned by the caller (free with cinematic_free), the store's debug
 * history as a JSON array, oldest first, of at most the runtime's "history" entries:
 *   {"seq": 12, "intent": {"type": "resultsLoaded", ...}, "state": {...}, "changed": ["results"]}
 * seq numbers every intent the store reduced (1 for its first; numbers keep counting as old
 * entries drop out); intent is any intent, internal ones (effect results) included; state
 * is the whole state after it; changed names the top-level state members that intent
 * changed ([] when none). "[]" when the runtime keeps no history.
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE (bad handle or NULL out_json),
 * CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_history(cinematic_store *store, char **out_json);

/**
 * Time travel: sets the store's state to the state after history entry seq and delivers it
 * to the state callback like any other state. Effects in flight keep running (their results
 * are reduced on the reverted state); the history itself is unchanged. What lives outside the
 * state is then brought in line, so the past never lies about the present: storage is read
 * again (the favorites list and every Detail's heart show what the favorites file holds now,
 * in a state delivered after the reverted one when they differ), and a notice that expires
 * expires again a full lifetime (6 s on the runtime's clock) after the revert.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_INVALID for a seq not in the history, or when the
 * runtime keeps none; CINEMATIC_ERR_MISUSE (bad handle); CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_revert(cinematic_store *store, uint64_t seq);

/**
 * A log callback: line (borrowed for the call, no newline) is one readable event, e.g.
 *   [250 ms] search#2 intent #3 searchNow {"type":"searchNow"} changed: results
 *   [250 ms] search#2 effect started "search" (#7)
 *   [262 ms] search#2 effect finished "search" (#7)
 *   [300 ms] search#2 revert to #2 changed: query, results
 * with the virtual time since the runtime opened, the store's feature and handle number,
 * and per intent the fields of the state it changed ("no change" when none). Long intents
 * are cut at 200 characters (the history and recordings keep them whole).
 */
typedef void (*cinematic_log_fn)(void *userdata, const char *line);

/**
 * Registers the runtime's logger (fn NULL removes it): from now on it receives a line for
 * every intent any store of the runtime reduces, every time-travel step and every effect
 * started, cancelled and finished. Lines run under the DELIVERY rules, in order, like state
 * callbacks (never on an effect's thread). Off by default, and free when off: stores are
 * traced only while a logger (or a recording) is attached. userdata is passed back
 * untouched; when this returns the previous logger is not running on another thread and is
 * never called again.
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE (bad handle), CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_set_logger(cinematic_runtime *rt, cinematic_log_fn fn, void *userdata);

/**
 * Replays the recording at path (borrowed; see "record" at cinematic_runtime_open) in a
 * fresh runtime with the manual clock: stores are opened as recorded, receive the recorded
 * host intents, clock advances and time-travel steps, and every catalog request, favorites
 * write and favorites snapshot is answered from the recording at its recorded virtual time
 * (no catalog, no favorites file, no network). Every state the stores produce is compared
 * with the recorded one. *out_matched (optional) receives 1 when every state matched, else
 * 0. *out_report (optional, owned by the caller: free with cinematic_free) receives
 *   {"matched": true, "complete": true, "lines": 42, "stores": 3, "states": 17, "afterClose": 0}
 * or, at the first divergent state in file order,
 *   {"matched": false, "complete": true, "states": 5, "afterClose": 0, "divergence": {"line": 31, "store": 2,
 *    "feature": "search", "index": 5, "intent": {...}, "replayedIntent": {...},
 *    "expected": {...}, "actual": {...}}}
 * (intent: the recorded intent that produced the expected state; null members for a state
 * one side lacks; complete: the recording ends with its "end" line, i.e. its runtime was
 * closed and no write failed; cutLine: a last line cut short (its writer failed or was
 * killed), not replayed; a recording without "end" is replayed up to its last complete line
 * and states the replay makes past it are not a divergence; afterClose: states the replay
 * made from effect results that in the recorded session lost the race with their store's
 * close, which are not compared). Nothing is read after "end".
 * The recording is read as a stream: memory is bounded by its longest line (1 MiB), not its
 * size. Only a regular file is read (a FIFO, a device or a directory is CINEMATIC_ERR_IO at
 * once, without blocking), and only a possible sequence is replayed: one "session" line,
 * first; times that never go backwards; each store opened once (CINEMATIC_ERR_INVALID naming
 * the line otherwise). Inputs that raced each other in the recorded session (one
 * thread advancing the clock while another sends to the same runtime) are replayed in the
 * order the recording saw them, so only a session whose inputs come from one thread at a
 * time is sure to replay exactly. Blocks the calling thread until the replay ends.
 * Returns CINEMATIC_OK when the replay ran (whether or not it matched); CINEMATIC_ERR_IO
 * (cannot read path, or not a regular file); CINEMATIC_ERR_JSON / _INVALID for a malformed
 * or impossible recording (the message names the line); CINEMATIC_ERR_INVALID also for a path
 * that is not valid UTF-8 (paths are passed to the system byte for byte, never re-encoded;
 * nothing is read); CINEMATIC_ERR_TOO_LARGE (a line over 1 MiB); CINEMATIC_ERR_MISUSE (NULL
 * path, or called from inside a callback).
 */
int cinematic_replay(const char *path, int *out_matched, char **out_report);

#ifdef __cplusplus
}
#endif

#endif /* CINEMATIC_DEBUG_H */
