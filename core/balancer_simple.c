/* balancer_simple.c -- HBase's SimpleLoadBalancer, step by step.
 *
 * Source: apache/hbase master (3.0.0-SNAPSHOT), hbase-balancer/src/main/
 * java/org/apache/hadoop/hbase/master/balancer/SimpleLoadBalancer.java at
 * commit 07c3b85569b2: needsBalance, overallNeedsBalance, balanceTable,
 * balanceOverall, addRegionPlan; with ClusterLoadState, ServerAndLoad
 * (compareTo: load, then ServerName), RegionInfoComparator (larger
 * regionId = younger = first), RegionPlan.RegionPlanComparator (source
 * ServerName, then RegionInfo.COMPARATOR: start key, end key, regionId,
 * then destination), BaseLoadBalancer.balanceCluster and, since HBase 3
 * wraps every balancer in it, rsgroup/RSGroupBasedLoadBalancer
 * .correctAssignments (the per-table map the balancer sees is a TreeMap
 * by ServerName). Facts only; the code is this file's own.
 *
 * The input is what RegionStates.getAssignmentsForBalancer hands over:
 * each server's regions in region-name order ("table,startKey,regionId."
 * compared as bytes; that is start-key order except where one start key
 * is another's prefix followed by a byte below ','). The balancer then:
 *
 *  1. skips unless a server is idle beside one with several regions, or
 *     some server is outside [floor(avg (1 - slop)), ceil(avg (1 + slop))]
 *     (needsBalance; overallNeedsBalance is the same test for one table);
 *  2. walks the servers from the most loaded (by region count, then
 *     ServerName): each above max = ceil(avg) sorts its regions newest
 *     first (a stable sort: regions of equal regionId keep region-name
 *     order; split daughters and a pre-split table's regions share one id)
 *     and offers its load - max newest into regionsToMove, a Guava
 *     MinMaxPriorityQueue ordered by (source, region);
 *  3. finds the servers below min = (int) avg, in a HashMap (its iteration
 *     order), shuffles them (Collections.shuffle, from the caller's
 *     random source) and deals the queue's least plans to them round-robin,
 *     forward then backward, until each has min or the queue is empty;
 *  4. if some are still below min (neededRegions), takes one more region
 *     from each of the most loaded servers in turn (the next after those
 *     already offered: the newest left for an overloaded server, the first
 *     in region-name order for the others) and fills the underloaded ones;
 *  5. when avg is not whole, balanceOverall peels one region off each
 *     server then at max, in the order of serverLoadList (setClusterLoad
 *     fills a HashMap<ServerName, Integer> with compute, in ServerName
 *     order, and lists it in the map's iteration order: java_hashmap_
 *     compute_order), sorts that list by load (stably), drops the first
 *     plan (in the queue's array order) of each source that is among the
 *     least loaded, deals the rest to the least loaded servers, and folds a
 *     move A -> B followed by B -> C into A -> C.
 *
 * The plans are applied in the order the balancer returned them. A plan
 * whose destination is its source (step 5's folding could make one) moves
 * nothing. With one table the fold never happens: a destination of steps
 * 3-4 ends at min, never at max, so balanceOverall never takes a plan from
 * it. Replicas do not exist here.
 *
 * hbase:meta. With hbase.master.loadbalance.bytable = false (HBase's
 * default) BaseLoadBalancer.balanceCluster hands balanceTable one ensemble
 * of every table's regions (toEnsumbleTableLoad merges the per-table maps
 * RegionStates.getAssignmentsForBalancer made, hbase:meta's among them:
 * it skips only disabled tables and regions not OPEN or OPENING). So when
 * the cluster models meta (cluster.meta_server), its region counts on its
 * server, in the average and the slop test, and may be offered and moved
 * like any other. Where it sorts: region names compare as bytes
 * ("hbase:meta,,1" against "<table>,<start>,<id>."), RegionInfo.COMPARATOR
 * compares table names first, and the user table's name is taken to sort
 * after "hbase:meta" (OpenTSDB's "tsdb", YCSB's "usertable" do): meta is
 * first in region-name order and the least region of its source in the
 * plans' order. RegionInfoComparator puts the larger regionId first:
 * meta's is 1 (FIRST_META_REGIONINFO), a user region's its creation time
 * in epoch ms, so meta is a server's oldest region, offered last. With
 * the (hbase:meta, hbase:namespace) pair of HBase 2 this would be two
 * regions; HBase 3 folded the namespace table into meta's "ns" family
 * (HBASE-21154), and this port follows HBase 3.
 *
 * tests/test_balancer_simple.c replays clusters that HBase's own code
 * balanced (tests/data/hbase_simple_balancer.txt) and requires the same
 * moves in the same order. One difference is known and left: HBase orders
 * a server's regions by full region name, "table,startKey,regionId." then
 * the MD5 of the name; here the name ends at the '.', so two regions whose
 * names agree up to one's '.' (a start key that begins with another
 * region's start key, ',', its decimal regionId and '.') can sort apart
 * from HBase's order, which depends on the table name regionsim lacks.
 */
