/* balancer.c -- the balancer value, HMaster.balance's checks, the slop test.
 *
 * Sources (HBase master branch, 3.0.0-SNAPSHOT; facts only, the code is
 * this file's own): hbase-server/.../master/HMaster.java balance() (no run
 * while regions are in transition), hbase-balancer/.../master/balancer/
 * BaseLoadBalancer.java (REGIONS_SLOP_DEFAULT = 0.2f, MIN_SERVER_BALANCE
 * = 2, idleRegionServerExist, sloppyRegionServerExist) and
 * ClusterLoadState.java (getLoadAverage: (float) regions / servers).
 */
#include "core/balancer_impl.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void balancer_defaults(balancer_config *cfg, balancer_kind kind)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->kind = kind;
    cfg->slop = 0.2; /* BaseLoadBalancer.REGIONS_SLOP_DEFAULT */
    /* StochasticLoadBalancer and its cost functions' DEFAULT_* constants */
    stochastic_config *s = &cfg->stochastic;
    s->max_steps = 1000000;
    s->steps_per_region = 800;
    s->run_max_steps = 0;
    s->min_cost_need_balance = 0.025;
    s->region_loads = 15;
    s->max_move_percent = 1.0; /* MoveCostFunction.DEFAULT_MAX_MOVE_PERCENT = 1.0f */
    s->region_count_cost = 500;
    s->move_cost = 7;
    s->server_locality_cost = 25;
    s->rack_locality_cost = 15;
    s->table_skew_cost = 35;
    s->storefile_table_skew_cost = 35; /* StoreFileTableSkewCostFunction (HBASE-29203) */
    s->read_request_cost = 5;
    s->cp_request_cost = 5;
    s->write_request_cost = 5;
    s->memstore_size_cost = 5;
    s->storefile_size_cost = 5;
}

balancer *balancer_new(const balancer_config *cfg)
{
    balancer *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->cfg = *cfg;
    if (cfg->kind == BALANCER_STOCHASTIC && !(b->stochastic = stochastic_new(&b->cfg))) {
        free(b);
        return NULL;
    }
    return b;
}

void balancer_free(balancer *b)
{
    if (!b)
        return;
    stochastic_free(b->stochastic);
    free(b);
}

int balancer_observe(balancer *b, cluster *c)
{
    return b->stochastic ? stochastic_observe(b->stochastic, c) : 0;
}

static uint64_t load_of(const cluster *c, uint32_t s, int meta)
{
    return meta ? cluster_server_load(c, s) : c->servers[s].regions;
}

int balancer_idle_server(const cluster *c, int meta)
{
    int more = 0, zero = 0;
    for (uint32_t s = 0; s < c->nservers; s++) {
        more |= load_of(c, s, meta) > 1;
        zero |= load_of(c, s, meta) == 0;
    }
    return more && zero;
}

int balancer_sloppy_server(double slop, const cluster *c, int meta, balancer_report *r)
{
    uint64_t most = 0, least = UINT64_MAX;
    for (uint32_t s = 0; s < c->nservers; s++) {
        uint64_t n = load_of(c, s, meta);
        most = n > most ? n : most;
        least = n < least ? n : least;
    }
    /* HBase computes in float: (float) regions / servers, a float slop. */
    uint64_t regions = meta ? cluster_balanced_regions(c) : regionmap_count(c->map);
    float avg = (float)regions / (float)c->nservers;
    float sl = (float)slop;
    r->average = avg;
    r->floor = (int64_t)floor((double)(avg * (1.0f - sl)));
    r->ceiling = (int64_t)ceil((double)(avg * (1.0f + sl)));
    r->least = least;
    r->most = most;
    if (slop < 0)
        return 0;
    return (int64_t)most > r->ceiling || (int64_t)least < r->floor;
}

/* Regions in transition: offline after a split, move or reassignment;
 * hbase:meta's too (HMaster.balance counts every region in transition). */
static uint64_t regions_in_transition(const cluster *c)
{
    uint64_t n = c->meta_server != CLUSTER_NO_META && c->meta_offline_until_us > c->now_us;
    for (size_t i = 0; i < regionmap_count(c->map); i++)
        n += regionmap_get(c->map, i)->offline_until_us > c->now_us;
    return n;
}

int64_t balancer_run(balancer *b, cluster *c, balancer_report *report)
{
    memset(report, 0, sizeof *report);
    report->kind = b->cfg.kind;
    report->servers = c->nservers;
    report->regions = cluster_balanced_regions(c);
    if (b->cfg.kind == BALANCER_NONE)
        return 0;
    report->in_transition = regions_in_transition(c);
    if (report->in_transition) {
        report->reason = BALANCER_IN_TRANSITION;
        return 0;
    }
    if (b->cfg.kind == BALANCER_SIMPLE)
        return simple_balance(&b->cfg, c, report);
    return stochastic_balance(&b->cfg, b->stochastic, c, report);
}

double balancer_total_cost(const balancer_config *cfg, const cluster *c)
{
    return stochastic_total_cost(cfg, c);
}
