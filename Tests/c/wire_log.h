/*
 * wire_log.h: the wire log of the C tests. With CINEMATIC_WIRE_LOG set to a file, every state,
 * error envelope and provider request the tests receive is appended as a JSON line, and
 * `make test-c` validates them all against schema/cinematic.schema.json (tools/wirecheck.py).
 *
 * Part of harness.h (tests include harness.h, which includes this file after what it needs).
 */
#ifndef CINEMATIC_TEST_WIRE_LOG_H
#define CINEMATIC_TEST_WIRE_LOG_H

#ifndef CINEMATIC_TEST_HARNESS_H
#error "include harness.h, which includes this file after what it needs"
#endif

#include <fcntl.h>

#define H_WIRE_STORES 4096
static pthread_mutex_t h_wire_lock = PTHREAD_MUTEX_INITIALIZER;
static cinematic_store *h_wire_handles[H_WIRE_STORES];
static const char *h_wire_features[H_WIRE_STORES];
static int h_wire_count;

/* Remembers which feature a store handle is (for the log; unknown stores log null). */
static inline void h_wire_note(cinematic_store *store, const char *feature) {
    pthread_mutex_lock(&h_wire_lock);
    if (store && h_wire_count < H_WIRE_STORES) {
        h_wire_handles[h_wire_count] = store;
        h_wire_features[h_wire_count++] = feature;
    }
    pthread_mutex_unlock(&h_wire_lock);
}

/* The feature a store handle was noted with (h_wire_note), or NULL. */
static inline const char *h_wire_feature(cinematic_store *store) {
    const char *feature = NULL;
    pthread_mutex_lock(&h_wire_lock);
    for (int i = h_wire_count - 1; i >= 0 && !feature; i--)
        if (h_wire_handles[i] == store) feature = h_wire_features[i];
    pthread_mutex_unlock(&h_wire_lock);
    return feature;
}

/* Appends {"kind":kind,"feature":feature|null,"value":json} with one write (O_APPEND). */
static inline void h_wire_log(const char *kind, const char *feature, const char *json) {
    const char *path = getenv("CINEMATIC_WIRE_LOG");
    if (!path || !*path || !json) return;
    size_t size = strlen(json) + strlen(kind) + (feature ? strlen(feature) : 0) + 64;
    char *line = malloc(size);
    if (!line) return;
    int length = snprintf(line, size, "{\"kind\":\"%s\",\"feature\":%s%s%s,\"value\":%s}\n", kind,
                          feature ? "\"" : "", feature ? feature : "null", feature ? "\"" : "", json);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ssize_t written = write(fd, line, (size_t)length);
        (void)written;
        close(fd);
    }
    free(line);
}

#endif /* CINEMATIC_TEST_WIRE_LOG_H */
