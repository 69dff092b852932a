/*
 * json_reader.h: a small JSON reader for the C tests: validation (json_valid) and lookup by
 * path ("results.value[0].title": json_find, json_get, json_int, json_double,
 * json_array_len).
 *
 * Part of harness.h (tests include harness.h, which includes this file after what it needs).
 */
#ifndef CINEMATIC_TEST_JSON_READER_H
#define CINEMATIC_TEST_JSON_READER_H

#ifndef CINEMATIC_TEST_HARNESS_H
#error "include harness.h, which includes this file after what it needs"
#endif

/* p past any JSON whitespace. */
static inline const char *j_ws(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

/* p past one JSON value (at most 256 levels deep), or NULL when there is none. */
static inline const char *j_value(const char *p, int depth);

/* True for a hexadecimal digit. */
static inline int j_hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* p at '"'; returns the character after the closing quote, or NULL. */
static inline const char *j_string(const char *p) {
    if (*p != '"') return NULL;
    p++;
    while (*p != '"') {
        unsigned char c = (unsigned char)*p;
        if (c == '\0' || c < 0x20) return NULL;
        if (c == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++) if (!j_hex(p[i])) return NULL;
                p += 5;
            } else if (*p && strchr("\"\\/bfnrt", *p)) {
                p++;
            } else {
                return NULL;
            }
        } else {
            p++;
        }
    }
    return p + 1;
}

/* p past one JSON number, or NULL. */
static inline const char *j_number(const char *p) {
    if (*p == '-') p++;
    if (*p == '0') p++;
    else if (*p >= '1' && *p <= '9') while (*p >= '0' && *p <= '9') p++;
    else return NULL;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9')) return NULL;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!(*p >= '0' && *p <= '9')) return NULL;
        while (*p >= '0' && *p <= '9') p++;
    }
    return p;
}

static inline const char *j_value(const char *p, int depth) {
    if (depth > 256) return NULL;
    p = j_ws(p);
    switch (*p) {
    case '"': return j_string(p);
    case '{':
        p = j_ws(p + 1);
        if (*p == '}') return p + 1;
        for (;;) {
            p = j_string(j_ws(p));
            if (!p) return NULL;
            p = j_ws(p);
            if (*p != ':') return NULL;
            p = j_value(p + 1, depth + 1);
            if (!p) return NULL;
            p = j_ws(p);
            if (*p == '}') return p + 1;
            if (*p != ',') return NULL;
            p++;
        }
    case '[':
        p = j_ws(p + 1);
        if (*p == ']') return p + 1;
        for (;;) {
            p = j_value(p, depth + 1);
            if (!p) return NULL;
            p = j_ws(p);
            if (*p == ']') return p + 1;
            if (*p != ',') return NULL;
            p++;
        }
    case 't': return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
    case 'f': return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
    case 'n': return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
    default: return j_number(p);
    }
}

/* True when text is one well-formed JSON document. */
static inline int json_valid(const char *text) {
    if (!text) return 0;
    const char *end = j_value(text, 0);
    return end != NULL && *j_ws(end) == '\0';
}

/* Finds the value at path (members separated by '.', array elements as [n]); stores its
 * first character and the character after it. Returns 1 when found. */
static inline int json_find(const char *json, const char *path, const char **start, const char **end) {
    if (!json || !json_valid(json)) return 0;
    const char *p = j_ws(json);
    const char *q = path;
    while (*q) {
        if (*q == '.') q++;
        if (*q == '[') {
            long index = strtol(q + 1, (char **)&q, 10);
            if (*q != ']') return 0;
            q++;
            if (*p != '[') return 0;
            p = j_ws(p + 1);
            if (*p == ']') return 0;
            for (long i = 0; i < index; i++) {
                p = j_ws(j_value(p, 0));
                if (*p != ',') return 0;
                p = j_ws(p + 1);
            }
        } else {
            size_t len = strcspn(q, ".[");
            if (*p != '{') return 0;
            p = j_ws(p + 1);
            if (*p == '}') return 0;
            for (;;) {
                const char *key_end = j_string(p);
                int match = (size_t)(key_end - p - 2) == len && strncmp(p + 1, q, len) == 0;
                p = j_ws(j_ws(key_end) + 1); /* past ':' */
                if (match) break;
                p = j_ws(j_value(p, 0));
                if (*p != ',') return 0;
                p = j_ws(p + 1);
            }
            q += len;
        }
    }
    *start = p;
    *end = j_value(p, 0);
    return 1;
}

/* Copies the raw text of the value at path (strings without their quotes, escapes kept)
 * into buf. Returns 1 when found. */
static inline int json_get(const char *json, const char *path, char *buf, size_t size) {
    const char *start, *end;
    if (size) buf[0] = '\0';
    if (!json_find(json, path, &start, &end)) return 0;
    if (*start == '"') { start++; end--; }
    size_t len = (size_t)(end - start);
    if (len >= size) len = size - 1;
    memcpy(buf, start, len);
    buf[len] = '\0';
    return 1;
}

/* The integer at path, or fallback. */
static inline long long json_int(const char *json, const char *path, long long fallback) {
    char buf[64];
    if (!json_get(json, path, buf, sizeof buf)) return fallback;
    char *end;
    long long value = strtoll(buf, &end, 10);
    return *end == '\0' && end != buf ? value : fallback;
}

/* The number of elements of the array at path, or -1. */
static inline int json_array_len(const char *json, const char *path) {
    const char *start, *end;
    if (!json_find(json, path, &start, &end) || *start != '[') return -1;
    const char *p = j_ws(start + 1);
    if (*p == ']') return 0;
    int count = 1;
    for (;;) {
        p = j_ws(j_value(p, 0));
        if (*p != ',') return count;
        p = j_ws(p + 1);
        count++;
    }
}

/* The number at path, or fallback. */
static inline double json_double(const char *json, const char *path, double fallback) {
    char buf[64];
    if (!json_get(json, path, buf, sizeof buf)) return fallback;
    char *end;
    double value = strtod(buf, &end);
    return *end == '\0' && end != buf ? value : fallback;
}

#endif /* CINEMATIC_TEST_JSON_READER_H */
