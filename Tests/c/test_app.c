/*
 * The app store's contract through the C API (include/cinematic/store.h, THE APP and
 * cinematic_store_scope; docs/wire.md, "app"):
 * - child handles: NULLs are misuse, an unknown scope is invalid and names the scopes, a child
 *   has none; a child's state is exactly its part of the parent's (the shown Detail: null,
 *   then the last of "details"); a part that did not change delivers nothing to its child;
 *   a child's intent is the parent's {"type":"search","intent":...} in its history; closing
 *   a child stops only it; closing the parent (or the runtime) closes every child;
 * - a keystroke's patch on the app touches only /search paths (and a child's patch is
 *   relative to its part);
 * - reverting the app store restores tab, query, lists, the Detail stack and the notice in
 *   one delivered state;
 * - a recorded app session (child handles included) replays state for state;
 * - the state file: saved once the app has been quiet for 1 s on the manual clock, and not
 *   before; resumed by a second runtime (tab, section, query, positions, the Detail stack);
 *   a foreign file or a symbolic link at the path is left byte for byte untouched with a
 *   notice of kind "stateFile"; a FIFO does not block.
 * Every wait is bounded and on something observable (a state, a file).
 */
#include "harness.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>

#define CONFIG "{\"clock\":\"manual\",\"search\":{\"debounceMs\":250}}"
#define HISTORY_CONFIG "{\"clock\":\"manual\",\"search\":{\"debounceMs\":250},\"history\":50}"
#define SCOPES "scopes: search, discover, favorites, detail"

/* ---- helpers ------------------------------------------------------------------------ */

/* A child handle of app (NULL, with a failure, if it cannot be had); logged as `feature`'s
 * states (NULL: the shown Detail, which is no feature's state, is not logged). */
static cinematic_store *scope_of(cinematic_store *app, const char *scope, const char *feature) {
    cinematic_store *child = NULL;
    int rc = cinematic_store_scope(app, scope, &child);
    if (!CHECK_MSG(rc == CINEMATIC_OK && child != NULL, "cinematic_store_scope(%s): %s %s", scope, cinematic_status_name(rc),
                   cinematic_last_error() ? cinematic_last_error() : ""))
        return NULL;
    if (feature) h_wire_note(child, feature);
    return child;
}

/* A store's state (owned), without logging it (for the shown Detail, and for byte compares). */
static char *raw_state(cinematic_store *store) {
    char *json = NULL;
    if (cinematic_store_state(store, &json) != CINEMATIC_OK) return NULL;
    return json;
}

/* The raw text of the value at path in json, as an owned string ("" when absent). */
static char *part_of(const char *json, const char *path) {
    const char *start, *end;
    if (!json_find(json, path, &start, &end) || !end) return strdup("");
    return strndup(start, (size_t)(end - start));
}

static void send_ok(cinematic_store *store, const char *intent) {
    int rc = cinematic_store_send(store, intent);
    CHECK_MSG(rc == CINEMATIC_OK, "send %s: %s %s", intent, cinematic_status_name(rc), cinematic_last_error() ? cinematic_last_error() : "");
}

static void send_movie(cinematic_store *store, const char *type, long long id) {
    char intent[128];
    snprintf(intent, sizeof intent, "{\"type\":\"%s\",\"movieId\":%lld}", type, id);
    send_ok(store, intent);
}

/* The search results for the query ctx (a string) have loaded. */
static int results_for(const char *state, void *ctx) {
    char phase[16], query[64];
    return json_get(state, "search.results.phase", phase, sizeof phase) && strcmp(phase, "loaded") == 0 &&
           json_get(state, "search.results.query", query, sizeof query) && strcmp(query, (const char *)ctx) == 0;
}

/* Types "alien" (through `via`: the app or its Search child), lets the debounce pass and
 * waits for the results; returns the third result's id. */
