/*
 * A small RFC 6902 JSON Patch applier (add, remove, replace; RFC 6901 pointers) over jansson:
 * what a C host needs to keep a state current from cinematic_store_observe_patches
 * (examples/c/cinematic_patches.c), also used by Tests/c/test_patches.c. Strict: a path that
 * does not exist (or an index out of range) fails the patch, so a wrong patch cannot pass
 * unnoticed. Header-only; copy it into your program.
 */
#ifndef CINEMATIC_TEST_JSON_PATCH_H
#define CINEMATIC_TEST_JSON_PATCH_H

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The next reference token of `*pointer` (unescaped into buf); 0 at the end. */
static inline int jp_token(const char **pointer, char *buf, size_t size) {
    const char *p = *pointer;
    if (*p != '/') return 0;
    p++;
    size_t n = 0;
    while (*p && *p != '/' && n + 1 < size) {
        if (p[0] == '~' && p[1] == '0') { buf[n++] = '~'; p += 2; }
        else if (p[0] == '~' && p[1] == '1') { buf[n++] = '/'; p += 2; }
        else buf[n++] = *p++;
    }
    buf[n] = '\0';
    *pointer = p;
    return 1;
}

/* A decimal array index ("0", "12"; not "-", not "01"), or -1. */
static inline long jp_index(const char *token) {
    if (!*token || (token[0] == '0' && token[1])) return -1;
    char *end;
    long index = strtol(token, &end, 10);
    return *end || index < 0 ? -1 : index;
}

/* Applies one operation to *doc (the root may be replaced). Returns 1 on success. */
static inline int jp_apply_op(json_t **doc, json_t *op) {
    const char *kind = json_string_value(json_object_get(op, "op"));
    const char *path = json_string_value(json_object_get(op, "path"));
    json_t *value = json_object_get(op, "value");
    if (!kind || !path) return 0;
    if (!*path) { /* the whole document */
        if (strcmp(kind, "remove") == 0 || !value) return 0;
        json_decref(*doc);
        *doc = json_deep_copy(value);
        return 1;
    }
    /* Walk to the parent of the last token. */
    json_t *parent = *doc;
    char token[512], last[512];
    const char *p = path;
    if (!jp_token(&p, last, sizeof last)) return 0;
    while (jp_token(&p, token, sizeof token)) {
        json_t *child;
        if (json_is_object(parent)) child = json_object_get(parent, last);
        else if (json_is_array(parent)) { long i = jp_index(last); child = i < 0 ? NULL : json_array_get(parent, (size_t)i); }
        else child = NULL;
        if (!child) return 0;
        parent = child;
        memcpy(last, token, sizeof last);
    }
    if (strcmp(kind, "add") == 0 || strcmp(kind, "replace") == 0) {
        if (!value) return 0;
        json_t *copy = json_deep_copy(value);
        if (json_is_object(parent)) {
            if (strcmp(kind, "replace") == 0 && !json_object_get(parent, last)) { json_decref(copy); return 0; }
            return json_object_set_new(parent, last, copy) == 0;
        }
        if (!json_is_array(parent)) { json_decref(copy); return 0; }
        if (strcmp(kind, "add") == 0 && strcmp(last, "-") == 0) return json_array_append_new(parent, copy) == 0;
        long i = jp_index(last);
        size_t size = json_array_size(parent);
        if (strcmp(kind, "add") == 0) {
            if (i < 0 || (size_t)i > size) { json_decref(copy); return 0; }
            return json_array_insert_new(parent, (size_t)i, copy) == 0;
        }
        if (i < 0 || (size_t)i >= size) { json_decref(copy); return 0; }
        return json_array_set_new(parent, (size_t)i, copy) == 0;
    }
    if (strcmp(kind, "remove") == 0) {
        if (value) return 0;
        if (json_is_object(parent)) return json_object_del(parent, last) == 0;
        long i = jp_index(last);
        return json_is_array(parent) && i >= 0 && json_array_remove(parent, (size_t)i) == 0;
    }
    return 0;
}

/* Applies a patch (an array of operations) to *doc. Returns 1 when every operation applied. */
static inline int jp_apply(json_t **doc, json_t *patch) {
    if (!json_is_array(patch)) return 0;
    size_t i;
    json_t *op;
    json_array_foreach(patch, i, op) {
        if (!jp_apply_op(doc, op)) return 0;
    }
    return 1;
}

#endif /* CINEMATIC_TEST_JSON_PATCH_H */
