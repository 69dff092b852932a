/*
 * A host built for 0.3.0 (`make abi-check`): compiled against release/0.3.0/cinematic.h and
 * linked against a library exporting 0.3.0's functions under their symbol versions
 * (CINEMATIC_0.2, CINEMATIC_0.3), as 0.3.0 shipped them, then run on today's library. It
 * calls each of the 12 functions new in 0.3.0 and checks 0.3.0's documented answers: an
 * index built from a movie file and searched, the catalog's state, patched deliveries, the
 * app store's child handles, history and time travel, store and runtime snapshots restored,
 * the logger, and a recording that replays to a match.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cinematic.h"

static int failures = 0;

/* Counts and reports a failed expectation. */
static void expect(int condition, const char *what) {
    if (!condition) {
        failures++;
        fprintf(stderr, "abi_host_0_3: FAILED: %s (%s)\n", what, cinematic_last_error() ? cinematic_last_error() : "");
    }
}

/* A store's state (owned here) contains `needle`. */
static int state_has(cinematic_store *store, const char *needle) {
    char *state = NULL;
    int found = cinematic_store_state(store, &state) == CINEMATIC_OK && state && strstr(state, needle) != NULL;
    cinematic_free(state);
    return found;
}

/* Patched deliveries: how many came, and whether the first was the whole state. */
struct deliveries { int count; int first_is_state; };

static void on_patch(void *userdata, cinematic_store *store, const char *json) {
    (void)store;
    struct deliveries *seen = userdata;
    if (seen->count++ == 0) seen->first_is_state = strncmp(json, "{\"seq\":1,\"state\":", 17) == 0;
}

static void on_log(void *userdata, const char *line) {
    (void)line;
    (*(int *)userdata)++;
}

/* cinematic_catalog_build_index and a runtime on the index it wrote. */
static void index_of_a_movie_file(const char *folder) {
    char movies[512], index[512];
    snprintf(movies, sizeof movies, "%s/movies.tsv", folder);
    snprintf(index, sizeof index, "%s/movies.idx", folder);
    FILE *file = fopen(movies, "w");
    if (!file) { expect(0, "write the movie file"); return; }
    fputs("id\ttitle\tyear\tlength\tbudget\trating\tvotes\tr1\tr2\tr3\tr4\tr5\tr6\tr7\tr8\tr9\tr10\tmpaa\tgenres\n"
          "1\tMatrix, The\t1999\t136\t\t8.7\t1000\t4.5\t4.5\t4.5\t4.5\t14.5\t14.5\t14.5\t14.5\t14.5\t14.5\tR\tAction\n"
          "2\tZardoz\t1974\t105\t\t5.8\t50\t4.5\t4.5\t4.5\t4.5\t14.5\t14.5\t14.5\t14.5\t14.5\t14.5\tR\tSci-Fi\n", file);
    fclose(file);
    expect(cinematic_catalog_build_index(movies, NULL) == CINEMATIC_ERR_MISUSE, "build_index: NULL index path is misuse");
    expect(cinematic_catalog_build_index(movies, index) == CINEMATIC_OK, "build_index");
    char config[600];
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":{\"path\":\"%s\"}}", index);
    cinematic_runtime *runtime = NULL;
    expect(cinematic_runtime_open(config, &runtime) == CINEMATIC_OK, "runtime_open on the built index");
    cinematic_store *search = NULL;
    expect(cinematic_store_open(runtime, "search", NULL, &search) == CINEMATIC_OK, "store_open search (index)");
    cinematic_store_send(search, "{\"type\":\"queryChanged\",\"query\":\"matrix\"}");
    cinematic_runtime_advance_clock(runtime, 1000);
    expect(cinematic_store_settle(search, (int64_t)30000) == CINEMATIC_OK, "settle (index)");
    expect(state_has(search, "\"title\":\"The Matrix\""), "the built index finds The Matrix");
    char *catalog = NULL;
    expect(cinematic_runtime_catalog_state(runtime, &catalog) == CINEMATIC_OK && catalog
           && strstr(catalog, "\"phase\":\"loaded\""), "runtime_catalog_state is loaded");
    cinematic_free(catalog);
    cinematic_runtime_close(runtime);
}