static long long search_alien(cinematic_runtime *rt, cinematic_store *app, cinematic_store *via) {
    send_ok(via, "{\"type\":\"queryChanged\",\"query\":\"alien\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 250), CINEMATIC_OK);
    int ok = 0;
    char *state = wait_state(app, results_for, "alien", H_WAIT_MS, &ok);
    CHECK_MSG(ok, "the results for alien never came: %.300s", state ? state : "(null)");
    long long id = json_int(state, "search.results.value[2].id", -1);
    cinematic_free(state);
    return id;
}

/* Opens movie id from a list and waits until its Detail (the last of "details") loaded. */
static void open_movie(cinematic_store *app, long long id, int depth) {
    send_movie(app, "opened", id);
    char path[64];
    snprintf(path, sizeof path, "details[%d].detail.phase", depth - 1);
    char *state = wait_json_eq(app, path, "loaded", H_WAIT_MS);
    CHECK_JSON_EQ(state, path, "loaded");
    snprintf(path, sizeof path, "details[%d].movieId", depth - 1);
    CHECK_EQ_INT(json_int(state, path, -1), id);
    cinematic_free(state);
}

static int file_exists(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Waits (bounded) until path exists. */
static int wait_file(const char *path, int timeout_ms) {
    long long deadline = h_now_ms() + timeout_ms;
    while (!file_exists(path) && h_now_ms() < deadline) h_sleep_ms(5);
    return file_exists(path);
}

/* The whole content of a regular file (owned; NULL when unreadable). */
static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = calloc(1, 1 << 20);
    size_t n = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
    if (text) text[n] = '\0';
    fclose(f);
    return text;
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    CHECK_MSG(f != NULL, "cannot write %s: %s", path, strerror(errno));
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static cinematic_store *open_app_with_file(cinematic_runtime *rt, const char *path) {
    char args[4200];
    snprintf(args, sizeof args, "{\"stateFile\":\"%s\"}", path);
    return open_feature(rt, "app", args);
}

/* ---- child handles --------------------------------------------------------------------- */

static void test_scope_misuse_and_unknown_scopes(void) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = open_feature(rt, "app", NULL), *child = NULL;
    CHECK_STATUS(cinematic_store_scope(NULL, "search", &child), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_scope(app, NULL, &child), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_scope(app, "search", NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_scope(app, "nope", &child), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS(SCOPES);
    CHECK_STATUS(cinematic_store_scope(app, "Search", &child), CINEMATIC_ERR_INVALID);
    CHECK(child == NULL);
    cinematic_store *search = scope_of(app, "search", "search");
    CHECK_STATUS(cinematic_store_scope(search, "search", &child), CINEMATIC_ERR_INVALID); /* a child has none */
    cinematic_store *plain = open_search(rt);
    CHECK_STATUS(cinematic_store_scope(plain, "search", &child), CINEMATIC_ERR_INVALID); /* nor has a feature */
    CHECK(child == NULL);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_child_lifetime(void) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = open_feature(rt, "app", NULL);
    cinematic_store *search = scope_of(app, "search", "search"), *other = scope_of(app, "search", "search");
    cinematic_store *detail = scope_of(app, "detail", NULL);
    recorder r;
    recorder_init(&r);
    CHECK_STATUS(cinematic_store_observe(search, recorder_fn, &r), CINEMATIC_OK);

    /* A child's close stops only it. */
    CHECK_STATUS(cinematic_store_close(other), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_send(other, "{\"type\":\"submitted\"}"), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_close(other), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_send(search, "{\"type\":\"queryChanged\",\"query\":\"du\"}"), CINEMATIC_OK);
    char *state = wait_json_eq(app, "search.query", "du", H_WAIT_MS);
    CHECK_JSON_EQ(state, "search.query", "du");
    cinematic_free(state);

    /* Closing the parent closes every child: each call answers closed, no callback runs. */
    CHECK_STATUS(cinematic_store_close(app), CINEMATIC_OK);
    int delivered = recorder_count(&r);
    char *json = NULL;
    int count = 0;
    cinematic_store *grandchild = NULL;
    CHECK_STATUS(cinematic_store_send(search, "{\"type\":\"queryChanged\",\"query\":\"dune\"}"), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_state(search, &json), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_observe(search, recorder_fn, &r), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_observe_patches(search, recorder_fn, &r), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_settle(search, 0), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_pending_effects(search, &count), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_history(search, &json), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_snapshot(search, &json), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_scope(search, "search", &grandchild), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_close(search), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_close(detail), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_scope(app, "search", &grandchild), CINEMATIC_ERR_CLOSED);
    h_sleep_ms(50); /* a late callback would show up here */
    CHECK_EQ_INT(recorder_count(&r), delivered);

    /* Closing the runtime closes the children of its app stores too. */
    cinematic_store *app2 = open_feature(rt, "app", NULL);
    cinematic_store *favorites = scope_of(app2, "favorites", "favorites");
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_state(favorites, &json), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_store_close(favorites), CINEMATIC_ERR_CLOSED);
    CHECK_EQ_INT(atomic_load(&r.overlaps), 0);
    recorder_destroy(&r);
}

/* The shown Detail's state once it has loaded (owned; polled without logging it: it is no
 * feature's state), or the last one read. */
static char *wait_shown_loaded(cinematic_store *detail) {
    long long deadline = h_now_ms() + H_WAIT_MS;
    for (;;) {
        char *state = raw_state(detail), phase[16];
        if ((json_get(state, "detail.phase", phase, sizeof phase) && strcmp(phase, "loaded") == 0) || h_now_ms() > deadline) return state;
        cinematic_free(state);
        h_sleep_ms(5);
    }
}

static void test_child_state_is_the_parents_part(void) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = open_feature(rt, "app", NULL);
    const char *parts[] = {"search", "discover", "favorites"};
    cinematic_store *children[3];
    for (int i = 0; i < 3; i++) children[i] = scope_of(app, parts[i], parts[i]);
    cinematic_store *detail = scope_of(app, "detail", NULL);
    recorder search_states, discover_states;
    recorder_init(&search_states);
    recorder_init(&discover_states);
    CHECK_STATUS(cinematic_store_observe(children[0], recorder_fn, &search_states), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_observe(children[1], recorder_fn, &discover_states), CINEMATIC_OK);

    send_ok(app, "{\"type\":\"task\"}");
    char *shown = raw_state(detail);
    CHECK_STR_EQ(shown, "null"); /* no Detail open */
    cinematic_free(shown);
    long long third = search_alien(rt, app, children[0]);
    CHECK(third > 0);
    char *parent = state_of(app);
    for (int i = 0; i < 3; i++) {
        char *part = part_of(parent, parts[i]), *child = state_of(children[i]);
        CHECK_MSG(child && strcmp(part, child) == 0, "the %s child's state is not the app's part:\n  part  %.300s\n  child %.300s", parts[i],
                  part, child ? child : "(null)");
        free(part);
        cinematic_free(child);
    }
    cinematic_free(parent);
    /* The search child saw each state of its part, the delivered one last. */
    char *search = state_of(children[0]);
    CHECK(recorder_count(&search_states) >= 3);
    CHECK_STR_EQ(recorder_state(&search_states, -1), search);
    cinematic_free(search);

    /* The shown Detail: the last of "details", then null again after back. */
    open_movie(app, third, 1);
    shown = wait_shown_loaded(detail);
    parent = state_of(app);
    char *last = part_of(parent, "details[0]");
    CHECK_MSG(shown && strcmp(last, shown) == 0, "the shown Detail is not the last of details:\n  part  %.300s\n  child %.300s", last,
              shown ? shown : "(null)");
    CHECK_EQ_INT(json_int(shown, "listing.id", -1), third);
    free(last);
    cinematic_free(parent);
    cinematic_free(shown);

    /* Parts that did not change deliver nothing to their children. */
    int discover_count = recorder_count(&discover_states);
    CHECK_EQ_INT(discover_count, 1);
    int search_count = recorder_count(&search_states);
    send_ok(app, "{\"type\":\"back\"}");
    send_ok(app, "{\"type\":\"moved\",\"list\":\"search\",\"selection\":2,\"firstVisible\":0}");
    shown = raw_state(detail);
    CHECK_STR_EQ(shown, "null");
    cinematic_free(shown);
    h_sleep_ms(50);
    CHECK_EQ_INT(recorder_count(&search_states), search_count);
    CHECK_EQ_INT(recorder_count(&discover_states), discover_count);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    recorder_destroy(&search_states);
    recorder_destroy(&discover_states);
}

static void test_child_intents_are_the_parents_in_its_history(void) {
    cinematic_runtime *rt = open_runtime(HISTORY_CONFIG);
    cinematic_store *app = open_feature(rt, "app", NULL);
    cinematic_store *search = scope_of(app, "search", "search"), *detail = scope_of(app, "detail", NULL);
    send_ok(app, "{\"type\":\"task\"}");
    send_ok(search, "{\"type\":\"queryChanged\",\"query\":\"alien\"}");
    char *history = NULL, *child_history = NULL;
    CHECK_STATUS(cinematic_store_history(app, &history), CINEMATIC_OK);
    h_wire_log("history", NULL, history);
    int n = json_array_len(history, "");
    char path[64];
    snprintf(path, sizeof path, "[%d].intent", n - 1);
    char *intent = part_of(history, path);
    CHECK_STR_EQ(intent, "{\"type\":\"search\",\"intent\":{\"type\":\"queryChanged\",\"query\":\"alien\"}}");
    free(intent);
    snprintf(path, sizeof path, "[%d].changed", n - 1);
    char *changed = part_of(history, path);
    CHECK_STR_EQ(changed, "[\"search\"]");
    free(changed);
    /* A child's history is its parent's. */
    CHECK_STATUS(cinematic_store_history(search, &child_history), CINEMATIC_OK);
    CHECK_STR_EQ(child_history, history);
    cinematic_free(child_history);
    cinematic_free(history);

    /* The shown Detail's heart, sent through its child. */
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 250), CINEMATIC_OK);
    int ok = 0;
    char *state = wait_state(app, results_for, "alien", H_WAIT_MS, &ok);
    long long third = json_int(state, "search.results.value[2].id", -1);
    cinematic_free(state);
    open_movie(app, third, 1);
    send_ok(detail, "{\"type\":\"favoriteToggled\"}");
    CHECK_STATUS(cinematic_store_history(app, &history), CINEMATIC_OK);
    CHECK_STR_CONTAINS(history, "\"intent\":{\"type\":\"detail\",\"intent\":{\"type\":\"favoriteToggled\"}}");
    cinematic_free(history);
    /* An intent of another feature is refused by the child, naming it. */
    CHECK_STATUS(cinematic_store_send(search, "{\"type\":\"loadMore\",\"section\":\"comedy\"}"), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"queryChanged\",\"query\":\"x\"}"), CINEMATIC_ERR_INVALID);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* ---- patches -------------------------------------------------------------------------- */

