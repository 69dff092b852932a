/*
 * The app store's patches, intent by intent (docs/wire.md, "app"): a patch recorder
 * (patcher.h) rebuilds the state from every delivery, and each kind of host intent, top-level
 * and nested, touches only the parts it is documented to change (and /view, which is derived
 * from all of them). A keystroke patches paths under /search, and /positions/search alone when
 * the person had moved in the results (never the whole /positions).
 */
#include "app.h"
#include "patcher.h"

/* Each operation since the mark touched `allowed` (space-separated JSON Pointers: a path is
 * allowed when it is one of them or lies under one), and the rebuilt state is the store's. */
static void touched_only(patcher *p, cinematic_store *app, const char *what, const char *allowed) {
    CHECK_MSG(patcher_caught_up(p, app, H_WAIT_MS), "%s: the patches never caught up with the state", what);
    pthread_mutex_lock(&p->lock);
    CHECK_MSG(p->bad == 0 && p->paths_dropped == 0, "%s: %d bad deliveries (%s)", what, p->bad, p->error);
    for (int i = 0; i < p->path_count; i++) {
        const char *path = strchr(p->paths[i], ' ') + 1;
        int ok = 0;
        char list[256];
        snprintf(list, sizeof list, "/view %s", allowed); /* the view is derived from every part */
        for (char *prefix = strtok(list, " "); prefix && !ok; prefix = strtok(NULL, " ")) {
            size_t n = strlen(prefix);
            ok = strncmp(path, prefix, n) == 0 && (path[n] == '\0' || path[n] == '/');
        }
        CHECK_MSG(ok, "%s: \"%s\" is outside %s", what, p->paths[i], allowed);
    }
    pthread_mutex_unlock(&p->lock);
    patcher_mark(p);
}

/* Whether some operation since the mark is exactly "op path". */
static int touched(patcher *p, const char *op_path) {
    pthread_mutex_lock(&p->lock);
    int found = 0;
    for (int i = 0; i < p->path_count && !found; i++) found = strcmp(p->paths[i], op_path) == 0;
    pthread_mutex_unlock(&p->lock);
    return found;
}

static void wait_for(cinematic_store *app, const char *path, const char *value) {
    char *state = wait_json_eq(app, path, value, H_WAIT_MS);
    CHECK_JSON_EQ(state, path, value);
    cinematic_free(state);
}

static void test_each_app_intent_patches_only_its_parts(void) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    cinematic_store *app = open_feature(rt, "app", NULL);
    patcher p;
    patcher_init(&p);
    CHECK_STATUS(cinematic_store_observe_patches(app, patcher_fn, &p), CINEMATIC_OK);
    patcher_mark(&p);

    send_ok(app, "{\"type\":\"task\"}");
    wait_for(app, "favorites.favorites.phase", "loaded");
    touched_only(&p, app, "task", "/favorites");

    long long third = search_alien(rt, app, app);
    touched_only(&p, app, "typing alien", "/search");
    send_ok(app, "{\"type\":\"moved\",\"list\":\"search\",\"selection\":2,\"firstVisible\":0}");
    touched_only(&p, app, "moved", "/positions/search");

    /* The keystroke after a move: its position goes back to the top, and only it. */
    send_ok(app, "{\"type\":\"queryChanged\",\"query\":\"alie\"}");
    CHECK_MSG(touched(&p, "remove /positions/search"), "the keystroke did not remove /positions/search alone");
    touched_only(&p, app, "a keystroke after a move", "/search /positions/search");
    /* Another query than the shown results' ("alien"): waiting for its results cannot be
     * satisfied by the old ones while its search is still under way (a busy machine). */
    send_ok(app, "{\"type\":\"search\",\"intent\":{\"type\":\"queryChanged\",\"query\":\"love\"}}");
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 250), CINEMATIC_OK);
    wait_for(app, "search.results.query", "love");
    wait_for(app, "search.results.phase", "loaded");
    touched_only(&p, app, "a nested keystroke", "/search");

    send_ok(app, "{\"type\":\"moved\",\"list\":\"search\",\"selection\":25,\"firstVisible\":10}"); /* past the page: loads more */
    wait_for(app, "search.pagesLoaded", "2");
    touched_only(&p, app, "moved past the last row", "/search /positions/search");

    send_movie(app, "opened", third);
    wait_for(app, "details[0].detail.phase", "loaded");
    touched_only(&p, app, "opened", "/details");
    send_ok(app, "{\"type\":\"detail\",\"intent\":{\"type\":\"favoriteToggled\"}}");
    wait_for(app, "details[0].isSaving", "false");
    char id[32];
    snprintf(id, sizeof id, "%lld", third);
    wait_for(app, "favorites.favorites.value[0].id", id);
    touched_only(&p, app, "a heart", "/details /favorites");
    send_ok(app, "{\"type\":\"back\"}");
    touched_only(&p, app, "back", "/details");

    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"discover\"}");
    wait_for(app, "discover.sections[0].movies.phase", "loaded");
    touched_only(&p, app, "tabSelected discover", "/tab /discover");
    send_ok(app, "{\"type\":\"sectionSelected\",\"section\":\"comedy\"}");
    touched_only(&p, app, "sectionSelected", "/section");
    send_ok(app, "{\"type\":\"moved\",\"list\":\"comedy\",\"selection\":3,\"firstVisible\":0}");
    touched_only(&p, app, "moved in comedy", "/positions/comedy");
    /* Comedy's first page may come after Popular's (a busy machine): a loadMore before it is
     * rightly nothing, so the next page is asked for once the first is there. */
    wait_for(app, "discover.sections[4].movies.phase", "loaded");
    send_ok(app, "{\"type\":\"discover\",\"intent\":{\"type\":\"loadMore\",\"section\":\"comedy\"}}");
    wait_for(app, "discover.sections[4].pagesLoaded", "2");
    touched_only(&p, app, "a nested loadMore", "/discover");

    send_ok(app, "{\"type\":\"tabSelected\",\"tab\":\"favorites\"}");
    touched_only(&p, app, "tabSelected favorites", "/tab");
    send_movie(app, "removed", third);
    wait_for(app, "favorites.favorites.value", "[]");
    touched_only(&p, app, "removed", "/favorites /removed /notice");
    send_ok(app, "{\"type\":\"undo\"}");
    wait_for(app, "notice.kind", "restored");
    touched_only(&p, app, "undo", "/favorites /removed /notice");
    send_ok(app, "{\"type\":\"favorites\",\"intent\":{\"type\":\"removed\",\"movieId\":1}}"); /* not a favorite */
    touched_only(&p, app, "a nested removal of no favorite", "/favorites /removed /notice");
    char *state = state_of(app);
    char dismiss[96];
    snprintf(dismiss, sizeof dismiss, "{\"type\":\"noticeDismissed\",\"id\":%lld}", json_int(state, "notice.id", -1));
    cinematic_free(state);
    send_ok(app, dismiss);
    touched_only(&p, app, "noticeDismissed", "/notice");
    send_ok(app, "{\"type\":\"retried\"}");
    touched_only(&p, app, "retried (nothing failed)", "");
    send_ok(app, "{\"type\":\"queryChanged\",\"query\":\"" /* 300 characters: shortened, with a notice */
                 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}");
    touched_only(&p, app, "a long paste", "/search /positions/search /notice");

    CHECK_STATUS(cinematic_store_observe(app, NULL, NULL), CINEMATIC_OK);
    patcher_destroy(&p);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

int main(void) {
    RUN_TEST(test_each_app_intent_patches_only_its_parts);
    return TEST_SUMMARY();
}
