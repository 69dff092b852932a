/*
 * Patched delivery (cinematic_store_observe_patches) through the C ABI, over every feature:
 * each delivery's JSON Patch, applied to the state rebuilt so far (json_patch.h, strict),
 * gives exactly what cinematic_store_state returns, byte for byte; patches follow what
 * changed (a page appended is one "add" at ".../-" per new film, a removed favorite one
 * "remove", a heart tap a few "replace"s); sequence numbers have no gaps; observing again
 * starts over with the whole state; a recording made while observing in patch mode replays.
 */
#include "patcher.h"

#define EMBEDDED "{\"clock\":\"manual\"}"

static void settle(cinematic_store *store) { CHECK_STATUS(cinematic_store_settle(store, 10000), CINEMATIC_OK); }

static void test_search_typing_and_paging(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED);
    cinematic_store *store = open_search(rt);
    patcher p;
    patcher_init(&p);
    CHECK_STATUS(cinematic_store_observe_patches(store, patcher_fn, &p), CINEMATIC_OK);
    CHECK_EQ_INT(p.full_states, 1);
    patcher_matches(&p, store, "the first delivery");
    const char *typed[] = {"d", "du", "dun", "dune"};
    for (int i = 0; i < 4; i++) {
        CHECK_STATUS(send_query(store, typed[i]), CINEMATIC_OK);
        CHECK_EQ_INT(last_ops(&p, "replace", "/query", NULL), 1);
    }
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 300), CINEMATIC_OK);
    settle(store);
    patcher_matches(&p, store, "dune loaded");
    CHECK_STATUS(send_query(store, "star"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 300), CINEMATIC_OK);
    settle(store);
    patcher_matches(&p, store, "star loaded");
    for (int page = 2; page <= 4; page++) {
        CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"loadMore\"}"), CINEMATIC_OK);
        settle(store);
        patcher_matches(&p, store, "a page appended");
        int total = 0, adds = last_ops(&p, "add", "/results/value/-", &total);
        CHECK_MSG(adds == 20, "page %d: %d adds at /results/value/- (%.200s)", page, adds, p.last);
        CHECK_MSG(total <= adds + 3, "page %d: %d operations for 20 films", page, total);
        CHECK_EQ_INT(last_ops(&p, "replace", "/results", NULL) + last_ops(&p, "replace", "/results/value", NULL), 0);
    }
    CHECK_STATUS(cinematic_store_observe(store, NULL, NULL), CINEMATIC_OK);
    patcher_destroy(&p);
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_discover_paging_sends_only_new_films(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED);
    cinematic_store *store = open_feature(rt, "discover", NULL);
    patcher p;
    patcher_init(&p);
    CHECK_STATUS(cinematic_store_observe_patches(store, patcher_fn, &p), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"task\"}"), CINEMATIC_OK);
    settle(store);
    patcher_matches(&p, store, "every section loaded");
    size_t patch_bytes = 0, state_bytes = 0;
    for (int page = 2; page <= 30; page++) {
        CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"loadMore\",\"section\":\"comedy\"}"), CINEMATIC_OK);
        settle(store);
        if (!patcher_matches(&p, store, "a comedy page appended")) break;
        int total = 0, adds = last_ops(&p, "add", "/sections/4/movies/value/-", &total);
        CHECK_MSG(adds == 20 && total <= 23, "page %d: %d adds of %d operations (%.200s)", page, adds, total, p.last);
        patch_bytes = p.last_bytes;
        char *state = state_of(store);
        state_bytes = strlen(state);
        cinematic_free(state);
    }
    printf("     discover comedy page 30: a patch of %zu bytes against a state of %zu bytes (%.2f%%)\n", patch_bytes,
           state_bytes, 100.0 * (double)patch_bytes / (double)(state_bytes ? state_bytes : 1));
    CHECK(patch_bytes * 20 < state_bytes);
    /* Observing again starts over with the whole state, numbered 1. */
    CHECK_STATUS(cinematic_store_observe_patches(store, patcher_fn, &p), CINEMATIC_OK);
    CHECK_EQ_INT(p.full_states, 2);
    CHECK_EQ_INT((int)p.seq, 1);
    patcher_matches(&p, store, "observed again");
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"refresh\"}"), CINEMATIC_OK);
    settle(store);
    patcher_matches(&p, store, "refreshed");
    CHECK_STATUS(cinematic_store_observe(store, NULL, NULL), CINEMATIC_OK);
    patcher_destroy(&p);
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* Waits until the rebuilt favorites list has n films. */
static int wait_favorites(patcher *p, int n) {
    for (int waited = 0; waited < 5000; waited += 5) {
        pthread_mutex_lock(&p->lock);
        json_t *value = json_object_get(json_object_get(p->doc, "favorites"), "value");
        int count = value ? (int)json_array_size(value) : -1;
        pthread_mutex_unlock(&p->lock);
        if (count == n) return 1;
        h_sleep_ms(5);
    }
    return CHECK_MSG(0, "the patched favorites never had %d films", n);
}