typedef struct {
    pthread_mutex_t lock;
    int deliveries;
    char paths[64][128]; /* the paths of every operation delivered after the first state */
    int path_count;
} path_log;

static void path_log_fn(void *userdata, cinematic_store *store, const char *envelope) {
    (void)store;
    path_log *log = userdata;
    pthread_mutex_lock(&log->lock);
    log->deliveries++;
    int ops = json_array_len(envelope, "patch");
    for (int i = 0; i < ops && log->path_count < 64; i++) {
        char path[48];
        snprintf(path, sizeof path, "patch[%d].path", i);
        json_get(envelope, path, log->paths[log->path_count++], sizeof log->paths[0]);
    }
    pthread_mutex_unlock(&log->lock);
}

static int path_log_wait(path_log *log, int deliveries) {
    long long deadline = h_now_ms() + H_WAIT_MS;
    for (;;) {
        pthread_mutex_lock(&log->lock);
        int n = log->deliveries;
        pthread_mutex_unlock(&log->lock);
        if (n >= deliveries) return 1;
        if (h_now_ms() > deadline) return 0;
        h_sleep_ms(1);
    }
}

static void test_a_keystroke_patches_only_search(void) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = open_feature(rt, "app", NULL);
    cinematic_store *search = scope_of(app, "search", "search");
    path_log app_log = {.lock = PTHREAD_MUTEX_INITIALIZER}, child_log = {.lock = PTHREAD_MUTEX_INITIALIZER};
    send_ok(app, "{\"type\":\"task\"}");
    char *state = wait_json_eq(app, "favorites.favorites.phase", "loaded", H_WAIT_MS);
    cinematic_free(state);
    CHECK_STATUS(cinematic_store_observe_patches(app, path_log_fn, &app_log), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_observe_patches(search, path_log_fn, &child_log), CINEMATIC_OK);
    CHECK(path_log_wait(&app_log, 1) && path_log_wait(&child_log, 1));
    send_ok(app, "{\"type\":\"queryChanged\",\"query\":\"a\"}");    /* typed into the app */
    send_ok(search, "{\"type\":\"queryChanged\",\"query\":\"al\"}"); /* and into its Search part */
    CHECK(path_log_wait(&app_log, 3) && path_log_wait(&child_log, 3));
    pthread_mutex_lock(&app_log.lock);
    CHECK(app_log.path_count >= 2);
    for (int i = 0; i < app_log.path_count; i++)
        CHECK_MSG(strncmp(app_log.paths[i], "/search/", 8) == 0, "a keystroke patched %s", app_log.paths[i]);
    pthread_mutex_unlock(&app_log.lock);
    pthread_mutex_lock(&child_log.lock);
    CHECK_EQ_INT(child_log.path_count, 2);
    for (int i = 0; i < child_log.path_count; i++) CHECK_STR_EQ(child_log.paths[i], "/query");
    pthread_mutex_unlock(&child_log.lock);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* ---- time travel and recordings -------------------------------------------------------- */

