/* split.c -- the size split policy and HBase's split-point refusals. */
#include "core/split.h"

#include <assert.h>

int split_decide(const split_policy *p, region *r, keyref *at)
{
    assert(p->kind == SPLIT_SIZE);
    keyref mid, first, last;
    if (store_middle_key(r->rows, &mid) == 0 &&
        store_first_last(r->rows, &first, &last) == 0 &&
        key_compare(mid, first) != 0 && key_compare(mid, last) != 0) {
        *at = mid;
        return 1;
    }
    uint64_t step = p->max_bytes / 8 ? p->max_bytes / 8 : 1;
    r->next_split_check = store_bytes(r->rows) + step;
    return 0;
}
