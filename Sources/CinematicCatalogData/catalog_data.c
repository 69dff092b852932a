/* Embeds data/ggplot2movies.tsv.gz (58,788 films, GPL-2 | GPL-3, see data/README.md). */
#include "cinematic_catalog_data.h"

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc23-extensions"
static const unsigned char catalog_gz[] = {
#embed "../../data/ggplot2movies.tsv.gz"
};
#pragma clang diagnostic pop

const unsigned char *catalog_data_gz_bytes(void) { return catalog_gz; }
size_t catalog_data_gz_length(void) { return sizeof catalog_gz; }