/* The seq of the app's last history entry. */
static long long last_seq(cinematic_store *app) {
    char *history = NULL, path[32];
    CHECK_STATUS(cinematic_store_history(app, &history), CINEMATIC_OK);
    snprintf(path, sizeof path, "[%d].seq", json_array_len(history, "") - 1);
    long long seq = json_int(history, path, -1);
    cinematic_free(history);
    return seq;
}

/* The state after history entry seq (owned). */
static char *state_after(cinematic_store *app, long long seq) {
    char *history = NULL, path[32];
    CHECK_STATUS(cinematic_store_history(app, &history), CINEMATIC_OK);
    char *state = NULL;
    for (int i = json_array_len(history, "") - 1; i >= 0 && !state; i--) {
        snprintf(path, sizeof path, "[%d].seq", i);
        if (json_int(history, path, -1) != seq) continue;
        snprintf(path, sizeof path, "[%d].state", i);
        state = part_of(history, path);
    }
    cinematic_free(history);
    return state ? state : strdup("");
}

/* Reverts app to seq and checks that one delivered state brought back every part at once. */
static void revert_checked(cinematic_store *app, recorder *r, long long seq) {
    char *expected = state_after(app, seq);
    int before = recorder_count(r);
    CHECK_STATUS(cinematic_store_revert(app, (uint64_t)seq), CINEMATIC_OK);
    long long deadline = h_now_ms() + H_WAIT_MS;
    while (recorder_count(r) == before && h_now_ms() < deadline) h_sleep_ms(1);
    h_sleep_ms(20); /* a second delivery (a part restored later) would show up here */
    CHECK_EQ_INT(recorder_count(r), before + 1);
    CHECK_STR_EQ(recorder_state(r, -1), expected);
    char *now = state_of(app);
    CHECK_STR_EQ(now, expected);
    cinematic_free(now);
    free(expected);
}

