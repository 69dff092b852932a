/*
 * cinematic-patches: a C host that keeps a store's state current from patches.
 *
 *   build/bin/cinematic-patches [PAGES]
 *
 * Opens Discover on the embedded catalog, observes it in patch mode
 * (cinematic_store_observe_patches), loads every section, then pages the Comedy section PAGES
 * times (default 10). Each delivery is applied to a jansson tree (json_patch.h): the first is
 * the whole state, each later one an RFC 6902 patch. At the end the tree is compared with
 * cinematic_store_state. Prints, per page, the bytes the patch took against the whole state's.
 * Exits 0 when the tree and the state agree, 1 otherwise.
 */
#include <cinematic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_patch.h"

/* The host's copy of the state. Deliveries of one runtime never overlap (header: DELIVERY),
 * but they run on a library thread while main reads: a mutex guards the tree. */
typedef struct {
    pthread_mutex_t lock;
    json_t *state;
    long long seq;
    size_t last_bytes;
    int broken;
} host_state;

static void on_delivery(void *userdata, cinematic_store *store, const char *envelope_json) {
    (void)store;
    host_state *host = userdata;
    json_t *envelope = json_loads(envelope_json, 0, NULL);
    pthread_mutex_lock(&host->lock);
    host->last_bytes = strlen(envelope_json);
    long long seq = json_integer_value(json_object_get(envelope, "seq"));
    json_t *whole = json_object_get(envelope, "state");
    if (whole) { /* {"seq":1,"state":{...}}: start over */
        json_decref(host->state);
        host->state = json_deep_copy(whole);
    } else if (seq != host->seq + 1 || !jp_apply(&host->state, json_object_get(envelope, "patch"))) {
        host->broken = 1; /* a real host would observe again to get the whole state */
    }
    host->seq = seq;
    pthread_mutex_unlock(&host->lock);
    json_decref(envelope);
}

static int check(int status, const char *call) {
    if (status != CINEMATIC_OK) fprintf(stderr, "%s: %s: %s\n", call, cinematic_status_name(status), cinematic_last_error());
    return status == CINEMATIC_OK;
}

int main(int argc, char **argv) {
    int pages = argc > 1 ? atoi(argv[1]) : 10;
    host_state host = {.lock = PTHREAD_MUTEX_INITIALIZER};
    cinematic_runtime *rt = NULL;
    cinematic_store *discover = NULL;
    if (!check(cinematic_runtime_open(NULL, &rt), "cinematic_runtime_open")) return 1;
    if (!check(cinematic_store_open(rt, "discover", NULL, &discover), "cinematic_store_open") ||
        !check(cinematic_store_observe_patches(discover, on_delivery, &host), "cinematic_store_observe_patches") ||
        !check(cinematic_store_send(discover, "{\"type\":\"task\"}"), "cinematic_store_send") ||
        !check(cinematic_store_settle(discover, 30000), "cinematic_store_settle"))
        return 1;
    for (int page = 2; page <= pages + 1; page++) {
        if (!check(cinematic_store_send(discover, "{\"type\":\"loadMore\",\"section\":\"comedy\"}"), "cinematic_store_send") ||
            !check(cinematic_store_settle(discover, 30000), "cinematic_store_settle"))
            return 1;
        char *whole = NULL;
        if (!check(cinematic_store_state(discover, &whole), "cinematic_store_state")) return 1;
        pthread_mutex_lock(&host.lock);
        printf("comedy page %3d: last patch %6zu bytes, whole state %7zu bytes\n", page, host.last_bytes, strlen(whole));
        pthread_mutex_unlock(&host.lock);
        cinematic_free(whole);
    }
    /* The tree the patches built is the state, byte for byte. */
    char *whole = NULL;
    if (!check(cinematic_store_state(discover, &whole), "cinematic_store_state")) return 1;
    pthread_mutex_lock(&host.lock);
    char *rebuilt = json_dumps(host.state, JSON_COMPACT | JSON_REAL_PRECISION(15));
    int same = !host.broken && rebuilt && strcmp(rebuilt, whole) == 0;
    printf("%s after %lld deliveries\n", same ? "the patched tree equals cinematic_store_state" : "MISMATCH", host.seq);
    pthread_mutex_unlock(&host.lock);
    free(rebuilt);
    cinematic_free(whole);
    cinematic_store_close(discover);
    cinematic_runtime_close(rt);
    json_decref(host.state);
    return same ? 0 : 1;
}
