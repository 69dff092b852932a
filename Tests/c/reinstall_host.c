/*
 * A host that keeps using the library for a few seconds (argv[1], default 4): the subject of
 * `make test-reinstall`, which rebuilds and reinstalls the library under it. Installing is
 * atomic (temporary file + rename), so the running host keeps its mapping and exits 0; in
 * 0.1.0 the library was overwritten in place and the host died with SIGSEGV or SIGBUS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cinematic.h"

int main(int argc, char **argv) {
    int seconds = argc > 1 ? atoi(argv[1]) : 4;
    cinematic_runtime *rt = NULL;
    if (cinematic_runtime_open("{\"search\":{\"debounceMs\":0}}", &rt) != CINEMATIC_OK) return 2;
    cinematic_store *search = NULL;
    if (cinematic_store_open(rt, "search", NULL, &search) != CINEMATIC_OK) return 2;
    const char *queries[] = {"{\"type\":\"queryChanged\",\"query\":\"dune\"}",
                             "{\"type\":\"queryChanged\",\"query\":\"alien\"}"};
    time_t until = time(NULL) + seconds;
    long rounds = 0;
    while (time(NULL) < until) {
        if (cinematic_store_send(search, queries[rounds % 2]) != CINEMATIC_OK) return 1;
        if (cinematic_store_settle(search, 5000) != CINEMATIC_OK) return 1;
        char *state = NULL;
        if (cinematic_store_state(search, &state) != CINEMATIC_OK) return 1;
        cinematic_free(state);
        rounds++;
    }
    cinematic_runtime_close(rt);
    printf("reinstall host: %ld searches while the library was rebuilt and reinstalled\n", rounds);
    return 0;
}
