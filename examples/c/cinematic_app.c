/*
 * cinematic-app: the whole movie app driven through the C API, the way a host drives it:
 * it renders the "app" store's states and turns what the person does into intents; the
 * navigation, the favorites undo and the notices are the library's (include/cinematic/store.h,
 * THE APP; docs/wire.md, "app").
 *
 *   cinematic-app      searches "alien" (through a child handle of the Search part), opens the
 *                      third result, hearts it, goes back, goes to Favorites, removes it and
 *                      undoes that, printing a line per step from the states it receives
 *
 * The embedded catalog, a favorites file in a temporary directory (removed at the end) and
 * a manual clock (the search debounce passes when the clock is advanced). Exits 1 when an
 * expected state does not arrive within 10 s.
 *
 * Build: cc cinematic_app.c $(pkg-config --cflags --libs cinematic jansson) -pthread
 */
#define _POSIX_C_SOURCE 200809L
#include <cinematic.h>
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void fail(const char *what, int status) {
    fprintf(stderr, "cinematic-app: %s failed: %s %s\n", what, cinematic_status_name(status),
            cinematic_last_error() ? cinematic_last_error() : "");
    exit(1);
}

#define CHECK(call, what) do { int status_ = (call); if (status_ != CINEMATIC_OK) fail(what, status_); } while (0)

/* The app's latest state, kept by its state callback (a library thread) for main to read. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static json_t *latest;

static void on_state(void *userdata, cinematic_store *store, const char *state_json) {
    (void)userdata, (void)store;
    json_t *state = json_loads(state_json, 0, NULL);
    pthread_mutex_lock(&lock);
    json_decref(latest);
    latest = state;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}

/* The value at a path of members and array indices ("details.-1.detail.phase"; -1: the last). */
static json_t *at(json_t *value, const char *path) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *save = NULL, *key = strtok_r(buf, ".", &save); key && value; key = strtok_r(NULL, ".", &save)) {
        if (json_is_array(value)) {
            long index = strtol(key, NULL, 10);
            value = json_array_get(value, index < 0 ? json_array_size(value) + (size_t)index : (size_t)index);
        } else {
            value = json_object_get(value, key);
        }
    }
    return value;
}

static const char *text_at(json_t *state, const char *path) {
    const char *text = json_string_value(at(state, path));
    return text ? text : "";
}

/* True when the list at path holds the film with id movie_id. */
static int lists(json_t *state, const char *path, json_int_t movie_id) {
    size_t i;
    json_t *movie;
    json_array_foreach(at(state, path), i, movie) if (json_integer_value(json_object_get(movie, "id")) == movie_id) return 1;
    return 0;
}

/* The conditions main waits for, each on a whole app state. */
typedef int (*condition)(json_t *state);
static json_int_t third_id; /* the film opened, hearted, removed and put back */

static int favorites_loaded(json_t *s) { return !strcmp(text_at(s, "favorites.favorites.phase"), "loaded"); }
static int results_loaded(json_t *s) {
    return !strcmp(text_at(s, "search.results.phase"), "loaded") && !strcmp(text_at(s, "search.results.query"), "alien") &&
           json_array_size(at(s, "search.results.value")) >= 3;
}
static int detail_loaded(json_t *s) {
    return json_integer_value(at(s, "details.-1.movieId")) == third_id && !strcmp(text_at(s, "details.-1.detail.phase"), "loaded");
}
static int hearted(json_t *s) {
    return json_is_true(at(s, "details.-1.isFavorite")) && json_is_false(at(s, "details.-1.isSaving")) &&
           lists(s, "favorites.favorites.value", third_id);
}
static int closed_detail(json_t *s) { return json_array_size(at(s, "details")) == 0 && !strcmp(text_at(s, "tab"), "search"); }
static int on_favorites(json_t *s) { return !strcmp(text_at(s, "tab"), "favorites"); }
static int removed(json_t *s) {
    return !lists(s, "favorites.favorites.value", third_id) && lists(s, "removed", third_id) &&
           !strcmp(text_at(s, "notice.kind"), "removed");
}
static int restored(json_t *s) {
    return lists(s, "favorites.favorites.value", third_id) && json_array_size(at(s, "removed")) == 0 &&
           !strcmp(text_at(s, "notice.kind"), "restored");
}

/* Waits (at most 10 s) until the latest state meets ok; returns a reference to it. */
static json_t *wait_for(condition ok, const char *what) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10;
    pthread_mutex_lock(&lock);
    while (!latest || !ok(latest)) {
        if (pthread_cond_timedwait(&changed, &lock, &deadline) == ETIMEDOUT) {
            char *last = latest ? json_dumps(latest, JSON_COMPACT) : NULL;
            fprintf(stderr, "cinematic-app: %s did not arrive within 10 s; the last state: %.2000s\n", what, last ? last : "(none)");
            exit(1);
        }
    }
    json_t *state = json_incref(latest);
    pthread_mutex_unlock(&lock);
    return state;
}

static void send_intent(cinematic_store *store, const char *intent) { CHECK(cinematic_store_send(store, intent), intent); }