static void test_revert_restores_every_part_at_once(void) {
    cinematic_runtime *rt = open_runtime(HISTORY_CONFIG);
    cinematic_store *app = open_feature(rt, "app", NULL);
    recorder r;
    recorder_init(&r);
    CHECK_STATUS(cinematic_store_observe(app, recorder_fn, &r), CINEMATIC_OK);
    send_ok(app, "{\"type\":\"task\"}");
    long long third = search_alien(rt, app, app);
    open_movie(app, third, 1);
    send_ok(app, "{\"type\":\"detail\",\"intent\":{\"type\":\"favoriteToggled\"}}");
    char id[32];
    snprintf(id, sizeof id, "%lld", third);
    char *state = wait_json_eq(app, "favorites.favorites.value[0].id", id, H_WAIT_MS);
    CHECK_JSON_EQ(state, "favorites.favorites.value[0].id", id);
    cinematic_free(state);
    state = wait_json_eq(app, "details[0].isSaving", "false", H_WAIT_MS);
    cinematic_free(state);
    long long with_detail = last_seq(app); /* tab search, query alien, a Detail open, no notice */

    send_ok(app, "{\"type\":\"back\"}");
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"favorites\"}");
    send_movie(app, "removed", third);
    state = wait_json_eq(app, "favorites.favorites.value", "[]", H_WAIT_MS);
    CHECK_JSON_EQ(state, "notice.kind", "removed");
    cinematic_free(state);
    long long with_notice = last_seq(app); /* tab favorites, the removal's notice, its undo stack */

    /* Later: the undo, another tab, another query, another Detail. */
    send_ok(app, "{\"type\":\"undo\"}");
    state = wait_json_eq(app, "notice.kind", "restored", H_WAIT_MS);
    cinematic_free(state);
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"search\"}");
    send_ok(app, "{\"type\":\"queryChanged\",\"query\":\"dune\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 250), CINEMATIC_OK);
    int ok = 0;
    state = wait_state(app, results_for, "dune", H_WAIT_MS, &ok);
    CHECK(ok);
    long long dune = json_int(state, "search.results.value[0].id", -1);
    cinematic_free(state);
    open_movie(app, dune, 1);

    revert_checked(app, &r, with_notice);
    state = state_of(app);
    CHECK_JSON_EQ(state, "tab", "favorites");
    CHECK_JSON_EQ(state, "search.query", "alien");
    CHECK_JSON_EQ(state, "search.results.query", "alien");
    CHECK_JSON_EQ(state, "details", "[]");
    CHECK_JSON_EQ(state, "notice.kind", "removed");
    CHECK_JSON_EQ(state, "favorites.favorites.value", "[]");
    CHECK_EQ_INT(json_int(state, "removed[0].id", -1), third);
    cinematic_free(state);

    revert_checked(app, &r, with_detail);
    state = state_of(app);
    CHECK_JSON_EQ(state, "tab", "search");
    CHECK_JSON_EQ(state, "notice", "null");
    CHECK_EQ_INT(json_int(state, "details[0].movieId", -1), third);
    CHECK_JSON_EQ(state, "details[0].isFavorite", "true");
    CHECK_JSON_EQ(state, "removed", "[]");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK_EQ_INT(atomic_load(&r.overlaps), 0);
    recorder_destroy(&r);
}

