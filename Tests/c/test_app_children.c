/*
 * The app store's child handles through the C API (include/cinematic/store.h, THE APP and
 * cinematic_store_scope; docs/wire.md, "app"): NULLs are misuse, an unknown scope is invalid
 * and names the scopes, a child has none; a child's state is exactly its part of the
 * parent's (the shown Detail: null, then the last of "details"); a part that did not change
 * delivers nothing to its child; a child's intent is the parent's
 * {"type":"search","intent":...} in its history; closing a child stops only it; closing the
 * parent (or the runtime) closes every child; a keystroke's patch on the app touches only
 * /search paths (and a child's patch is relative to its part). Time travel, recordings and
 * the state file are in test_app_history.c and test_app_state_file.c. Every wait is bounded
 * and on something observable.
 */
#include "app.h"

#define SCOPES "scopes: search, discover, favorites, detail"

/* A store's state (owned), without logging it (for the shown Detail, and for byte compares). */
static char *raw_state(cinematic_store *store) {
    char *json = NULL;
    if (cinematic_store_state(store, &json) != CINEMATIC_OK) return NULL;
    return json;
}

/* Waits (bounded) until r's last state is store's current one: an effect's state is the
 * store's at once, its observer's a moment later (the runtime's delivery thread). */
static int wait_delivered(recorder *r, cinematic_store *store) {
    long long deadline = h_now_ms() + H_WAIT_MS;
    for (int same = 0;; h_sleep_ms(1)) {
        char *now = raw_state(store);
        const char *last = recorder_state(r, -1);
        same = now && last && strcmp(now, last) == 0;
        cinematic_free(now);
        if (same || h_now_ms() > deadline) return same;
    }
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
    /* The search child saw each state of its part, the current one last (once delivered). */
    CHECK_MSG(wait_delivered(&search_states, children[0]), "the search child's current state never reached its observer");
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
    /* A barrier, not a pause: states arrive in the order they were produced (one queue for a
     * parent and its children), so once the next search state is in, back's and moved's are. */
    send_ok(app, "{\"type\":\"queryChanged\",\"query\":\"alien 2\"}");
    CHECK(wait_delivered(&search_states, children[0]));
    CHECK_JSON_EQ(recorder_state(&search_states, -1), "query", "alien 2");
    CHECK_EQ_INT(recorder_count(&search_states), search_count + 1);
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
    CHECK_STR_EQ(changed, "[\"search\",\"view\"]"); /* the view is derived from every part */
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
        CHECK_MSG(strncmp(app_log.paths[i], "/search/", 8) == 0 || strncmp(app_log.paths[i], "/view/", 6) == 0,
                  "a keystroke patched %s", app_log.paths[i]);
    pthread_mutex_unlock(&app_log.lock);
    pthread_mutex_lock(&child_log.lock);
    CHECK_EQ_INT(child_log.path_count, 2);
    for (int i = 0; i < child_log.path_count; i++) CHECK_STR_EQ(child_log.paths[i], "/query");
    pthread_mutex_unlock(&child_log.lock);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

int main(void) {
    RUN_TEST(test_scope_misuse_and_unknown_scopes);
    RUN_TEST(test_child_lifetime);
    RUN_TEST(test_child_state_is_the_parents_part);
    RUN_TEST(test_child_intents_are_the_parents_in_its_history);
    RUN_TEST(test_a_keystroke_patches_only_search);
    return TEST_SUMMARY();
}
