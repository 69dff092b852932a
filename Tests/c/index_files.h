/*
 * index_files.h: what the catalog index tests share: a scratch directory, a small index of
 * ours built through the C API, a runtime on an index, its settled states, and the search
 * section's frame as docs/catalog-index.md lays it out ("The search section").
 */
#ifndef CINEMATIC_TEST_INDEX_FILES_H
#define CINEMATIC_TEST_INDEX_FILES_H
#include "harness.h"
#include <string.h>

static char dir[64];

static inline void path_in(char *out, size_t size, const char *name) { snprintf(out, size, "%s/%s", dir, name); }

#define HEADER "id\ttitle\tyear\tlength\tbudget\trating\tvotes\tr1\tr2\tr3\tr4\tr5\tr6\tr7\tr8\tr9\tr10\tmpaa\tgenres\n"
#define FILM(id, title, votes) id "\t" title "\t1999\t100\t\t7.5\t" votes "\t4.5\t4.5\t4.5\t4.5\t14.5\t14.5\t14.5\t14.5\t14.5\t14.5\tPG\tDrama\n"

/* A small index of ours at dir/name. */
static inline void build_index(const char *name, char *out, size_t size) {
    char movies[300];
    path_in(movies, sizeof movies, "films.tsv");
    write_file(movies, HEADER FILM("1", "Matrix, The", "1000") FILM("2", "Zardoz", "50") FILM("3", "Alien", "900")
                       FILM("4", "Aliens", "800") FILM("5", "Dune", "700"));
    path_in(out, size, name);
    CHECK_STATUS(cinematic_catalog_build_index(movies, out), CINEMATIC_OK);
}

static inline int open_catalog(const char *index, cinematic_runtime **rt) {
    char config[700];
    snprintf(config, sizeof config, "{\"catalog\":{\"path\":\"%s\"},\"favorites\":\":memory:\"}", index);
    return cinematic_runtime_open(config, rt);
}

/* The state of a store of feature after intent (owned by the caller): settled, or for a
 * Detail (whose favorites stream never settles) once its phase is loaded or failed. */
static inline char *settled_state(cinematic_runtime *rt, const char *feature, const char *args, const char *intent) {
    cinematic_store *store = NULL;
    CHECK_STATUS(cinematic_store_open(rt, feature, args, &store), CINEMATIC_OK);
    if (intent) CHECK_STATUS(cinematic_store_send(store, intent), CINEMATIC_OK);
    if (strcmp(feature, "search") == 0) CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"submitted\"}"), CINEMATIC_OK);
    char *state = NULL;
    if (strcmp(feature, "detail") != 0) {
        CHECK_STATUS(cinematic_store_settle(store, 20000), CINEMATIC_OK);
        CHECK_STATUS(cinematic_store_state(store, &state), CINEMATIC_OK);
    } else {
        for (int i = 0; i < 4000; i++) {
            CHECK_STATUS(cinematic_store_state(store, &state), CINEMATIC_OK);
            if (!state || strstr(state, "\"detail\":{\"phase\":\"loaded\"") || strstr(state, "\"detail\":{\"phase\":\"failed\"")) break;
            cinematic_free(state);
            state = NULL;
            h_sleep_ms(5);
        }
        CHECK_MSG(state != NULL, "the detail never loaded nor failed");
    }
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
    return state;
}

/* The catalog's state once it stopped loading (owned by the caller). */
static inline char *loaded_catalog_state(cinematic_runtime *rt) {
    char *state = NULL;
    for (int i = 0; i < 2000; i++) {
        CHECK_STATUS(cinematic_runtime_catalog_state(rt, &state), CINEMATIC_OK);
        if (!state || !strstr(state, "\"loading\"")) return state;
        cinematic_free(state);
        state = NULL;
        h_sleep_ms(5);
    }
    return state;
}

/* A runtime on index refuses it while loading: its catalog state fails naming `field`, and
 * every store gets a failed phase, never a crash. */
static inline void check_refused(const char *index, const char *field) {
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(open_catalog(index, &rt), CINEMATIC_OK);
    char *state = loaded_catalog_state(rt);
    if (state) { CHECK_STR_CONTAINS(state, "\"failed\""); CHECK_STR_CONTAINS(state, field); }
    cinematic_free(state);
    state = settled_state(rt, "search", NULL, "{\"type\":\"queryChanged\",\"query\":\"alien\"}");
    if (state) CHECK_STR_CONTAINS(state, "\"failed\"");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* The search section's parts, in table order (docs/catalog-index.md). */
enum { PART_SCALARS = 0, PART_RATINGS = 14, SECTION_HEADER = 32 };

static inline unsigned char *read_whole(const char *path, long *size) {
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)*size);
    CHECK(fread(bytes, 1, (size_t)*size, f) == (size_t)*size);
    fclose(f);
    return bytes;
}

static inline void write_whole(const char *path, const unsigned char *bytes, long size) {
    FILE *f = fopen(path, "wb");
    CHECK(fwrite(bytes, 1, (size_t)size, f) == (size_t)size);
    fclose(f);
}

static inline uint64_t load64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* Where the search section starts in the file (its trailer: the offset, then "CIDXTAIL"). */
static inline long section_of(const unsigned char *bytes, long size) {
    CHECK(size > 16 && memcmp(bytes + size - 8, "CIDXTAIL", 8) == 0);
    return (long)load64(bytes + size - 16);
}

/* A copy of a good index (at dir/name) with `size` bytes of `data` written at `offset` of
 * search-section part `part`. */
static inline void crafted_part(const char *name, int part, long offset, const void *data, size_t size, char *out, size_t out_size) {
    build_index(name, out, out_size);
    long length = 0;
    unsigned char *bytes = read_whole(out, &length);
    if (!bytes) return;
    long section = section_of(bytes, length);
    long start = section + (long)load64(bytes + section + SECTION_HEADER + 16 * part);
    memcpy(bytes + start + offset, data, size);
    write_whole(out, bytes, length);
    free(bytes);
}

#endif