static void test_a_recorded_app_session_replays(void) {
    char dir[64], path[128], config[512];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/app-session.jsonl", dir);
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"search\":{\"debounceMs\":250},\"record\":\"%s\"}", path);
    cinematic_runtime *rt = open_runtime(config);
    cinematic_store *app = open_feature(rt, "app", NULL);
    cinematic_store *search = scope_of(app, "search", "search"), *detail = scope_of(app, "detail", NULL);
    send_ok(app, "{\"type\":\"task\"}");
    long long third = search_alien(rt, app, search);
    send_ok(app, "{\"type\":\"moved\",\"list\":\"search\",\"selection\":2,\"firstVisible\":0}");
    open_movie(app, third, 1);
    send_ok(detail, "{\"type\":\"favoriteToggled\"}");
    char id[32];
    snprintf(id, sizeof id, "%lld", third);
    char *state = wait_json_eq(app, "favorites.favorites.value[0].id", id, H_WAIT_MS);
    cinematic_free(state);
    state = wait_json_eq(app, "details[0].isSaving", "false", H_WAIT_MS);
    cinematic_free(state);
    send_ok(app, "{\"type\":\"back\"}");
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"favorites\"}");
    send_movie(app, "removed", third);
    state = wait_json_eq(app, "favorites.favorites.value", "[]", H_WAIT_MS);
    cinematic_free(state);
    send_ok(app, "{\"type\":\"undo\"}");
    state = wait_json_eq(app, "notice.kind", "restored", H_WAIT_MS);
    CHECK_JSON_EQ(state, "notice.kind", "restored");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);

    int matched = 0;
    char *report = NULL;
    CHECK_STATUS(cinematic_replay(path, &matched, &report), CINEMATIC_OK);
    h_wire_log("replay", NULL, report);
    CHECK_MSG(matched == 1, "the app session did not replay: %.1500s", report ? report : "(null)");
    CHECK_JSON_EQ(report, "complete", "true");
    CHECK(json_int(report, "states", 0) >= 10);
    cinematic_free(report);
    remove_tempdir(dir);
}

