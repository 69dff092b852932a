/*
 * A host built for 0.2.0 (`make abi-check`): compiled against release/0.2.0/cinematic.h and
 * linked against a library exporting 0.2.0's functions without symbol versions, as 0.2.0
 * shipped them (its header probe, tools/abi_probe.py), then run on today's library. It must
 * load (the dynamic linker binds its unversioned references to today's CINEMATIC_0.2
 * symbols), search the embedded catalog and get 0.2.0's documented answers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cinematic.h"

static int failures = 0;

/* Counts and reports a failed expectation. */
static void expect(int condition, const char *what) {
    if (!condition) {
        failures++;
        fprintf(stderr, "abi_host_0_2: FAILED: %s (%s)\n", what, cinematic_last_error() ? cinematic_last_error() : "");
    }
}

int main(void) {
    printf("abi_host_0_2: built for %s, running on %s\n", CINEMATIC_VERSION, cinematic_version());
    cinematic_runtime *runtime = NULL;
    expect(cinematic_runtime_open("{\"clock\":\"manual\"}", &runtime) == CINEMATIC_OK, "runtime_open");
    cinematic_store *store = NULL;
    expect(cinematic_store_open(runtime, "search", NULL, &store) == CINEMATIC_OK, "store_open search");
    expect(cinematic_store_send(store, "{\"type\":\"queryChanged\",\"query\":\"dune\"}") == CINEMATIC_OK, "send queryChanged");
    expect(cinematic_runtime_advance_clock(runtime, 1000) == CINEMATIC_OK, "advance_clock");
    expect(cinematic_store_settle(store, (int64_t)30000) == CINEMATIC_OK, "settle");
    char *state = NULL;
    expect(cinematic_store_state(store, &state) == CINEMATIC_OK && state != NULL, "store_state");
    expect(state && strstr(state, "\"phase\":\"loaded\"") && strstr(state, "\"title\":\"Dune\""), "Dune is found");
    cinematic_free(state);
    /* 0.2.0's documented refusals: an unknown intent is invalid, malformed JSON is json. */
    expect(cinematic_store_send(store, "{\"type\":\"explode\"}") == CINEMATIC_ERR_INVALID, "unknown intent is invalid");
    expect(cinematic_store_send(store, "{") == CINEMATIC_ERR_JSON, "malformed JSON is json");
    expect(strcmp(cinematic_status_name(CINEMATIC_ERR_CLOSED), "closed") == 0, "status names");
    expect(cinematic_store_close(store) == CINEMATIC_OK, "store_close");
    expect(cinematic_runtime_close(runtime) == CINEMATIC_OK, "runtime_close");
    printf("abi_host_0_2: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
