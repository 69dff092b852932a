/*
 * test_snapshot_limits: what we hand out we take back. The largest runtime snapshot the
 * documented limits allow (include/cinematic/snapshot.h, SNAPSHOTS: 256 stores per runtime, each a
 * Search whose query is at its longest once escaped and whose view is 4096 bytes) is larger
 * than the 1 MiB every other input may be: built through the API, it restores whole into a
 * new runtime. The runtime snapshot limit is exact (a document of that size restores, one
 * byte more is CINEMATIC_ERR_TOO_LARGE naming the limit), other inputs keep 1 MiB, and a
 * runtime never holds more stores than a snapshot may carry.
 */
#include "harness.h"

#define CONFIG "{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":false}"
#define MAX_STORES 256
#define SNAPSHOT_LIMIT (2 << 20)
#define INPUT_LIMIT (1 << 20)

static provider answers;

/* A runtime whose provider holds every request (the restored searches stay loading). */
static cinematic_runtime *open_host(void) {
    cinematic_runtime *rt = open_runtime(CONFIG);
    CHECK_STATUS(cinematic_runtime_set_provider(rt, provider_fn, &answers), CINEMATIC_OK);
    return rt;
}

/* The longest query once JSON-escaped: 256 characters, 1024 UTF-8 bytes. 255 control
 * characters (one byte each, six once escaped: \u0001) and one character of 769 bytes ("a"
 * and 384 combining acute accents: a character may hold any number of marks). As JSON
 * string contents: 255 * 6 + 769 = 2299 bytes. */
static void longest_query(char *out) {
    size_t at = 0;
    for (int i = 0; i < 255; i++) at += (size_t)sprintf(out + at, "\\u0001");
    out[at++] = 'a';
    for (int i = 0; i < 384; i++) { out[at++] = (char)0xCC; out[at++] = (char)0x81; }
    out[at] = 0;
}

/* The largest store snapshot a host can hand us: that query, the largest page count and a
 * view of exactly 4096 bytes ({"pad":"xxx..."}). */
static char *largest_store_snapshot(void) {
    static char query[4096];
    longest_query(query);
    char pad[4096 - 10 + 1];
    memset(pad, 'x', sizeof pad - 1);
    pad[sizeof pad - 1] = 0;
    char *json = malloc(16384);
    snprintf(json, 16384, "{\"format\":1,\"library\":\"%s\",\"feature\":\"search\",\"data\":{\"query\":\"%s\","
             "\"pagesLoaded\":9223372036854775807},\"view\":{\"pad\":\"%s\"}}", cinematic_version(), query, pad);
    return json;
}

/* `json` followed by spaces up to exactly `size` bytes (owned: free). */
static char *padded_to(const char *json, size_t size) {
    char *text = malloc(size + 1);
    memset(text, ' ', size);
    memcpy(text, json, strlen(json));
    text[size] = 0;
    return text;
}

/* Restores `json` (a runtime snapshot) into a new runtime; returns how many stores opened. */
static int restore_into_new_runtime(const char *json, int expected) {
    cinematic_runtime *rt = open_host();
    cinematic_store **stores = NULL;
    int count = -1;
    CHECK_STATUS(cinematic_runtime_restore(rt, json, &stores, &count), expected);
    cinematic_free(stores);
    CHECK_EQ_INT(cinematic_runtime_close(rt), CINEMATIC_OK);
    return count;
}

static void test_the_largest_runtime_snapshot_restores(void) {
    provider_init(&answers, NULL, PROVIDER_HOLD);
    cinematic_runtime *rt = open_host();
    char *store_json = largest_store_snapshot();
    /* The header's arithmetic: 6565 bytes with a library version of 64 bytes. */
    CHECK_EQ_INT(strlen(store_json) - strlen(cinematic_version()) + 64, 6565);
    for (int i = 0; i < MAX_STORES; i++) {
        cinematic_store *store = NULL;
        CHECK_STATUS(cinematic_store_restore(rt, store_json, &store), CINEMATIC_OK);
    }
    cinematic_store *one_more = NULL;   /* a runtime holds no more stores than a snapshot carries */
    CHECK_STATUS(cinematic_store_open(rt, "favorites", NULL, &one_more), CINEMATIC_ERR_MISUSE);
    CHECK_ENVELOPE_CONTAINS("256");
    CHECK_STATUS(cinematic_store_restore(rt, store_json, &one_more), CINEMATIC_ERR_MISUSE);
    CHECK(one_more == NULL);

    char *snapshot = NULL;
    CHECK_STATUS(cinematic_runtime_snapshot(rt, &snapshot), CINEMATIC_OK);
    size_t size = strlen(snapshot);
    printf("  the largest runtime snapshot: %zu bytes (store snapshot given: %zu bytes)\n", size, strlen(store_json));
    CHECK_MSG(size > INPUT_LIMIT, "%zu bytes: no larger than other inputs may be", size);
    CHECK_MSG(size < SNAPSHOT_LIMIT, "%zu bytes: over the runtime snapshot limit", size);
    /* Not in the wire log: the schema's maxLength counts a query's code points (640 here),
     * the library its characters (256), so this query the library accepts and hands back
     * is longer than the schema says a query may be (a known difference, reported). */
    CHECK_EQ_INT(cinematic_runtime_close(rt), CINEMATIC_OK);

    /* What we handed out we take back: every store, its query and view intact. */
    rt = open_host();
    cinematic_store **stores = NULL;
    int count = 0;
    CHECK_STATUS(cinematic_runtime_restore(rt, snapshot, &stores, &count), CINEMATIC_OK);
    CHECK_EQ_INT(count, MAX_STORES);
    char *again = NULL;
    CHECK_STATUS(cinematic_runtime_snapshot(rt, &again), CINEMATIC_OK);
    CHECK(again && strcmp(again, snapshot) == 0);
    cinematic_free(again);
    cinematic_free(stores);
    CHECK_EQ_INT(cinematic_runtime_close(rt), CINEMATIC_OK);

    /* Exactly at the limit (padded with spaces) it restores; one byte more is too large. */
    char *padded = padded_to(snapshot, SNAPSHOT_LIMIT);
    CHECK_EQ_INT(restore_into_new_runtime(padded, CINEMATIC_OK), MAX_STORES);
    free(padded);
    padded = padded_to(snapshot, SNAPSHOT_LIMIT + 1);
    CHECK_EQ_INT(restore_into_new_runtime(padded, CINEMATIC_ERR_TOO_LARGE), 0);
    CHECK_ENVELOPE_CONTAINS("runtime snapshot");
    CHECK_ENVELOPE_CONTAINS("2097152");
    free(padded);
    cinematic_free(snapshot);
    free(store_json);
    provider_destroy(&answers);
}