/* ---- the state file ---------------------------------------------------------------------- */

static void test_state_file_saved_after_quiet(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/app.json", dir);
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = open_app_with_file(rt, path);
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"favorites\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 999), CINEMATIC_OK);
    h_sleep_ms(100); /* a save before 1 s of quiet would show up here */
    CHECK_MSG(!file_exists(path), "saved before the app was quiet for 1 s");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 1), CINEMATIC_OK);
    char *text = CHECK_MSG(wait_file(path, H_WAIT_MS), "not saved after 1 s of quiet on the manual clock") ? read_file(path) : NULL;
    if (text) {
        CHECK_MSG(strncmp(text, "{\"cinematicAppState\":1,", 23) == 0, "the state file: %.300s", text);
        CHECK_JSON_EQ(text, "snapshot.feature", "app");
        CHECK_JSON_EQ(text, "snapshot.data.tab", "favorites");
        free(text);
    }
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    remove_tempdir(dir);
}

static void test_state_file_quiet_counts_from_the_last_change(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/app.json", dir);
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = open_app_with_file(rt, path);
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"favorites\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 300), CINEMATIC_OK);
    /* Back to Search: a change that starts no effect (Discover's loads would change the app
     * again whenever they arrive, and the quiet counts from them). */
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"search\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 800), CINEMATIC_OK);
    h_sleep_ms(100);
    CHECK_MSG(!file_exists(path), "saved 800 ms after the last change");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 200), CINEMATIC_OK); /* 1 s after the last change */
    if (CHECK_MSG(wait_file(path, H_WAIT_MS), "not saved 1 s after the last change (quiet counted from an earlier one?)")) {
        char *text = read_file(path);
        CHECK_JSON_EQ(text, "snapshot.data.tab", "search");
        free(text);
    }
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    remove_tempdir(dir);
}

static int resumed(const char *state, void *ctx) {
    long long id = *(long long *)ctx;
    char tab[16], section[16];
    return json_get(state, "tab", tab, sizeof tab) && strcmp(tab, "discover") == 0 &&
           json_get(state, "section", section, sizeof section) && strcmp(section, "comedy") == 0 &&
           json_int(state, "details[0].movieId", -1) == id && json_int(state, "positions.comedy.selection", -1) == 5;
}

static void test_state_file_resumes_in_another_runtime(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/app.json", dir);
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = open_app_with_file(rt, path);
    send_ok(app, "{\"type\":\"task\"}");
    search_alien(rt, app, app);
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"discover\"}");
    send_ok(app, "{\"type\":\"sectionSelected\",\"section\":\"comedy\"}");
    char *state = wait_json_eq(app, "discover.sections[4].movies.phase", "loaded", H_WAIT_MS);
    CHECK_JSON_EQ(state, "discover.sections[4].section", "comedy");
    long long film = json_int(state, "discover.sections[4].movies.value[5].id", -1);
    cinematic_free(state);
    send_ok(app, "{\"type\":\"moved\",\"list\":\"comedy\",\"selection\":5,\"firstVisible\":2}");
    open_movie(app, film, 1);
    CHECK_STATUS(cinematic_store_close(app), CINEMATIC_OK); /* saves before it returns */
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK(file_exists(path));

    cinematic_runtime *next = open_runtime(CONFIG);
    cinematic_store *again = open_app_with_file(next, path);
    int ok = 0;
    state = wait_state(again, resumed, &film, H_WAIT_MS, &ok);
    CHECK_MSG(ok, "not resumed: %.600s", state ? state : "(null)");
    CHECK_JSON_EQ(state, "positions.comedy.firstVisible", "2");
    CHECK_JSON_EQ(state, "search.query", "alien");
    CHECK_JSON_EQ(state, "notice", "null");
    cinematic_free(state);
    state = wait_json_eq(again, "details[0].detail.phase", "loaded", H_WAIT_MS); /* reloaded, never copied */
    CHECK_JSON_EQ(state, "details[0].detail.phase", "loaded");
    cinematic_free(state);
    state = wait_state(again, results_for, "alien", H_WAIT_MS, &ok);
    CHECK_MSG(ok, "the resumed search never loaded: %.300s", state ? state : "(null)");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(next), CINEMATIC_OK);
    remove_tempdir(dir);
}

