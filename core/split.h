/* split.h -- when a region splits, and where.
 *
 * The size policy follows HBase's ConstantSizeRegionSplitPolicy: a region
 * splits once its stored bytes exceed max_bytes. The split point is the
 * store's middle key by size; like HBase (HStore/StoreFile midkey checks) we
 * refuse to split when the middle row is the region's first or last row,
 * since one daughter would then be empty or hold a single row.
 *
 * HBase evaluates the policy after each memstore flush rather than after
 * every write. The simulator checks as soon as the threshold is crossed and,
 * after a refusal, again only when another max_bytes/8 has been written
 * (a stand-in for the next flush), so a region that cannot split costs
 * nothing per write.
 */
#ifndef REGIONSIM_SPLIT_H
#define REGIONSIM_SPLIT_H

#include <stdint.h>

#include "core/regionmap.h"

typedef enum split_kind {
    SPLIT_DISABLED = 0,  /* never split (DisabledRegionSplitPolicy) */
    SPLIT_SIZE,          /* split above max_bytes */
} split_kind;

typedef struct split_policy {
    split_kind kind;
    uint64_t max_bytes;  /* SPLIT_SIZE threshold, > 0 */
} split_policy;

/* Whether the policy wants to look at r now (cheap: called on every write). */
static inline int split_due(const split_policy *p, const region *r, uint64_t bytes)
{
    return p->kind == SPLIT_SIZE && bytes > p->max_bytes && bytes >= r->next_split_check;
}

/* Decides on r, which split_due flagged. Returns 1 and sets *at to the
 * split point (pointing into r's store, valid until the store changes), or
 * returns 0 and schedules the next look (r->next_split_check). */
int split_decide(const split_policy *p, region *r, keyref *at);

#endif