/* Every other input keeps its 1 MiB: a store snapshot, an intent, a config. */
static void test_other_inputs_keep_their_limit(void) {
    provider_init(&answers, NULL, PROVIDER_HOLD);
    char *store_json = largest_store_snapshot();
    cinematic_runtime *rt = open_host();
    cinematic_store *store = NULL;
    char *padded = padded_to(store_json, INPUT_LIMIT + 1);
    CHECK_STATUS(cinematic_store_restore(rt, padded, &store), CINEMATIC_ERR_TOO_LARGE);
    free(padded);
    padded = padded_to(store_json, INPUT_LIMIT);
    CHECK_STATUS(cinematic_store_restore(rt, padded, &store), CINEMATIC_OK);
    free(padded);
    padded = padded_to("{\"type\":\"submitted\"}", INPUT_LIMIT + 1);
    CHECK_STATUS(cinematic_store_send(store, padded), CINEMATIC_ERR_TOO_LARGE);
    free(padded);
    cinematic_runtime *other = NULL;
    padded = padded_to("{\"clock\":\"manual\"}", INPUT_LIMIT + 1);
    CHECK_STATUS(cinematic_runtime_open(padded, &other), CINEMATIC_ERR_TOO_LARGE);
    free(padded);
    CHECK_EQ_INT(cinematic_runtime_close(rt), CINEMATIC_OK);
    free(store_json);
    provider_destroy(&answers);
}

/* A runtime restore that would take a runtime past 256 stores opens none of them. */
static void test_restore_past_the_store_limit_opens_nothing(void) {
    provider_init(&answers, NULL, PROVIDER_HOLD);
    char *store_json = largest_store_snapshot();
    size_t one = strlen(store_json);
    char *snapshot = malloc(64 + (one + 1) * MAX_STORES);
    size_t at = (size_t)sprintf(snapshot, "{\"format\":1,\"stores\":[");
    for (int i = 0; i < MAX_STORES; i++) at += (size_t)sprintf(snapshot + at, "%s%s", i ? "," : "", store_json);
    sprintf(snapshot + at, "]}");
    cinematic_runtime *rt = open_host();
    cinematic_store *already = open_search(rt);
    cinematic_store **stores = NULL;
    int count = -1;
    CHECK_STATUS(cinematic_runtime_restore(rt, snapshot, &stores, &count), CINEMATIC_ERR_MISUSE);
    CHECK_ENVELOPE_CONTAINS("256");
    CHECK(stores == NULL);
    CHECK_EQ_INT(count, 0);
    char *now = NULL;
    CHECK_STATUS(cinematic_runtime_snapshot(rt, &now), CINEMATIC_OK);
    CHECK_EQ_INT(strlen(now) < 1000, 1);   /* still the one store */
    cinematic_free(now);
    CHECK_STATUS(cinematic_store_close(already), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_restore(rt, snapshot, &stores, &count), CINEMATIC_OK);
    CHECK_EQ_INT(count, MAX_STORES);
    cinematic_free(stores);
    CHECK_EQ_INT(cinematic_runtime_close(rt), CINEMATIC_OK);
    free(snapshot);
    free(store_json);
    provider_destroy(&answers);
}

int main(void) {
    RUN_TEST(test_the_largest_runtime_snapshot_restores);
    RUN_TEST(test_other_inputs_keep_their_limit);
    RUN_TEST(test_restore_past_the_store_limit_opens_nothing);
    return TEST_SUMMARY();
}
