/* jemalloc_conf.h -- what the program asks of jemalloc at run time (the
 * start-up settings and why: jemalloc_conf.c). */
#ifndef REGIONSIM_JEMALLOC_CONF_H
#define REGIONSIM_JEMALLOC_CONF_H

typedef struct huge_pages huge_pages;

/* From now on, memory jemalloc maps for this process is advised to be
 * backed by transparent huge pages (madvise MADV_HUGEPAGE: the kernel may
 * decline). For runs whose writes land at random over gigabytes of small
 * objects (a million regions); it costs other runs time and memory
 * (jemalloc_conf.c has the measurements). Returns a handle for
 * huge_pages_end, or NULL when it could not (no jemalloc: sanitizer
 * builds; jemalloc refused): then nothing changed, and the run goes on
 * with small pages. */
huge_pages *huge_pages_begin(void);

/* Puts jemalloc's own hooks back and frees hp (NULL: nothing). Memory
 * mapped meanwhile stays as it is. Call it after the memory it was for is
 * freed, before the process exits. */
void huge_pages_end(huge_pages *hp);

#endif
