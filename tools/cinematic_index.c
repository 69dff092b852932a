/*
 * cinematic-index: builds a catalog index from a movie file (docs/catalog-index.md), to open
 * with the runtime config {"catalog": {"path": INDEX}} (cinematic_catalog_build_index).
 *
 *   cinematic-index MOVIES.tsv[.gz] INDEX     a movie file of your own
 *   cinematic-index --embedded INDEX          the catalog compiled into the library (make lib)
 *
 * INDEX is written to a temporary file beside it and renamed into place: it holds a whole
 * index or what it held before. Exit status: 0 built; 1 the movie file is unreadable or
 * malformed or past a bound (the message names the line or the bound), or INDEX cannot be
 * written; 2 bad command line (a path that is not UTF-8 among them).
 */
#define _POSIX_C_SOURCE 200809L
#include <cinematic.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int usage(void) {
    fprintf(stderr, "usage: cinematic-index MOVIES.tsv[.gz] INDEX\n       cinematic-index --embedded INDEX\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc != 3 || (argv[1][0] == '-' && strcmp(argv[1], "--embedded") != 0)) return usage();
    const char *movies = strcmp(argv[1], "--embedded") == 0 ? NULL : argv[1];
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int status = cinematic_catalog_build_index(movies, argv[2]);
    clock_gettime(CLOCK_MONOTONIC, &end);
    if (status != CINEMATIC_OK) {
        const char *envelope = cinematic_last_error();
        json_t *error = envelope ? json_loads(envelope, 0, NULL) : NULL;
        const char *message = error ? json_string_value(json_object_get(error, "message")) : NULL;
        fprintf(stderr, "cinematic-index: %s\n", message ? message : (envelope ? envelope : cinematic_status_name(status)));
        json_decref(error);
        return status == CINEMATIC_ERR_IO ? 1 : 2;
    }
    double seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    printf("cinematic-index: %s built in %.2f s\n", argv[2], seconds);
    return 0;
}