static void test_favorites_and_hearts(void) {
    cinematic_runtime *rt = open_runtime(EMBEDDED);
    cinematic_store *favorites = open_feature(rt, "favorites", NULL);
    patcher list, heart;
    patcher_init(&list);
    patcher_init(&heart);
    CHECK_STATUS(cinematic_store_observe_patches(favorites, patcher_fn, &list), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"task\"}"), CINEMATIC_OK);
    CHECK(wait_favorites(&list, 0));
    const long long ids[] = {15249, 1, 2, 3};
    for (int i = 0; i < 4; i++) {
        cinematic_store *detail = open_detail(rt, ids[i]);
        if (i == 0) {
            CHECK_STATUS(cinematic_store_observe_patches(detail, patcher_fn, &heart), CINEMATIC_OK);
            patcher_matches(&heart, detail, "detail observed");
        }
        CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
        CHECK(wait_favorites(&list, i + 1)); /* a detail store observes favorites: it never settles */
        if (i == 0) {
            cinematic_free(wait_json_eq(detail, "isSaving", "false", H_WAIT_MS));
            patcher_matches(&heart, detail, "heart tapped");
            int total = 0;
            CHECK_EQ_INT(last_ops(&heart, "replace", "/detail", &total), 0);
            CHECK_MSG(total <= 2, "a heart tap: %d operations (%.200s)", total, heart.last);
            CHECK_STATUS(cinematic_store_observe(detail, NULL, NULL), CINEMATIC_OK);
        }
        CHECK_STATUS(cinematic_store_close(detail), CINEMATIC_OK);
        /* The first film is appended to an empty list; later ones are inserted on top. */
        CHECK_EQ_INT(last_ops(&list, "add", i == 0 ? "/favorites/value/-" : "/favorites/value/0", NULL), 1);
    }
    patcher_matches(&list, favorites, "four favorites");
    char intent[64];
    snprintf(intent, sizeof intent, "{\"type\":\"removed\",\"movieId\":%lld}", ids[1]);
    CHECK_STATUS(cinematic_store_send(favorites, intent), CINEMATIC_OK);
    CHECK(wait_favorites(&list, 3));
    int total = 0;
    CHECK_MSG(last_ops(&list, "remove", "/favorites/value/2", &total) == 1 && total == 1,
              "one removed favorite is one remove (%.200s)", list.last);
    patcher_matches(&list, favorites, "a favorite removed");
    CHECK_STATUS(cinematic_store_observe(favorites, NULL, NULL), CINEMATIC_OK);
    patcher_destroy(&list);
    patcher_destroy(&heart);
    CHECK_STATUS(cinematic_store_close(favorites), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_a_recording_made_in_patch_mode_replays(void) {
    char dir[64], path[128], config[256];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/session.jsonl", dir);
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"record\":\"%s\"}", path);
    cinematic_runtime *rt = open_runtime(config);
    cinematic_store *store = open_search(rt);
    patcher p;
    patcher_init(&p);
    CHECK_STATUS(cinematic_store_observe_patches(store, patcher_fn, &p), CINEMATIC_OK);
    CHECK_STATUS(send_query(store, "alien"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_advance_clock(rt, 300), CINEMATIC_OK);
    settle(store);
    CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"loadMore\"}"), CINEMATIC_OK);
    settle(store);
    patcher_matches(&p, store, "recorded session");
    CHECK_STATUS(cinematic_store_observe(store, NULL, NULL), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    int matched = 0;
    char *report = NULL;
    CHECK_STATUS(cinematic_replay(path, &matched, &report), CINEMATIC_OK);
    CHECK_MSG(matched == 1, "replay of a session observed in patch mode: %s", report ? report : "NULL");
    cinematic_free(report);
    patcher_destroy(&p);
    remove_tempdir(dir);
}

static void test_bad_handles(void) {
    patcher p;
    patcher_init(&p);
    CHECK_STATUS(cinematic_store_observe_patches(NULL, patcher_fn, &p), CINEMATIC_ERR_MISUSE);
    cinematic_runtime *rt = open_runtime(EMBEDDED);
    cinematic_store *store = open_search(rt);
    CHECK_STATUS(cinematic_store_observe_patches((cinematic_store *)rt, patcher_fn, &p), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_observe_patches(store, patcher_fn, &p), CINEMATIC_ERR_CLOSED);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK_EQ_INT(p.deliveries, 0);
    patcher_destroy(&p);
}

int main(void) {
    RUN_TEST(test_search_typing_and_paging);
    RUN_TEST(test_discover_paging_sends_only_new_films);
    RUN_TEST(test_favorites_and_hearts);
    RUN_TEST(test_a_recording_made_in_patch_mode_replays);
    RUN_TEST(test_bad_handles);
    return TEST_SUMMARY();
}