#include "core/balancer_impl.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/javaorder.h"

#define NO_SERVER UINT32_MAX
#define META_REGION SIZE_MAX  /* hbase:meta's region in region lists and plans */

/* One server as the balancer sees it: ServerAndLoad plus BalanceInfo. */
typedef struct sb_server {
    uint32_t live;            /* index in cluster.servers */
    char host[24];            /* "rs<id>" */
    size_t host_len;
    uint64_t start_ms;
    size_t *regions;          /* region indices: region-name order, or newest first */
    size_t nregions;          /* its load when the run began */
    /* BalanceInfo */
    size_t next_unload;       /* nextRegionForUnload */
    int64_t added;            /* numRegionsAdded */
    /* balanceOverall's ServerAndLoad (serverLoadList) */
    int64_t overall_load;
} sb_server;

/* A RegionPlan: region (a map index), source and destination (indices into
 * the sb_server array; dest NO_SERVER until set). */
typedef struct sb_plan {
    size_t region;
    uint32_t src, dest;
} sb_plan;

typedef struct sb_run {
    cluster *c;
    sb_server *sv;            /* nservers */
    uint32_t nservers;
    size_t *by_load;          /* serversByLoad: ascending (load, ServerName) */
    sb_plan *plan;            /* every plan made, indexed by the queue */
    size_t nplans, plans_cap;
    size_t *ret;              /* regionsToReturn: plan indices in order */
    size_t nret;
    mmpq queue;               /* regionsToMove */
    size_t *region_pool;      /* storage for every server's region list */
} sb_run;

/* ---- orders ----------------------------------------------------------- */

/* ServerName.compareTo: hostname (ignoring case: ours are lower case),
 * then port (all equal), then start code. */
static int server_name_cmp(const sb_server *a, const sb_server *b)
{
    size_t n = a->host_len < b->host_len ? a->host_len : b->host_len;
    int d = memcmp(a->host, b->host, n);
    if (d != 0)
        return d;
    if (a->host_len != b->host_len)
        return a->host_len < b->host_len ? -1 : 1;
    return (a->start_ms > b->start_ms) - (a->start_ms < b->start_ms);
}

/* ServerAndLoad.compareTo: load, then ServerName. */
static int server_load_cmp(const sb_server *a, const sb_server *b)
{
    if (a->nregions != b->nregions)
        return a->nregions < b->nregions ? -1 : 1;
    return server_name_cmp(a, b);
}

/* ServerName.hashCode: String.hashCode of "host,port,startcode". */
static uint32_t server_hash(const sb_server *v)
{
    char name[64];
    int len = snprintf(name, sizeof name, "%s,%d,%" PRIu64, v->host, BALANCER_SERVER_PORT,
                       v->start_ms);
    return java_string_hash(name, (size_t)len);
}

