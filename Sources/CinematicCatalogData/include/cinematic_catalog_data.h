/* The movie catalog (data/ggplot2movies.tsv.gz) and its index, embedded in the library at
   build time so that they are found with no configuration wherever the library goes. */
#ifndef CINEMATIC_CATALOG_DATA_H
#define CINEMATIC_CATALOG_DATA_H
#include <stddef.h>

/** The gzip-compressed catalog TSV. Static storage: never freed. */
const unsigned char *catalog_data_gz_bytes(void);
/** Length in bytes of the buffer returned by catalog_data_gz_bytes(). */
size_t catalog_data_gz_length(void);

/** data/alternate-titles.tsv: the names people use for the catalog's films (a TSV, header
    first). Static storage: never freed. */
const unsigned char *catalog_alternates_bytes(void);
/** Length in bytes of the buffer returned by catalog_alternates_bytes(). */
size_t catalog_alternates_length(void);
/** The catalog index `make lib` built from that TSV (a read-only SQLite image; see
    CatalogIndex.swift), or an empty buffer in builds without one (debug builds, tests).
    Static storage: never freed. */
const unsigned char *catalog_index_bytes(void);
/** Length in bytes of the buffer returned by catalog_index_bytes(); 0 when none is embedded. */
size_t catalog_index_length(void);

/** The data hash of the gzip file ("crc32-<hex>-<length>", CatalogIndex.dataHash) computed at
    build time, or NULL in builds that did not compute it (then it is computed when first
    needed). Static storage: never freed. */
const char *catalog_data_gz_hash(void);

/** The embedded index's stamp as `make lib` read it from the index it compiled in
    ("<format>\t<data>\t<library>", the values of its `meta` table), or NULL when no index is
    embedded or the build did not record it (then the stamp is read from the index itself).
    Static storage: never freed. */
const char *catalog_index_stamp(void);
#endif
