/* bigarray.h -- arrays that grow large: past BIGARRAY_MAP_FROM bytes a
 * mapping of their own, grown by mremap (the kernel moves the pages: no
 * copy, and no fault on the pages already written), below it jemalloc's.
 * For the few arrays of a run that grow to many megabytes by doubling (a
 * server's queue, the truth's timestamp lists): copying each into fresh
 * pages at every doubling was most of their cost. */
#ifndef REGIONSIM_BIGARRAY_H
#define REGIONSIM_BIGARRAY_H

#include <stddef.h>

#define BIGARRAY_MAP_FROM ((size_t)1 << 20) /* bytes: a mapping from this size */

/* Resizes *a from cap bytes to n bytes (n >= cap, n > 0), keeping the first
 * cap bytes. *mapped says whether *a is a mapping (0 for a NULL or
 * malloc'd array; set here when it becomes one). If a mapping cannot be
 * had (say, the process is at its limit of mappings) the array stays
 * malloc'd. Returns 0, or -1 (out of memory: *a and *mapped unchanged). */
int bigarray_grow(void **a, size_t cap, size_t n, int *mapped);

/* Frees an array of cap bytes (NULL: nothing) that bigarray_grow made. */
void bigarray_free(void *a, size_t cap, int mapped);

#endif