/* Reorders servers v[0..n) into the order a new HashMap<ServerName, ...>
 * iterates them when they are added in the order given, with put or
 * (`compute`) with compute; -1 if out of memory. */
static int hashmap_order(const sb_server *sv, size_t *v, size_t n, int compute)
{
    uint32_t *hash = calloc(n ? n : 1, sizeof *hash);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    size_t *copy = malloc((n ? n : 1) * sizeof *copy);
    int rc = -1;
    if (hash && order && copy) {
        for (size_t i = 0; i < n; i++) {
            hash[i] = server_hash(&sv[v[i]]);
            copy[i] = v[i];
        }
        rc = compute ? java_hashmap_compute_order(hash, n, order)
                     : java_hashmap_order(hash, n, order);
        for (size_t i = 0; rc == 0 && i < n; i++)
            v[i] = copy[order[i]];
    }
    free(hash), free(order), free(copy);
    return rc;
}

/* The byte at i of the region name after "table,": start key, ',', the
 * decimal regionId, '.'; -1 past its end. */
static int name_byte(const region *r, const char *tail, size_t tail_len, size_t i)
{
    if (i < r->start_len)
        return r->start[i];
    i -= r->start_len;
    return i < tail_len ? (uint8_t)tail[i] : -1;
}

/* Bytes.BYTES_COMPARATOR over two regions' names (RegionStates' order). */
static int region_name_cmp(const region *a, const region *b)
{
    char ta[32], tb[32];
    size_t la = (size_t)snprintf(ta, sizeof ta, ",%" PRIu64 ".", a->id);
    size_t lb = (size_t)snprintf(tb, sizeof tb, ",%" PRIu64 ".", b->id);
    size_t n = a->start_len < b->start_len ? a->start_len : b->start_len;
    int d = n ? memcmp(a->start, b->start, n) : 0;
    if (d != 0)
        return d;
    for (size_t i = n;; i++) {
        int x = name_byte(a, ta, la, i), y = name_byte(b, tb, lb, i);
        if (x != y)
            return x < y ? -1 : 1;
        if (x < 0)
            return 0;
    }
}

/* RegionInfo.COMPARATOR for two regions of one table. */
static int region_info_cmp(const region *a, const region *b)
{
    int d = key_compare(region_start(a), region_start(b));
    if (d != 0)
        return d;
    d = key_compare(region_end(a), region_end(b));
    if (d != 0) {
        if (a->start_len && !a->end_len)
            return 1; /* the last region */
        if (b->start_len && !b->end_len)
            return -1;
        return d;
    }
    return (a->id > b->id) - (a->id < b->id);
}

/* RegionInfo.COMPARATOR with hbase:meta (top comment): meta first. */
static int region_index_cmp(const regionmap *m, size_t a, size_t b)
{
    if (a == META_REGION || b == META_REGION)
        return (a != META_REGION) - (b != META_REGION);
    return region_info_cmp(regionmap_get(m, a), regionmap_get(m, b));
}

/* RegionPlanComparator on plans of the queue: source ServerName, region,
 * destination (null first). */
static int plan_cmp(void *ctx, size_t x, size_t y)
{
    const sb_run *run = ctx;
    const sb_plan *a = &run->plan[x], *b = &run->plan[y];
    int d = server_name_cmp(&run->sv[a->src], &run->sv[b->src]);
    if (d != 0)
        return d;
    d = region_index_cmp(run->c->map, a->region, b->region);
    if (d != 0)
        return d;
    if (a->dest == NO_SERVER || b->dest == NO_SERVER)
        return (a->dest != NO_SERVER) - (b->dest != NO_SERVER);
    return server_name_cmp(&run->sv[a->dest], &run->sv[b->dest]);
}

/* qsort contexts travel in a file-local pointer-free way: sort arrays of
 * (key, payload) pairs instead. */
typedef struct sort_item {
    const void *ctx;
    size_t value;
    size_t pos;               /* original position: stability */
} sort_item;