/* The app store's child handle, history, time travel and both kinds of snapshot. */
static void app_history_and_snapshots(cinematic_runtime *runtime) {
    cinematic_store *app = NULL, *child = NULL;
    expect(cinematic_store_open(runtime, "app", NULL, &app) == CINEMATIC_OK, "store_open app");
    struct deliveries seen = {0, 0};
    expect(cinematic_store_observe_patches(app, on_patch, &seen) == CINEMATIC_OK, "store_observe_patches");
    expect(seen.count >= 1 && seen.first_is_state, "the first patched delivery is the whole state");
    cinematic_store *nowhere = NULL;
    expect(cinematic_store_scope(app, "nowhere", &nowhere) == CINEMATIC_ERR_INVALID, "store_scope: an unknown scope is invalid");
    expect(cinematic_store_scope(app, "search", &child) == CINEMATIC_OK, "store_scope search");
    expect(cinematic_store_send(child, "{\"type\":\"queryChanged\",\"query\":\"dune\"}") == CINEMATIC_OK, "send through the child");
    cinematic_runtime_advance_clock(runtime, 1000);
    expect(cinematic_store_settle(app, (int64_t)30000) == CINEMATIC_OK, "settle app");
    expect(state_has(child, "\"title\":\"Dune\""), "the child shows Dune");
    expect(seen.count >= 2, "the query was delivered as a patch");
    char *history = NULL;
    expect(cinematic_store_history(app, &history) == CINEMATIC_OK && history && strstr(history, "\"seq\":1"), "store_history");
    cinematic_free(history);
    expect(cinematic_store_revert(app, 999999) == CINEMATIC_ERR_INVALID, "revert to an unknown seq is invalid");
    expect(cinematic_store_revert(app, 1) == CINEMATIC_OK, "revert to seq 1");
    expect(!state_has(child, "\"title\":\"Dune\""), "time travel took Dune away");
    char *snapshot = NULL;
    expect(cinematic_store_snapshot(app, &snapshot) == CINEMATIC_OK && snapshot, "store_snapshot");
    cinematic_store *restored = NULL;
    expect(snapshot && cinematic_store_restore(runtime, snapshot, &restored) == CINEMATIC_OK, "store_restore");
    cinematic_free(snapshot);
    char *whole = NULL;
    expect(cinematic_runtime_snapshot(runtime, &whole) == CINEMATIC_OK && whole && strstr(whole, "\"stores\""), "runtime_snapshot");
    cinematic_runtime *second = NULL;
    expect(cinematic_runtime_open("{\"clock\":\"manual\"}", &second) == CINEMATIC_OK, "runtime_open (second)");
    cinematic_store **stores = NULL;
    int count = 0;
    expect(whole && cinematic_runtime_restore(second, whole, &stores, &count) == CINEMATIC_OK && count == 2, "runtime_restore: 2 stores");
    cinematic_free(stores);
    cinematic_free(whole);
    cinematic_runtime_close(second);
    cinematic_store_close(restored);
    cinematic_store_close(child);
    cinematic_store_close(app);
}

int main(void) {
    printf("abi_host_0_3: built for %s, running on %s\n", CINEMATIC_VERSION, cinematic_version());
    char folder[] = "/tmp/abi-host-0-3-XXXXXX";
    if (!mkdtemp(folder)) { perror("mkdtemp"); return 2; }
    index_of_a_movie_file(folder);
    char recording[600], config[700];
    snprintf(recording, sizeof recording, "%s/session.jsonl", folder);
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"history\":50,\"record\":\"%s\"}", recording);
    cinematic_runtime *runtime = NULL;
    expect(cinematic_runtime_open(config, &runtime) == CINEMATIC_OK, "runtime_open recording");
    int lines = 0;
    expect(cinematic_runtime_set_logger(runtime, on_log, &lines) == CINEMATIC_OK, "runtime_set_logger");
    app_history_and_snapshots(runtime);
    expect(lines > 0, "the logger received lines");
    expect(cinematic_runtime_set_logger(runtime, NULL, NULL) == CINEMATIC_OK, "runtime_set_logger NULL");
    expect(cinematic_runtime_close(runtime) == CINEMATIC_OK, "runtime_close completes the recording");
    int matched = 0;
    char *report = NULL;
    expect(cinematic_replay(recording, &matched, &report) == CINEMATIC_OK && matched == 1, "replay matches");
    if (!matched && report) fprintf(stderr, "abi_host_0_3: replay report: %.400s\n", report);
    cinematic_free(report);
    expect(cinematic_replay(NULL, NULL, NULL) == CINEMATIC_ERR_MISUSE, "replay NULL path is misuse");
    char command[700];
    snprintf(command, sizeof command, "rm -rf '%s'", folder);
    if (system(command) != 0) fprintf(stderr, "abi_host_0_3: could not remove %s\n", folder);
    printf("abi_host_0_3: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