/* Opens an app whose state file is `path` (something not ours), checks the stateFile notice,
 * changes the app, lets it be quiet, closes it: what is at path must be as it was. */
static void refused_state_file(const char *path, const char *why) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    long long opened = h_now_ms();
    cinematic_store *app = open_app_with_file(rt, path);
    CHECK_MSG(h_now_ms() - opened < 1000, "%s: opening the app took %lld ms", why, h_now_ms() - opened);
    char *state = wait_json_eq(app, "notice.kind", "stateFile", H_WAIT_MS);
    CHECK_JSON_EQ(state, "notice.kind", "stateFile");
    CHECK_JSON_EQ(state, "tab", "search"); /* a fresh start */
    CHECK_STR_CONTAINS(state, "left unchanged");
    cinematic_free(state);
    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"favorites\"}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 2000), CINEMATIC_OK);
    h_sleep_ms(100);
    long long closing = h_now_ms();
    CHECK_STATUS(cinematic_store_close(app), CINEMATIC_OK);
    CHECK_MSG(h_now_ms() - closing < 1000, "%s: closing the app took %lld ms", why, h_now_ms() - closing);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_state_file_foreign_symlink_fifo_untouched(void) {
    char dir[64], path[128], target[128], link_to[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/app.json", dir);
    snprintf(target, sizeof target, "%s/notes.txt", dir);
    const char *foreign = "{\"notes\":\"mine, not the app's\"}\n";
    const char *notes = "shopping: milk\n";

    write_file(path, foreign);
    refused_state_file(path, "a foreign file");
    char *text = read_file(path);
    CHECK_STR_EQ(text, foreign);
    free(text);
    CHECK_EQ_INT(unlink(path), 0);

    write_file(target, notes);
    CHECK_EQ_INT(symlink(target, path), 0);
    refused_state_file(path, "a symbolic link");
    struct stat st;
    CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
    ssize_t n = readlink(path, link_to, sizeof link_to - 1);
    link_to[n > 0 ? n : 0] = '\0';
    CHECK_STR_EQ(link_to, target);
    text = read_file(target);
    CHECK_STR_EQ(text, notes);
    free(text);
    CHECK_EQ_INT(unlink(path), 0);

    CHECK_EQ_INT(mkfifo(path, 0600), 0);
    alarm(30); /* a FIFO that blocked the test would end it here */
    refused_state_file(path, "a FIFO");
    alarm(0);
    CHECK(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode));
    remove_tempdir(dir);
}

int main(void) {
    RUN_TEST(test_scope_misuse_and_unknown_scopes);
    RUN_TEST(test_child_lifetime);
    RUN_TEST(test_child_state_is_the_parents_part);
    RUN_TEST(test_child_intents_are_the_parents_in_its_history);
    RUN_TEST(test_a_keystroke_patches_only_search);
    RUN_TEST(test_revert_restores_every_part_at_once);
    RUN_TEST(test_a_recorded_app_session_replays);
    RUN_TEST(test_state_file_saved_after_quiet);
    RUN_TEST(test_state_file_quiet_counts_from_the_last_change);
    RUN_TEST(test_state_file_resumes_in_another_runtime);
    RUN_TEST(test_state_file_foreign_symlink_fifo_untouched);
    return TEST_SUMMARY();
}