static int by_region_name(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    const regionmap *m = x->ctx;
    int d;
    if (x->value == META_REGION || y->value == META_REGION) /* "hbase:meta,,1" first */
        d = (x->value != META_REGION) - (y->value != META_REGION);
    else
        d = region_name_cmp(regionmap_get(m, x->value), regionmap_get(m, y->value));
    return d ? d : (x->pos > y->pos) - (x->pos < y->pos);
}

/* RegionInfoComparator, made stable as Collections.sort is. */
static int by_newest(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    const regionmap *m = x->ctx;
    if (x->value == META_REGION || y->value == META_REGION) { /* regionId 1: the oldest */
        int d = (x->value == META_REGION) - (y->value == META_REGION);
        if (d)
            return d;
    } else {
        uint64_t ix = regionmap_get(m, x->value)->id, iy = regionmap_get(m, y->value)->id;
        if (ix != iy)
            return ix > iy ? -1 : 1;
    }
    return (x->pos > y->pos) - (x->pos < y->pos);
}

static int by_server_load(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    const sb_server *sv = x->ctx;
    return server_load_cmp(&sv[x->value], &sv[y->value]);
}

static int by_server_name(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    const sb_server *sv = x->ctx;
    return server_name_cmp(&sv[x->value], &sv[y->value]);
}

/* Collections.sort(list, c) of serverLoadList by overall load alone
 * (stable: equal loads keep their order). */
