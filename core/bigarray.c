/* bigarray.c -- arrays grown by mremap past a size (bigarray.h).
 *
 * A mapping's length is the array's size rounded up to whole pages; the
 * caller keeps the size and whether it is a mapping (a flag, not a rule on
 * the size: a mapping that could not be had leaves the array malloc'd).
 * Mappings are few (one per array past 1 MiB), so they do not add up
 * against vm.max_map_count as a region's would. */
#define _GNU_SOURCE /* mremap */
#include "core/bigarray.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t page_round(size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (n + page - 1) / page * page;
}

int bigarray_grow(void **a, size_t cap, size_t n, int *mapped)
{
    assert(n >= cap && n > 0);
    if (*mapped) {
        void *q = mremap(*a, page_round(cap), page_round(n), MREMAP_MAYMOVE);
        if (q == MAP_FAILED)
            return -1;
        *a = q;
        return 0;
    }
    if (n >= BIGARRAY_MAP_FROM) {
        void *q = mmap(NULL, page_round(n), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
        if (q != MAP_FAILED) { /* else: stays malloc'd */
            if (cap)
                memcpy(q, *a, cap);
            free(*a);
            *a = q;
            *mapped = 1;
            return 0;
        }
    }
    void *q = realloc(*a, n);
    if (!q)
        return -1;
    *a = q;
    return 0;
}

void bigarray_free(void *a, size_t cap, int mapped)
{
    if (mapped)
        munmap(a, page_round(cap));
    else
        free(a);
}
