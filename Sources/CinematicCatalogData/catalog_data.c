/* Embeds data/ggplot2movies.tsv.gz (58,788 films, GPL-2 | GPL-3, see data/README.md), the
   alternate titles of its films (data/alternate-titles.tsv) and,
   in `make lib` builds (-DCINEMATIC_EMBED_INDEX), the index built from it
   (build/catalog-index/catalog.idx, written by build/bin/cinematic-index --embedded) and
   the movie file's data hash (build/catalog-index/catalog_data_hash.h) and the index's stamp
   (build/catalog-index/catalog_index_stamp.h). */
#include "cinematic_catalog_data.h"

/* The embedded bytes live in a section of their own, read-only: in `.rodata` they would be
   linked writable, because Swift objects mark their `.rodata` writable and the linker merges
   it all into one output section, in the library's writable segment (private, copy-on-write
   pages, and no write to them would fault). */
#define CATALOG_SECTION __attribute__((section("cinematic_catalog")))

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc23-extensions"
CATALOG_SECTION static const unsigned char catalog_gz[] = {
#embed "../../data/ggplot2movies.tsv.gz"
};

/* data/alternate-titles.tsv: the names people use for catalog films (see data/README.md). */
CATALOG_SECTION static const unsigned char catalog_alternates[] = {
#embed "../../data/alternate-titles.tsv"
};

/* SQLite reads the image in place: keep it aligned. */
#if defined(CINEMATIC_EMBED_INDEX) && __has_embed("../../build/catalog-index/catalog.idx")
CATALOG_SECTION _Alignas(16) static const unsigned char catalog_index[] = {
#embed "../../build/catalog-index/catalog.idx"
};
static const size_t catalog_index_size = sizeof catalog_index;
#else
CATALOG_SECTION _Alignas(16) static const unsigned char catalog_index[1] = {0};
static const size_t catalog_index_size = 0;
#endif
#pragma clang diagnostic pop

/* The movie file's data hash, computed by `make lib` from data/ggplot2movies.tsv.gz as it
   compiles this file (build/catalog-index/catalog_data_hash.h): checked against the
   embedded index's stamp without reading the movie file at run time. */
#if defined(CINEMATIC_EMBED_INDEX) && __has_include("../../build/catalog-index/catalog_data_hash.h")
#include "../../build/catalog-index/catalog_data_hash.h"
#endif
#ifndef CATALOG_DATA_HASH
#define CATALOG_DATA_HASH NULL
#endif

/* The embedded index's stamp ("format\tdata\tlibrary" of its `meta` table), read by `make lib`
   from the index it compiles in (build/catalog-index/catalog_index_stamp.h): checked against
   the library's own without opening SQLite at run time. */
#if defined(CINEMATIC_EMBED_INDEX) && __has_include("../../build/catalog-index/catalog_index_stamp.h")
#include "../../build/catalog-index/catalog_index_stamp.h"
#endif
#ifndef CATALOG_INDEX_STAMP
#define CATALOG_INDEX_STAMP NULL
#endif

const unsigned char *catalog_data_gz_bytes(void) { return catalog_gz; }
size_t catalog_data_gz_length(void) { return sizeof catalog_gz; }
const unsigned char *catalog_alternates_bytes(void) { return catalog_alternates; }
size_t catalog_alternates_length(void) { return sizeof catalog_alternates; }
const unsigned char *catalog_index_bytes(void) { return catalog_index; }
size_t catalog_index_length(void) { return catalog_index_size; }
const char *catalog_data_gz_hash(void) { return CATALOG_DATA_HASH; }
const char *catalog_index_stamp(void) { return catalog_index_size ? CATALOG_INDEX_STAMP : NULL; }