static int by_overall_load(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    const sb_server *sv = x->ctx;
    int64_t lx = sv[x->value].overall_load, ly = sv[y->value].overall_load;
    if (lx != ly)
        return lx < ly ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Sorts v[0..n) with cmp over sort_items; -1 if out of memory. */
static int sort_values(size_t *v, size_t n, const void *ctx,
                       int (*cmp)(const void *, const void *))
{
    if (n < 2)
        return 0;
    sort_item *it = malloc(n * sizeof *it);
    if (!it)
        return -1;
    for (size_t i = 0; i < n; i++)
        it[i] = (sort_item){ ctx, v[i], i };
    qsort(it, n, sizeof *it, cmp);
    for (size_t i = 0; i < n; i++)
        v[i] = it[i].value;
    free(it);
    return 0;
}

/* ---- the run's state -------------------------------------------------- */

static void sb_release(sb_run *run)
{
    free(run->sv);
    free(run->by_load);
    free(run->plan);
    free(run->ret);
    free(run->region_pool);
    mmpq_release(&run->queue);
}

/* Reads c: the servers, their regions in region-name order, serversByLoad. */
static int sb_init(sb_run *run, cluster *c)
{
    memset(run, 0, sizeof *run);
    run->c = c;
    run->nservers = c->nservers;
    size_t T = regionmap_count(c->map), R = cluster_balanced_regions(c);
    mmpq_init(&run->queue, plan_cmp, run);
    run->sv = calloc(c->nservers, sizeof *run->sv);
    run->by_load = malloc(c->nservers * sizeof *run->by_load);
    run->region_pool = malloc((R ? R : 1) * sizeof *run->region_pool);
    run->ret = malloc((R ? R : 1) * sizeof *run->ret);
    run->plans_cap = R + c->nservers + 1;
    run->plan = malloc(run->plans_cap * sizeof *run->plan);
    if (!run->sv || !run->by_load || !run->region_pool || !run->ret || !run->plan)
        return -1;
    size_t used = 0;
    for (uint32_t s = 0; s < c->nservers; s++) {
        sb_server *v = &run->sv[s];
        v->live = s;
        v->host_len = (size_t)snprintf(v->host, sizeof v->host, "rs%" PRIu32, c->servers[s].id);
        v->start_ms = c->servers[s].start_ms;
        v->regions = run->region_pool + used;
        used += (size_t)cluster_server_load(c, s);
        run->by_load[s] = s;
    }
    assert(used == R);
    for (size_t i = 0; i < T; i++) {
        sb_server *v = &run->sv[regionmap_get(c->map, i)->server];
        v->regions[v->nregions++] = i;
    }
    if (c->meta_server != CLUSTER_NO_META) {
        sb_server *v = &run->sv[c->meta_server];
        v->regions[v->nregions++] = META_REGION;
    }
    for (uint32_t s = 0; s < c->nservers; s++)
        if (sort_values(run->sv[s].regions, run->sv[s].nregions, c->map, by_region_name) < 0)
            return -1;
    return sort_values(run->by_load, c->nservers, run->sv, by_server_load);
}

/* new RegionPlan(region, source, null) added to regionsToMove. */
static int offer(sb_run *run, size_t region, uint32_t src)
{
    if (run->nplans == run->plans_cap) {
        size_t cap = 2 * run->plans_cap;
        sb_plan *p = realloc(run->plan, cap * sizeof *p);
        if (!p)
            return -1;
        run->plan = p;
        run->plans_cap = cap;
    }
    run->plan[run->nplans] = (sb_plan){ region, src, NO_SERVER };
    return mmpq_add(&run->queue, run->nplans++);
}

/* addRegionPlan(regionsToMove, fetchFromTail = false, dest, regionsToReturn):
 * the queue's least plan goes to dest. */
static void deal(sb_run *run, uint32_t dest)
{
    size_t p = mmpq_poll(&run->queue);
    run->plan[p].dest = dest;
    run->ret[run->nret++] = p;
}

/* ---- balanceTable ----------------------------------------------------- */

/* Step 2: the overloaded servers offer their newest regions. */
static int offload_overloaded(sb_run *run, int64_t max, balancer_report *report)
{
    for (uint32_t k = run->nservers; k-- > 0;) {
        uint32_t s = (uint32_t)run->by_load[k];
        sb_server *v = &run->sv[s];
        int64_t load = (int64_t)v->nregions;
        if (load <= max)
            continue; /* BalanceInfo(0, 0, regions) */
        report->overloaded++;
        size_t offload = (size_t)(load - max);
        if (sort_values(v->regions, v->nregions, run->c->map, by_newest) < 0)
            return -1;
        for (size_t i = 0; i < offload; i++)
            if (offer(run, v->regions[i], s) < 0)
                return -1;
        v->next_unload = offload;
        v->added = -(int64_t)offload;
    }
    return 0;
}

/* Step 3: deals the queue round-robin to the shuffled underloaded servers;
 * *needed gets the regions they still lack. */
static int fill_underloaded(sb_run *run, const balancer_config *cfg, int64_t min,
                            int64_t num_regions, balancer_report *report, int64_t *needed)
{
    size_t *under = malloc((run->nservers ? run->nservers : 1) * sizeof *under);
    int64_t *want = calloc(run->nservers ? run->nservers : 1, sizeof *want);
    if (!under || !want) {
        free(under), free(want);
        return -1;
    }
    size_t n = 0;
    int64_t max_to_take = num_regions - min;
    for (uint32_t k = 0; k < run->nservers; k++) {
        if (max_to_take == 0)
            break;
        uint32_t s = (uint32_t)run->by_load[k];
        int64_t load = (int64_t)run->sv[s].nregions;
        if (load >= min)
            continue;
        want[s] = min - load;
        max_to_take -= want[s];
        under[n++] = s;
    }
    report->underloaded = (uint32_t)n;
    /* sns = the HashMap's keys in its order, then Collections.shuffle. */
    size_t *sns = malloc((n ? n : 1) * sizeof *sns);
    if (sns)
        memcpy(sns, under, n * sizeof *sns);
    if (!sns || hashmap_order(run->sv, sns, n, 0) < 0) {
        free(under), free(want), free(sns);
        return -1;
    }
    assert(cfg->random.below);
    java_shuffle(sns, n, cfg->random.below, cfg->random.ctx);
    int incr = 1;
    while (run->queue.size > 0) {
        int cnt = 0;
        for (long i = incr > 0 ? 0 : (long)n - 1; i >= 0 && i < (long)n; i += incr) {
            if (run->queue.size == 0)
                break;
            uint32_t s = (uint32_t)sns[i];
            if (want[s] == 0)
                continue;
            deal(run, s);
            want[s]--;
            cnt++;
            run->sv[s].added++;
        }
        if (cnt == 0)
            break;
        incr = -incr;
    }
    *needed = 0;
    for (size_t i = 0; i < n; i++)
        *needed += want[under[i]];
    free(under), free(want), free(sns);
    return 0;
}

/* Step 4: one more region from each of the most loaded servers. */
static int take_needed(sb_run *run, int64_t needed)
{
    for (uint32_t k = run->nservers; needed != 0 && k-- > 0;) {
        uint32_t s = (uint32_t)run->by_load[k];
        sb_server *v = &run->sv[s];
        if (v->next_unload >= v->nregions)
            break;
        if (offer(run, v->regions[v->next_unload], s) < 0)
            return -1;
        v->added--;
        v->next_unload++;
        needed--;
    }
    return 0;
}

/* Step 4, second half: the least loaded servers filled up to min. */
static void fill_to_min(sb_run *run, int64_t min)
{
    for (uint32_t k = 0; k < run->nservers; k++) {
        uint32_t s = (uint32_t)run->by_load[k];
        sb_server *v = &run->sv[s];
        int64_t count = (int64_t)v->nregions;
        if (count >= min)
            break;
        count += v->added;
        if (count >= min)
            continue;
        for (int64_t taken = 0; taken < min - count && run->queue.size > 0; taken++) {
            deal(run, s);
            v->added++;
        }
    }
}

/* Step 5: SimpleLoadBalancer.balanceOverall. */
static int balance_overall(sb_run *run, int64_t max, int64_t min)
{
    uint32_t S = run->nservers;
    /* serverLoadList: setClusterLoad's HashMap<ServerName, Integer>, filled
     * with compute from the TreeMap the balancer gets (ServerName order),
     * in its iteration order. */
    size_t *list = malloc((S ? S : 1) * sizeof *list);
    size_t *pos_of = malloc((S ? S : 1) * sizeof *pos_of);
    size_t *sources = calloc(S ? S : 1, sizeof *sources);
    /* returnMap: per destination, its plans' places in regionsToReturn. */
    size_t *ret_by_dest = malloc((run->nret ? run->nret : 1) * sizeof *ret_by_dest);
    size_t *dest_start = calloc((size_t)S + 1, sizeof *dest_start);
    size_t *dest_count = calloc(S ? S : 1, sizeof *dest_count);
    size_t *removals = malloc((run->queue.size + S + 1) * sizeof *removals);
    int rc = -1;
    if (!list || !pos_of || !sources || !ret_by_dest || !dest_start || !dest_count || !removals)
        goto done;
    for (uint32_t s = 0; s < S; s++) {
        list[s] = s;
        run->sv[s].overall_load = (int64_t)run->sv[s].nregions;
    }
    if (sort_values(list, S, run->sv, by_server_name) < 0 || hashmap_order(run->sv, list, S, 1) < 0)
        goto done;
    for (size_t i = 0; i < run->nret; i++)
        dest_start[run->plan[run->ret[i]].dest + 1]++;
    for (uint32_t s = 0; s < S; s++)
        dest_start[s + 1] += dest_start[s];
    for (size_t i = 0; i < run->nret; i++) {
        uint32_t d = run->plan[run->ret[i]].dest;
        ret_by_dest[dest_start[d] + dest_count[d]++] = i;
    }

    /* Step 2: peel one region off every server now at max. */
    for (uint32_t i = 0; i < S; i++) {
        sb_server *v = &run->sv[list[i]];
        v->overall_load += v->added;
        int64_t now = (int64_t)v->nregions + v->added;
        if (now == max) {
            if (v->nregions == 0 || v->next_unload >= v->nregions)
                continue;
            if (offer(run, v->regions[v->next_unload], (uint32_t)list[i]) < 0)
                goto done;
            v->overall_load--;
        } else if (now > max || now < min) {
            rc = 0; /* "should not happen": HBase stops balancing overall */
            goto done;
        }
    }
    /* Step 3: the least loaded first (a stable sort). */
    if (sort_values(list, S, run->sv, by_overall_load) < 0)
        goto done;
    for (uint32_t i = 0; i < S; i++)
        pos_of[list[i]] = i;
    /* Step 4: drop the first plan (in the queue's array order) of each
     * source that is among the assignLength least loaded. */
    size_t assign = run->queue.size, nremove = 0;
    for (size_t q = 0; q < run->queue.size; q++) {
        uint32_t src = run->plan[run->queue.item[q]].src;
        if (++sources[src] == 1 && pos_of[src] < assign) {
            removals[nremove++] = run->queue.item[q];
            run->sv[src].overall_load++;
        }
    }
    for (size_t k = 0; k < nremove; k++) {
        size_t at = 0;
        while (run->queue.item[at] != removals[k])
            at++;
        mmpq_remove_at(&run->queue, at);
    }
    /* Step 5: deal the rest to the least loaded non-sources, folding a
     * move into a server followed by a move out of it. */
    for (size_t i = 0; i < assign; i++) {
        uint32_t s = (uint32_t)list[i];
        if (sources[s])
            continue;
        assert(run->queue.size > 0);
        deal(run, s);
        run->sv[s].overall_load++;
        const sb_plan *last = &run->plan[run->ret[run->nret - 1]];
        uint32_t src = last->src;
        if (dest_count[src] > 0) {
            size_t earlier = ret_by_dest[dest_start[src] + --dest_count[src]];
            run->plan[run->ret[earlier]].dest = last->dest;
            run->nret--;
        }
    }
    rc = 0;
done:
    free(list), free(pos_of), free(sources), free(ret_by_dest), free(dest_start);
    free(dest_count), free(removals);
    return rc;
}

static int64_t apply_plans(sb_run *run)
{
    int64_t moved = 0;
    for (size_t i = 0; i < run->nret; i++) {
        const sb_plan *p = &run->plan[run->ret[i]];
        uint32_t from = run->sv[p->src].live, to = run->sv[p->dest].live;
        if (from == to)
            continue;
        if (p->region == META_REGION) {
            assert(run->c->meta_server == from);
            cluster_move_meta(run->c, to);
            moved++;
            continue;
        }
        assert(regionmap_get(run->c->map, p->region)->server == from);
        cluster_move(run->c, p->region, to);
        moved++;
    }
    return moved;
}

int64_t simple_balance(const balancer_config *cfg, cluster *c, balancer_report *report)
{
    int sloppy = balancer_sloppy_server(cfg->slop, c, 1, report);
    if (c->nservers < MIN_SERVER_BALANCE) {
        report->reason = BALANCER_FEW_SERVERS;
        return 0;
    }
    int idle = balancer_idle_server(c, 1);
    if (!idle && !sloppy) {
        report->reason = BALANCER_BALANCED;
        return 0;
    }
    report->ran = 1;
    report->reason = idle ? BALANCER_IDLE_SERVER : BALANCER_OUT_OF_SLOP;
    float average = (float)cluster_balanced_regions(c) / (float)c->nservers;
    int64_t max = (int64_t)ceil((double)average), min = (int64_t)average;
    report->target_min = min;
    report->target_max = max;

    sb_run run;
    int64_t needed, moved = -1;
    if (sb_init(&run, c) < 0 || offload_overloaded(&run, max, report) < 0 ||
        fill_underloaded(&run, cfg, min, (int64_t)cluster_balanced_regions(c), report, &needed) < 0 ||
        take_needed(&run, needed) < 0)
        goto done;
    fill_to_min(&run, min);
    if (min != max && balance_overall(&run, max, min) < 0)
        goto done;
    moved = apply_plans(&run);
    report->moves = (uint64_t)moved;
done:
    sb_release(&run);
    return moved;
}
