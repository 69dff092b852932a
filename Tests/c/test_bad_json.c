/*
 * Bad JSON of every kind gets a status and an envelope, never a crash, and the runtime and its
 * stores keep working afterwards: malformed documents, invalid UTF-8, inputs past the size and
 * depth limits, top-level scalars (well-formed, so invalid rather than JSON errors).
 */
#include "bad_input.h"

/* depth nested arrays, empty inside. */
static char *nested_arrays(int depth) {
    char *text = malloc((size_t)depth * 2 + 1);
    memset(text, '[', (size_t)depth);
    memset(text + depth, ']', (size_t)depth);
    text[depth * 2] = '\0';
    return text;
}

static void test_malformed_json(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    CHECK_BAD_INTENT(store, "{\"type\":\"queryChanged\",\"query\":}", CINEMATIC_ERR_JSON);
    CHECK_ENVELOPE_CONTAINS("\"line\":1");
    CHECK(json_int(h_envelope, "column", -1) > 0);
    CHECK_ENVELOPE_CONTAINS("malformed JSON");
    CHECK_STR_LACKS(h_envelope, "\"path\"");
    CHECK_STORE_WORKS(store);
    /* Line and column point at the problem. */
    CHECK_BAD_INTENT(store, "{\n  \"type\": \"submitted\",\n  oops\n}", CINEMATIC_ERR_JSON);
    CHECK_EQ_INT(json_int(h_envelope, "line", -1), 3);
    CHECK(json_int(h_envelope, "column", -1) >= 3);
    CHECK_STORE_WORKS(store);
    const char *bad[] = {
        "",                                                   /* empty */
        "   \n\t ",                                           /* whitespace only */
        "{",                                                  /* truncated */
        "{\"type\":\"submitted\"",                            /* truncated */
        "{\"type\":\"submitted\",}",                          /* trailing comma */
        "{'type':'submitted'}",                               /* single quotes */
        "{type:\"submitted\"}",                               /* bare key */
        "{\"type\":\"submitted\"} x",                         /* trailing garbage */
        "{\"type\":\"submitted\"}{}",                         /* two documents */
        "{\"type\":\"queryChanged\",\"query\":\"du\",\"x\":NaN}", /* not JSON numbers */
        "{\"type\":\"queryChanged\",\"query\":\"a\\u0000b\"}", /* NUL escape */
        "{\"type\":\"queryChanged\",\"query\":\"du\",\"query\":\"dune\"}", /* duplicate key */
        "{\"type\":\"queryChanged\",\"query\":\"\\ud800\"}",   /* lone surrogate escape */
        "{\"type\":\"queryChanged\",\"query\":\"\\x41\"}",     /* bad escape */
        "{\"type\":\"queryChanged\",\"query\":\"tab\there\"}", /* raw control character */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_BAD_INTENT(store, bad[i], CINEMATIC_ERR_JSON);
        CHECK_ENVELOPE_CONTAINS("\"line\":");
        CHECK_ENVELOPE_CONTAINS("\"column\":");
        CHECK_STORE_WORKS(store);
    }
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_invalid_utf8(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    const char *bad[] = {
        "{\"type\":\"queryChanged\",\"query\":\"\xff\"}",             /* never valid */
        "{\"type\":\"queryChanged\",\"query\":\"du\xc3\"}",           /* truncated sequence */
        "{\"type\":\"queryChanged\",\"query\":\"\xc0\xaf\"}",         /* overlong '/' */
        "{\"type\":\"queryChanged\",\"query\":\"\xed\xa0\x80\"}",     /* encoded surrogate */
        "{\"type\":\"queryChanged\",\"query\":\"\xf4\x90\x80\x80\"}", /* beyond U+10FFFF */
        "{\"type\":\"queryChanged\",\"query\":\"\x80\x80\"}",         /* lone continuations */
        "{\"\xfe\":1}",                                               /* in a key */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_BAD_INTENT(store, bad[i], CINEMATIC_ERR_JSON);
        CHECK_STORE_WORKS(store);
    }
    /* Valid UTF-8 and escapes are accepted and come back intact. */
    CHECK_STATUS(send_query(store, "\\ud83c\\udfac \xe6\x9d\xb1\xe4\xba\xac"), CINEMATIC_OK);
    char *state = state_of(store);
    CHECK_JSON_EQ(state, "query", "\xf0\x9f\x8e\xac \xe6\x9d\xb1\xe4\xba\xac");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_size_and_depth_limits(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    /* Exactly 1 MiB is parsed (its query is then over the 256-character limit: invalid, not
       too large), one byte more is too large. */
    char *text = intent_of_size(MIB);
    CHECK_EQ_INT(strlen(text), MIB);
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$.query\"");
    CHECK_ENVELOPE_CONTAINS("256 characters");
    free(text);
    CHECK_STORE_WORKS(store);
    /* The query limit counts characters, not bytes: 256 four-byte emoji pass, 257 do not. */
    {
        char intent[64 + 257 * 4];
        for (int count = 256; count <= 257; count++) {
            int length = sprintf(intent, "{\"type\":\"queryChanged\",\"query\":\"");
            for (int i = 0; i < count; i++) length += sprintf(intent + length, "\xF0\x9F\x8E\xAC");
            sprintf(intent + length, "\"}");
            CHECK_STATUS(cinematic_store_send(store, intent), count == 256 ? CINEMATIC_OK : CINEMATIC_ERR_INVALID);
        }
        char *state = state_of(store);
        CHECK(state && strstr(state, "\xF0\x9F\x8E\xAC") != NULL);
        cinematic_free(state);
    }
    CHECK_STORE_WORKS(store);
    text = intent_of_size(MIB + 1);
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_TOO_LARGE);
    free(text);
    CHECK_STORE_WORKS(store);
    /* Far larger, and larger but malformed: size is checked first. */
    text = intent_of_size(8 * MIB);
    text[40] = '\xff';
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_TOO_LARGE);
    CHECK_STATUS(cinematic_runtime_open(text, &(cinematic_runtime *){NULL}), CINEMATIC_ERR_TOO_LARGE);
    cinematic_store *other = NULL;
    CHECK_STATUS(cinematic_store_open(rt, "search", text, &other), CINEMATIC_ERR_TOO_LARGE);
    CHECK(other == NULL);
    free(text);
    CHECK_STORE_WORKS(store);

    /* Deep nesting: 100000 '[' (unterminated) and 2049 levels are malformed; 2048 levels are
     * well-formed (and then not an intent). */
    text = malloc(100001);
    memset(text, '[', 100000);
    text[100000] = '\0';
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_JSON);
    free(text);
    text = nested_arrays(100000);
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_JSON);
    free(text);
    text = nested_arrays(2049);
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_JSON);
    free(text);
    text = nested_arrays(2048);
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("\"path\":\"$\"");
    free(text);
    /* Deep inside an intent: an unknown member is reported, too deep is malformed. */
    text = malloc(4 * 100000 + 64);
    strcpy(text, "{\"type\":\"submitted\",\"x\":");
    size_t n = strlen(text);
    for (int i = 0; i < 100000; i++) text[n++] = '[';
    text[n] = '\0';
    CHECK_BAD_INTENT(store, text, CINEMATIC_ERR_JSON);
    free(text);
    CHECK_STORE_WORKS(store);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* A top-level scalar is a well-formed JSON document (RFC 8259), so by the header's rule
 * ("A well-formed document that is not a valid intent, config or argument gives
 * CINEMATIC_ERR_INVALID naming the offending path") it is invalid at "$", not malformed. */
static void test_top_level_scalars_are_invalid_not_json(void) {
    const char *scalars[] = {"null", "42", "true", "\"queryChanged\"", " 1.5 "};
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = open_search(rt);
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        CHECK_BAD_INTENT(store, scalars[i], CINEMATIC_ERR_INVALID);
        if (i == 0) CHECK_ENVELOPE_CONTAINS("\"path\":\"$\"");
        cinematic_runtime *other = NULL;
        CHECK_STATUS(cinematic_runtime_open(scalars[i], &other), CINEMATIC_ERR_INVALID);
        cinematic_store *out = NULL;
        CHECK_STATUS(cinematic_store_open(rt, "search", scalars[i], &out), CINEMATIC_ERR_INVALID);
        CHECK_STORE_WORKS(store);
    }
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

int main(void) {
    RUN_TEST(test_malformed_json);
    RUN_TEST(test_invalid_utf8);
    RUN_TEST(test_size_and_depth_limits);
    RUN_TEST(test_top_level_scalars_are_invalid_not_json);
    return TEST_SUMMARY();
}
