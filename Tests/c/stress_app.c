/*
 * The app store under races: child handles and the state file.
 *
 * Thread S types and pages through a "search" child handle and opens and closes Details on
 * the parent, as fast as it can. Thread O opens child handles of every scope, observes each
 * (whole or patched), and closes the child, or the whole app store, in a loop: a callback of
 * a child must never run after that child's (or its parent's) close returned, and a call on
 * a closed child must say CINEMATIC_ERR_CLOSED, never crash. Thread C advances the manual
 * clock, so the app's state file is saved again and again while the other threads change
 * the app and close it (each close writes its last save). The watchdog fails any thread
 * that stops making progress; at the end the state file is a whole state file of ours.
 */
#include "stress.h"

static cinematic_runtime *rt;
static char state_file[128];
static cinematic_store *_Atomic app;
static pthread_mutex_t app_lock = PTHREAD_MUTEX_INITIALIZER;

/* One observed child: its callback checks it is not closed yet. */
typedef struct watched {
    atomic_int closed;
    atomic_long calls;
    struct watched *next;   /* every one made, freed once the runtime is closed */
} watched;

static watched *all_watched;   /* written by the observer thread only */

static void on_child_state(void *userdata, cinematic_store *store, const char *json) {
    (void)store;
    watched *w = userdata;
    CHECK_MSG(!atomic_load(&w->closed), "a child's callback ran after its close returned");
    CHECK_MSG(json != NULL && json_valid(json), "a child's state is not JSON");
    atomic_fetch_add(&w->calls, 1);
}

/* The current app store, opened anew when another thread closed it. */
static cinematic_store *current_app(void) {
    pthread_mutex_lock(&app_lock);
    if (!atomic_load(&app)) {
        char args[256];
        snprintf(args, sizeof args, "{\"stateFile\":\"%s\"}", state_file);
        cinematic_store *fresh = NULL;
        CHECK_STATUS(cinematic_store_open(rt, "app", args, &fresh), CINEMATIC_OK);
        CHECK_STATUS(cinematic_store_send(fresh, "{\"type\":\"task\"}"), CINEMATIC_OK);
        atomic_store(&app, fresh);
    }
    cinematic_store *store = atomic_load(&app);
    pthread_mutex_unlock(&app_lock);
    return store;
}

static void *searcher(void *unused) {
    (void)unused;
    static const char *queries[] = {"alien", "alie", "dune", "godfather", "star wars"};
    for (long round = 0; stress_running(); round++) {
        cinematic_store *store = current_app(), *search = NULL;
        int status = cinematic_store_scope(store, "search", &search);
        CHECK_MSG(status == CINEMATIC_OK || status == CINEMATIC_ERR_CLOSED, "scope: %d", status);
        if (status == CINEMATIC_OK) {
            char intent[96];
            snprintf(intent, sizeof intent, "{\"type\":\"queryChanged\",\"query\":\"%s\"}", queries[round % 5]);
            status = cinematic_store_send(search, intent);
            CHECK_MSG(status == CINEMATIC_OK || status == CINEMATIC_ERR_CLOSED, "child send: %d", status);
            status = cinematic_store_send(store, round % 3 ? "{\"type\":\"opened\",\"movieId\":15249}" : "{\"type\":\"back\"}");
            CHECK_MSG(status == CINEMATIC_OK || status == CINEMATIC_ERR_CLOSED, "send: %d", status);
            status = cinematic_store_close(search);
            CHECK_MSG(status == CINEMATIC_OK || status == CINEMATIC_ERR_CLOSED, "child close: %d", status);
        }
        stress_tick(0);
    }
    stress_finish(0);
    return NULL;
}

static void *observer(void *unused) {
    (void)unused;
    static const char *scopes[] = {"search", "discover", "favorites", "detail"};
    for (long round = 0; stress_running(); round++) {
        cinematic_store *store = current_app(), *child = NULL;
        /* Kept until the runtime is closed: a late callback finds its own, closed. */
        watched *w = calloc(1, sizeof *w);
        w->next = all_watched;
        all_watched = w;
        int status = cinematic_store_scope(store, scopes[round % 4], &child);
        if (status == CINEMATIC_OK) {
            status = (round & 4 ? cinematic_store_observe_patches : cinematic_store_observe)(child, on_child_state, w);
            CHECK_MSG(status == CINEMATIC_OK || status == CINEMATIC_ERR_CLOSED, "observe: %d", status);
            if (round % 7 == 0) {
                /* Close the parent: the child closes with it. */
                pthread_mutex_lock(&app_lock);
                if (atomic_load(&app) == store) {
                    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
                    atomic_store(&app, NULL);
                }
                pthread_mutex_unlock(&app_lock);
                atomic_store(&w->closed, 1);
                char *state = NULL;
                CHECK_STATUS(cinematic_store_state(child, &state), CINEMATIC_ERR_CLOSED);
                CHECK_STATUS(cinematic_store_close(child), CINEMATIC_ERR_CLOSED);
            } else {
                status = cinematic_store_close(child);
                CHECK_MSG(status == CINEMATIC_OK || status == CINEMATIC_ERR_CLOSED, "child close: %d", status);
                atomic_store(&w->closed, 1);
            }
        }
        stress_tick(1);
    }
    stress_finish(1);
    return NULL;
}

static void *clock_thread(void *unused) {
    (void)unused;
    while (stress_running()) {
        CHECK_STATUS(cinematic_runtime_advance_clock(rt, 400), CINEMATIC_OK);
        stress_tick(2);
    }
    stress_finish(2);
    return NULL;
}

static void test_children_and_saves_racing_closes(void) {
    char dir[64], config[256];
    make_tempdir(dir, sizeof dir);
    snprintf(state_file, sizeof state_file, "%s/app-state.json", dir);
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"favorites\":\"%s/favorites.sqlite\"}", dir);
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_OK);
    static const char *const names[] = {"searcher", "observer", "clock"};
    stress_begin(3, names);
    pthread_t threads[3];
    pthread_create(&threads[0], NULL, searcher, NULL);
    pthread_create(&threads[1], NULL, observer, NULL);
    pthread_create(&threads[2], NULL, clock_thread, NULL);
    for (int i = 0; i < 3; i++) pthread_join(threads[i], NULL);
    stress_end();
    printf("  %ld searches, %ld child handles, %ld clock advances\n", stress_rounds(0), stress_rounds(1), stress_rounds(2));
    if (atomic_load(&app)) CHECK_STATUS(cinematic_store_close(atomic_load(&app)), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    while (all_watched) {
        watched *next = all_watched->next;
        free(all_watched);
        all_watched = next;
    }
    FILE *f = fopen(state_file, "rb");
    char text[1 << 16] = {0};
    if (CHECK_MSG(f != NULL, "the state file was written")) {
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        CHECK_MSG(n > 0 && strncmp(text, "{\"cinematicAppState\":1,", 23) == 0 && json_valid(text), "a whole state file: %.80s", text);
    }
}

int main(void) {
    RUN_TEST(test_children_and_saves_racing_closes);
    return TEST_SUMMARY();
}
