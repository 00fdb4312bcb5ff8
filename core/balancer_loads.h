/* balancer_loads.h -- the region loads the stochastic balancer remembers
 * (internal to core/balancer*.c; see balancer_loads.c).
 *
 * The state is the stochastic balancer's stochastic_state (balancer_impl.h
 * declares stochastic_new, stochastic_free and stochastic_observe, which
 * balancer_loads.c defines).
 */
#ifndef REGIONSIM_BALANCER_LOADS_H
#define REGIONSIM_BALANCER_LOADS_H

#include "core/balancer_impl.h"

/* A region's inputs to the load-based cost functions (getRegionLoadCost):
 * read, write and memstore rates (mean increase per load), the mean store
 * file size in MB. */
typedef struct region_load_values {
    double read, write, memstore, storefile;
} region_load_values;

/* Region i of c's values from the loads remembered; 0 when there is no
 * record for it (a fresh balancer, a region not looked at yet), *out
 * untouched. */
int region_loads_values(const stochastic_state *s, const cluster *c, size_t i,
                        region_load_values *out);

/* A move this balancer made of region i: it opens on its new server with
 * fresh request counters. 0, or -1 if out of memory. */
int region_loads_note_move(stochastic_state *s, cluster *c, size_t i);

/* A state that looks once, for one evaluation: its records are by region
 * index and it leaves the regions' fields alone (stochastic_total_cost).
 * Its look is stochastic_observe_detached (0, or -1 if out of memory);
 * stochastic_observe of it does the same. */
stochastic_state *stochastic_new_detached(const balancer_config *cfg);
int stochastic_observe_detached(stochastic_state *s, const cluster *c);

#endif