static void send_movie(cinematic_store *store, const char *type) {
    char intent[128];
    snprintf(intent, sizeof intent, "{\"type\":\"%s\",\"movieId\":%lld}", type, (long long)third_id);
    send_intent(store, intent);
}

int main(void) {
    char dir[] = "/tmp/cinematic-app-XXXXXX", favorites[64], config[160], path[80];
    if (!mkdtemp(dir)) { perror("cinematic-app: mkdtemp"); return 1; }
    snprintf(favorites, sizeof favorites, "%s/favorites.sqlite", dir);
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"favorites\":\"%s\",\"search\":{\"debounceMs\":250}}", favorites);

    cinematic_runtime *rt = NULL;
    cinematic_store *app = NULL, *search = NULL;
    CHECK(cinematic_runtime_open(config, &rt), "cinematic_runtime_open");
    CHECK(cinematic_store_open(rt, "app", NULL, &app), "cinematic_store_open(app)");
    CHECK(cinematic_store_observe(app, on_state, NULL), "cinematic_store_observe");
    send_intent(app, "{\"type\":\"task\"}");
    json_decref(wait_for(favorites_loaded, "the favorites"));

    /* Search through a child handle of the Search part: its intents go through the app. */
    CHECK(cinematic_store_scope(app, "search", &search), "cinematic_store_scope(search)");
    send_intent(search, "{\"type\":\"queryChanged\",\"query\":\"alien\"}");
    CHECK(cinematic_runtime_advance_clock(rt, 250), "cinematic_runtime_advance_clock");
    json_t *state = wait_for(results_loaded, "the results for \"alien\"");
    char *part_json = NULL;
    CHECK(cinematic_store_state(search, &part_json), "cinematic_store_state(search child)");
    json_t *part = json_loads(part_json, 0, NULL);
    cinematic_free(part_json);
    if (!json_equal(part, at(state, "search"))) { fprintf(stderr, "cinematic-app: the Search child's state is not the app's part\n"); return 1; }
    printf("search \"alien\": %zu results: %s, %s, %s, ...\n", json_array_size(at(part, "results.value")),
           text_at(part, "results.value.0.title"), text_at(part, "results.value.1.title"), text_at(part, "results.value.2.title"));
    third_id = json_integer_value(at(part, "results.value.2.id"));
    json_decref(part);
    json_decref(state);
    CHECK(cinematic_store_close(search), "cinematic_store_close(search child)");

    /* The third result: the person moves onto it and opens it; its Detail is pushed. */
    send_intent(app, "{\"type\":\"moved\",\"list\":\"search\",\"selection\":2,\"firstVisible\":0}");
    send_movie(app, "opened");
    state = wait_for(detail_loaded, "the third result's Detail");
    printf("opened: %s, %lld min, budget $%lld\n", text_at(state, "details.-1.detail.value.title"),
           (long long)json_integer_value(at(state, "details.-1.detail.value.runtime")),
           (long long)json_integer_value(at(state, "details.-1.detail.value.budget")));
    json_decref(state);

    send_intent(app, "{\"type\":\"detail\",\"intent\":{\"type\":\"favoriteToggled\"}}");
    state = wait_for(hearted, "the heart, stored");
    printf("hearted: %s; favorites: %zu\n", text_at(state, "details.-1.listing.title"),
           json_array_size(at(state, "favorites.favorites.value")));
    json_decref(state);

    send_intent(app, "{\"type\":\"back\"}");
    state = wait_for(closed_detail, "the Search tab again");
    printf("back: tab %s, %zu Details open, selection on row %lld\n", text_at(state, "tab"), json_array_size(at(state, "details")),
           (long long)json_integer_value(at(state, "positions.search.selection")));
    json_decref(state);

    send_intent(app, "{\"type\":\"tabSelected\",\"tab\":\"favorites\"}");
    state = wait_for(on_favorites, "the Favorites tab");
    printf("favorites: %s\n", text_at(state, "favorites.favorites.value.0.title"));
    json_decref(state);

    send_movie(app, "removed");
    state = wait_for(removed, "the removal and its notice");
    printf("removed: notice \"%s\"%s; favorites: %zu\n", text_at(state, "notice.text"),
           json_is_true(at(state, "notice.offersUndo")) ? " (undo offered)" : "", json_array_size(at(state, "favorites.favorites.value")));
    json_decref(state);

    send_intent(app, "{\"type\":\"undo\"}");
    state = wait_for(restored, "the undo and its notice");
    printf("undo: notice \"%s\"; favorites: %s\n", text_at(state, "notice.text"), text_at(state, "favorites.favorites.value.0.title"));
    json_decref(state);

    CHECK(cinematic_runtime_close(rt), "cinematic_runtime_close");
    json_decref(latest);
    const char *suffixes[] = {"", "-wal", "-shm", "-journal"};
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        snprintf(path, sizeof path, "%s%s", favorites, suffixes[i]);
        unlink(path);
    }
    rmdir(dir);
    return 0;
}
