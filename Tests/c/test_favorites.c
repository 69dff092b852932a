/*
 * Favorites through the C ABI: Detail's optimistic heart and the Favorites list of one
 * runtime follow each other. Persistence and rapid toggles: test_favorites_persistence.c;
 * rollback when the favorites cannot be written: test_favorites_rollback.c.
 */
#include "favorites.h"

static void test_detail_and_favorites_see_each_other(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\"}"); /* favorites ":memory:" */
    char *state = NULL;
    cinematic_store *favorites = open_favorites(rt, &state);
    CHECK_EQ_INT(json_array_len(state, "favorites.value"), 0);
    cinematic_free(state);

    cinematic_store *detail = open_detail(rt, DUNE);
    state = state_of(detail);
    CHECK_JSON_EQ(state, "movieId", "15249");
    CHECK_JSON_EQ(state, "detail.value.title", "Dune");
    CHECK_JSON_EQ(state, "detail.value.year", "1984");
    CHECK_JSON_EQ(state, "detail.value.budget", "45000000");
    CHECK_EQ_INT(json_array_len(state, "detail.value.ratingDistribution"), 10);
    for (int k = 0; k < 10; k++) {
        char p[64];
        snprintf(p, sizeof p, "detail.value.ratingDistribution[%d]", k);
        double share = json_double(state, p, -1);
        CHECK_MSG(share >= 0 && share <= 100, "%s is %g", p, share);
    }
    CHECK_JSON_EQ(state, "isFavorite", "false");
    cinematic_free(state);

    /* The heart fills at once. */
    CHECK_STATUS(send_toggle(detail), CINEMATIC_OK);
    state = state_of(detail);
    CHECK_JSON_EQ(state, "isFavorite", "true");
    CHECK_JSON_EQ(state, "favoriteError", "null");
    cinematic_free(state);

    /* The favorites store lists Dune (its list fields), once. */
    state = wait_listed(favorites, DUNE, 1);
    CHECK_EQ_INT(count_id(state, DUNE), 1);
    CHECK_EQ_INT(json_array_len(state, "favorites.value"), 1);
    CHECK_JSON_EQ(state, "favorites.value[0].title", "Dune");
    CHECK_JSON_EQ(state, "favorites.value[0].year", "1984");
    CHECK_JSON_EQ(state, "favorites.value[0].genres", "[\"Action\"]");
    CHECK_STR_LACKS(state, "budget");
    cinematic_free(state);
    state = wait_json_eq(detail, "isSaving", "false", H_WAIT_MS);
    CHECK_JSON_EQ(state, "isSaving", "false");
    CHECK_JSON_EQ(state, "isFavorite", "true");
    CHECK_JSON_EQ(state, "favoriteError", "null");
    cinematic_free(state);

    /* Another detail store of the same movie opens with the heart filled. */
    cinematic_store *second = open_detail(rt, DUNE);
    state = wait_json_eq(second, "isFavorite", "true", H_WAIT_MS);
    CHECK_JSON_EQ(state, "isFavorite", "true");
    cinematic_free(state);

    /* Removing it in the favorites store empties the heart of both detail stores. */
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"removed\",\"movieId\":15249}"), CINEMATIC_OK);
    state = wait_json_eq(detail, "isFavorite", "false", H_WAIT_MS);
    CHECK_JSON_EQ(state, "isFavorite", "false");
    CHECK_JSON_EQ(state, "favoriteError", "null");
    cinematic_free(state);
    state = wait_json_eq(second, "isFavorite", "false", H_WAIT_MS);
    CHECK_JSON_EQ(state, "isFavorite", "false");
    cinematic_free(state);
    state = wait_len(favorites, 0);
    CHECK_EQ_INT(json_array_len(state, "favorites.value"), 0);
    CHECK_JSON_EQ(state, "removalError", "null");
    cinematic_free(state);

    /* The other direction once more, from the second detail store. */
    CHECK_STATUS(send_toggle(second), CINEMATIC_OK);
    state = wait_listed(favorites, DUNE, 1);
    CHECK_EQ_INT(count_id(state, DUNE), 1);
    cinematic_free(state);
    state = wait_json_eq(detail, "isFavorite", "true", H_WAIT_MS);
    CHECK_JSON_EQ(state, "isFavorite", "true");
    cinematic_free(state);

    /* Removing a movie that is not a favorite is no error. */
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"removed\",\"movieId\":424242}"), CINEMATIC_OK);
    h_sleep_ms(30);
    state = state_of(favorites);
    CHECK_JSON_EQ(state, "removalError", "null");
    CHECK_EQ_INT(count_id(state, DUNE), 1);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}


int main(void) {
    RUN_TEST(test_detail_and_favorites_see_each_other);
    return TEST_SUMMARY();
}
