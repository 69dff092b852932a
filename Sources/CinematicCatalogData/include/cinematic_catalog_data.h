/* The movie catalog (data/ggplot2movies.tsv.gz), embedded in the library at build time so
   that it is found with no configuration wherever the library is installed. */
#ifndef CINEMATIC_CATALOG_DATA_H
#define CINEMATIC_CATALOG_DATA_H
#include <stddef.h>

/** The gzip-compressed catalog TSV. Static storage: never freed. */
const unsigned char *catalog_data_gz_bytes(void);
/** Length in bytes of the buffer returned by catalog_data_gz_bytes(). */
size_t catalog_data_gz_length(void);

#endif
