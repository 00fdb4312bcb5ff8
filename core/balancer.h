/* balancer.h -- moving regions between servers.
 *
 * BALANCER_REGION_COUNT follows the shape of HBase's SimpleLoadBalancer:
 * bring every server's region count within [floor(avg), ceil(avg)]. From
 * each overloaded server it offloads its oldest regions first (regions
 * sorted by regionId, as SimpleLoadBalancer sorts with RegionInfoComparator),
 * alternating oldest/newest while an empty server exists (its
 * fetchFromTail), then fills underloaded servers, lowest index first. It
 * balances counts, not load: a hot region is moved only if it happens to be
 * picked, which is exactly why it cannot cure a monotonic-key hotspot.
 * (HBase's slop and the stochastic balancer come with the cluster-dynamics
 * work.) Deterministic: no randomness.
 */
#ifndef REGIONSIM_BALANCER_H
#define REGIONSIM_BALANCER_H

#include <stdint.h>

#include "core/cluster.h"

typedef enum balancer_kind {
    BALANCER_NONE = 0,
    BALANCER_REGION_COUNT,
} balancer_kind;

/* Runs one balancer pass over c. Returns the number of regions moved, or
 * -1 if out of memory (c unchanged). */
int64_t balancer_run(balancer_kind kind, cluster *c);

#endif
