/* balancer_stochastic.c -- HBase's StochasticLoadBalancer, for one table.
 *
 * Sources: apache/hbase master, hbase-balancer/src/main/java/org/apache/
 * hadoop/hbase/master/balancer/, read at these stored commits (each file's
 * newest one in the index we read from; facts only, the code here is this
 * file's own):
 *   StochasticLoadBalancer.java   c8ec6403ac656ed459c92b90bf16ae32eb980c60
 *     (createCostFunctions, balanceTable, needsBalance, calculateMaxSteps,
 *      getRandomGenerator, computeCost, updateRegionLoad, initCosts,
 *      updateCostsAndWeightsWithAction, createRegionPlans)
 *   BaseLoadBalancer.java         1829026dc3eb9832286826ecb3423c06e0b49268
 *     (idleRegionServerExist, sloppyRegionServerExist: core/balancer.c)
 *   BalancerClusterState.java     b7a798b871d4d52d59bc35bbffc40de8c71c7131
 *     (registerRegion: loads looked up by region name; regionMoved:
 *      numMovedRegions; numTables)
 *   CostFunction.java             9c253256a3f8f8d8eb7e87c365075a50343648dc
 *     (scale, getCostEpsilon = Math.ulp, updateWeight -> Random generator)
 *   DoubleArrayCost.java          4c39345b6dabbb4b010f98baed693318c394e80d
 *   CostFromRegionLoadFunction.java b7a798b871d4d52d59bc35bbffc40de8c71c7131
 *   CostFromRegionLoadAsRateFunction.java afefdfd4f84574b647493e494406f931eaddf6be
 *   RegionCountSkewCostFunction.java 2f94fb0f86272b0b00e5c6e189b7b2ae91093d8b
 *   MoveCostFunction.java         4fbc6f38200491bb1467121fb7d1bf424ff26580
 *   TableSkewCostFunction.java    f6c46cfe98bd51c598e778de7e0258722cde6ef0
 *   StoreFileTableSkewCostFunction.java (HBASE-29203, apache/hbase#6825)
 *   Read/Write/CPRequestCostFunction.java, MemStoreSizeCostFunction.java,
 *   StoreFileCostFunction.java    607b7fa8, 89105930, 6b3f3eec, 9c8c9e7f
 *   BalancerRegionLoad.java       324f239139956b75b14733fdb8ec580a2ccb6bda
 *   CandidateGenerator.java       0d81e1ba51a249f585aae29ecc31de65c3cd4c3d
 *   RandomCandidateGenerator.java e807a15c3a4c64f6a58199d041a2152472b9893e
 *   LoadCandidateGenerator.java   8d6bc358141e2250b369aaf23247fa967cc4e5b0
 * docs/stochastic-balancer.md says the same in prose, with what is left
 * out and why.
 *
 * The cost functions, in createCostFunctions' order, those that apply to
 * one table without replicas, racks or HDFS locality (multiplier):
 *   RegionCountSkewCostFunction (500)   DoubleArrayCost of region counts
 *   MoveCostFunction (7)                moved / min(regions, maxMoves),
 *       maxMoves = max((int)(regions * maxMovePercent), DEFAULT_MAX_MOVES
 *       600); 1000000 past maxMoves. The off-peak multiplier (moveCost
 *       .offpeak, 3, during hbase.offpeak.start/end.hour) is left out:
 *       the simulator has no wall-clock hours.
 *   TableSkewCostFunction (35)          the sum over tables of each table's
 *       DoubleArrayCost of its region counts: for one table, the region
 *       count vector again.
 *   StoreFileTableSkewCostFunction (35) the same over tables of store file
 *       MB: for one table, StoreFileCostFunction's vector again.
 *   ReadRequestCostFunction (5)         rates (CostFromRegionLoadAsRate)
 *   CPRequestCostFunction (5)           rates of coprocessor requests: the
 *       simulator has none, so its cost is always 0; it is still "needed"
 *       (CostFunction.isNeeded is true), so its 5 counts in sumMultiplier.
 *   WriteRequestCostFunction (5)        rates
 *   MemStoreSizeCostFunction (5)        rates of memstore MB (HBase treats
 *       the memstore size as a rate too: the average increase)
 *   StoreFileCostFunction (5)           averages (CostFromRegionLoad)
 * ServerLocalityCostFunction (25) and RackLocalityCostFunction (15) come
 * after MoveCostFunction: HDFS block locality is not modelled, so their
 * cost is 0, what HBase computes when every region's data is local to
 * its server (a cluster after major compactions; a moved region's
 * locality drops in HBase until it is compacted, which is not modelled);
 * like HBase they count in sumMultiplier, so its default is HBase's 642.
 * Left out: PrimaryRegionCountSkewCostFunction, RegionReplicaHost- and
 * RegionReplicaRackCostFunction (replicas; HBase's isNeeded is false
 * without them, so they are not in its sumMultiplier either).
 *
 * hbase:meta. With hbase.master.loadbalance.bytable = false (the default)
 * BaseLoadBalancer.balanceCluster balances one ensemble of every table
 * (toEnsumbleTableLoad): when the cluster models meta (cluster.meta_server)
 * it is the walk's last region, counted in the region count vector, in
 * numRegions (MoveCostFunction's maxMoves, calculateMaxSteps) and in the
 * slop test, and the walk may move it. BalancerClusterState then knows two
 * tables: TableSkewCostFunction.cost sums a DoubleArrayCost per table, the
 * user table's counts (vector V_TABLE, meta weighing 0) and meta's table
 * of one region, whose cost is 0 (its best and worst are the same). Meta's
 * loads are 0: its own requests are not modelled.
 *
 * Region loads (StochasticLoadBalancer.updateRegionLoad). Each observation
 * (ClusterStatusChore every 60 s, and HMaster.balance before every run)
 * appends one BalancerRegionLoad per region to its history, keeping the
 * last numRegionLoadsToRemember (15); regions no longer reported are
 * forgotten. Histories are keyed by region name (table, start key,
 * regionId): here a 64-bit hash of the start key and the id, so a split's
 * daughters start new histories (the lower one keeps the start key but
 * gets a new id) and a moved region keeps its own. A load holds:
 *   readRequestsCount: HRegion's count of read requests (RegionScannerImpl
 *     .nextRaw counts one per call that returned cells: a Get of an
 *     existing row is one, a Scan one per row). The simulator counts the
 *     rows each region's read RPCs read (region->read_rows): the same,
 *     except that a scan whose rows the client filters counts the rows it
 *     read rather than those it returned.
 *   writeRequestsCount: one per mutation (row); the simulator writes one
 *     cell per write, so region->writes.
 *   Both counters start from 0 when the region opens on another server:
 *     this state keeps per region the counter values at its last (re)open
 *     and reports the difference. Moves this balancer makes reset them at
 *     the move; a region found on another server at an observation (its
 *     server left) is reset then (the requests between the two are lost).
 *   memStoreSizeMB and storefileSizeMB: HRegionServer.createRegionLoad
 *     reports sizes in whole MB, rounded by roundSize (HBASE-26609): 0
 *     bytes is 0 MB, any size below 1 MB is 1 MB, else bytes / 2^20
 *     truncated. So every non-empty region of a small simulated table
 *     weighs 1 MB. Memstore: region->memstore_bytes; store files: the
 *     region's stored bytes minus its memstore.
 * CostFromRegionLoadAsRateFunction: the mean over consecutive loads of the
 * increase, where a value below the previous one counts in full (the
 * counter restarted); 0 with fewer than two loads. CostFromRegionLoad-
 * Function: the mean of the values. A server's value is the sum of its
 * regions'. Memory: per region 48 bytes and 16 bytes per remembered load
 * (increments as uint32: exact unless a region serves over 4.29e9
 * requests in one status period), about 300 bytes with the default 15.
 *
 * The run (balanceTable; balancer_run observes first, as HMaster.balance
 * calls updateClusterMetrics before balanceCluster):
 *   sumMultiplier = the float sum of the multipliers (> 0) of the needed
 *     functions; <= 0: no run (BALANCER_NO_COSTS).
 *   needsBalance, in HBase's order: fewer than MIN_SERVER_BALANCE (2)
 *     servers: no; (replicas colocated on a host or rack: never here); an
 *     idle server beside one with more than one region: yes; a server out
 *     of slop: yes (table isolation is off by default); (conditionals:
 *     none by default); total / sumMultiplier < minCostNeedBalance
 *     (0.025f): no; else yes.
 *   Steps (calculateMaxSteps): regions * stepsPerRegion * servers, at most
 *     maxSteps (1000000) unless runMaxSteps, then at least maxSteps.
 *     maxRunningTime (30 s of wall clock) is left out so runs are
 *     deterministic: the walk always takes every step.
 *   Generators (createCandidateGenerators without replica distribution):
 *     Random, Load, LocalityBased, RegionReplica, RegionReplicaRack. Their
 *     weights are the costs of the functions that favour them: Load gets
 *     RegionCountSkew's, LocalityBased the locality functions' (left out:
 *     0), the replica ones the replica functions' (0), Random everyone
 *     else's. getRandomGenerator picks one with probability proportional
 *     to its weight (HBase walks a shuffled list of the generators with
 *     one nextDouble; with only two weights > 0 the order changes nothing
 *     but ties at exactly 0); all weights 0: any generator, and then no
 *     action can lower a zero cost, so the step is skipped.
 *     RandomCandidateGenerator: two distinct random servers;
 *     LoadCandidateGenerator: a most loaded server and a least loaded other
 *     one by region count, uniformly among ties. pickRandomRegions: the
 *     server with more regions always gives one, the other one with chance
 *     1/2 (a swap), an empty server none.
 *   Accept rule: keep the action when currentCost - newCost > max(ulp
 *     (currentCost), ulp(newCost)), else undo it. The plan moves every
 *     region not on its first server, if the final cost is below the first.
 * Randomness comes only from cfg->random: below() for Random.nextInt,
 * unit() for nextFloat/nextDouble, in HBase's order of draws.
 *
 * Speed and exactness. A candidate is costed in O(1) per function: each
 * per-server vector keeps its sum of squared deviations from the mean,
 * which a shift of d from server a to b changes by 2d(x_b - x_a) + 2d^2;
 * the move count changes by the regions leaving or reaching their first
 * server; the most and least loaded servers come from servers kept sorted
 * by region count in buckets. HBase recomputes each touched function in
 * O(servers) per step; the values agree up to rounding (the deviation sums
 * are recomputed from the vectors whenever they fell 16-fold, and every
 * `servers` accepted moves), and the costs reported before and after the
 * run are recomputed from scratch as HBase computes them: each server's
 * value summed over its regions in region order, DoubleArrayCost over the
 * servers in index order (tests/test_balancer_stochastic.c holds these to
 * HBase's own values, computed by the real classes, within 1e-12).
 * Measured (debugoptimized, 2 cores): 1,000 servers x 100,000 regions, a
 * tenth of them on one server: a run of 1,000,000 steps 0.18 s, an
 * observation 6 ms; 10,000 servers x 1,000,000 regions: 0.73 s and 67 ms.
 */
#include "core/balancer_impl.h"
#include "core/balancer_loads.h"

#include <assert.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_MOVES 600         /* MoveCostFunction */
#define MOVES_OVER_CAP_COST 1000000.0 /* MoveCostFunction: "much greater than any other" */
#define NO_REGION UINT32_MAX

/* ---- Java arithmetic ------------------------------------------------- */

/* Math.ulp: the distance to the next double away from zero. The next
 * double above a finite |x| is the one whose bits are one more (IEEE 754
 * orders non-negative doubles as their bit patterns), which is
 * nextafter(|x|, +inf) without the library call: this is on the walk's
 * every step. */
static inline double java_ulp(double x)
{
    x = fabs(x);
    if (isinf(x))
        return INFINITY;
    if (x == DBL_MAX)
        return ldexp(1.0, 971);
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits++;
    double next;
    memcpy(&next, &bits, sizeof next);
    return next - x;
}

/* Java's Math.max and Math.min where neither side can be NaN (the walk's
 * costs and bounds): plain comparisons, no library calls. */
static inline double max2(double a, double b) { return a >= b ? a : b; }
static inline double min2(double a, double b) { return a <= b ? a : b; }

/* Java's (int) of a double: truncation, saturating, NaN -> 0. */
static double java_int(double v)
{
    if (isnan(v))
        return 0;
    if (v >= 2147483647.0)
        return 2147483647.0;
    if (v <= -2147483648.0)
        return -2147483648.0;
    return trunc(v);
}

/* ---- CostFunction.scale, DoubleArrayCost ----------------------------- */

static double scale(double min, double max, double value)
{
    double eps = java_ulp(max);
    if (max <= min || value <= min || fabs(max - min) <= eps || fabs(value - min) <= eps)
        return 0;
    return max2(0.0, min2(1.0, (value - min) / (max - min)));
}

/* DoubleArrayCost.getMinSkew: every server within one unit of the mean. */
static double min_skew(double total, double n)
{
    if (n == 0)
        return 0;
    double mean = total / n, min;
    if (n > total) {
        min = (n - total) * mean * mean + (1 - mean) * (1 - mean) * total;
    } else {
        double high = java_int(total - floor(mean) * n);
        double low = java_int(n - high);
        min = high * (ceil(mean) - mean) * (ceil(mean) - mean)
            + low * (mean - floor(mean)) * (mean - floor(mean));
    }
    return sqrt(min);
}

/* DoubleArrayCost.getMaxSkew: everything on one server. */
static double max_skew(double total, double n)
{
    if (n == 0)
        return 0;
    double mean = total / n;
    return sqrt((total - mean) * (total - mean) + (n - 1) * mean * mean);
}

/* DoubleArrayCost.computeCost, summing in index order as HBase does; also
 * returns the sum of squared deviations and the total. */
static double array_cost(const double *x, size_t n, double *dev_out, double *total_out)
{
    double total = 0, dev = 0;
    for (size_t i = 0; i < n; i++)
        total += x[i];
    double mean = total / (double)n;
    for (size_t i = 0; i < n; i++)
        dev += (mean - x[i]) * (mean - x[i]);
    if (dev_out)
        *dev_out = dev;
    if (total_out)
        *total_out = total;
    if (n == 0)
        return 0;
    return scale(min_skew(total, (double)n), max_skew(total, (double)n), sqrt(dev));
}

double balancer_array_cost(const double *stats, size_t n)
{
    if (!stats || n == 0)
        return 0;
    return array_cost(stats, n, NULL, NULL);
}

/* ---- the cost functions ---------------------------------------------- */

/* Per-server vectors; several functions share one. */
enum { V_COUNT, V_STOREFILE, V_READ, V_WRITE, V_MEMSTORE, V_TABLE, NVEC, V_NONE = -1, V_ZERO = -2 };

/* In StochasticLoadBalancer.createCostFunctions' order. */
enum {
    F_REGION_COUNT, F_MOVE, F_SERVER_LOCALITY, F_RACK_LOCALITY, F_TABLE_SKEW,
    F_STOREFILE_TABLE_SKEW, F_READ, F_CP, F_WRITE, F_MEMSTORE, F_STOREFILE, NFUNC
};

static const struct {
    const char *name;
    int vec;             /* its vector; V_NONE: the move cost; V_ZERO: always 0 */
    int load_generator;  /* its cost weighs the Load generator (else Random) */
} functions[NFUNC] = {
    [F_REGION_COUNT] = { "RegionCountSkewCostFunction", V_COUNT, 1 },
    [F_MOVE] = { "MoveCostFunction", V_NONE, 0 },
    /* Locality is not modelled: every region's data is local to its
     * server (and one rack holds them all), the cost HBase computes then
     * (bestLocality 0 or locality 1: cost 0). They still count in
     * sumMultiplier, as they do in HBase (isNeeded is true). Their cost
     * weighs HBase's Locality generator, which at 0 is never picked. */
    [F_SERVER_LOCALITY] = { "ServerLocalityCostFunction", V_ZERO, 0 },
    [F_RACK_LOCALITY] = { "RackLocalityCostFunction", V_ZERO, 0 },
    [F_TABLE_SKEW] = { "TableSkewCostFunction", V_COUNT, 0 }, /* V_TABLE with meta: vec_of */
    [F_STOREFILE_TABLE_SKEW] = { "StoreFileTableSkewCostFunction", V_STOREFILE, 0 },
    [F_READ] = { "ReadRequestCostFunction", V_READ, 0 },
    [F_CP] = { "CPRequestCostFunction", V_ZERO, 0 },
    [F_WRITE] = { "WriteRequestCostFunction", V_WRITE, 0 },
    [F_MEMSTORE] = { "MemStoreSizeCostFunction", V_MEMSTORE, 0 },
    [F_STOREFILE] = { "StoreFileCostFunction", V_STOREFILE, 0 },
};

/* The configured multipliers, as HBase's floats. */
static void multipliers(const stochastic_config *s, double m[NFUNC])
{
    const double raw[NFUNC] = {
        [F_REGION_COUNT] = s->region_count_cost, [F_MOVE] = s->move_cost,
        [F_SERVER_LOCALITY] = s->server_locality_cost, [F_RACK_LOCALITY] = s->rack_locality_cost,
        [F_TABLE_SKEW] = s->table_skew_cost,
        [F_STOREFILE_TABLE_SKEW] = s->storefile_table_skew_cost,
        [F_READ] = s->read_request_cost, [F_CP] = s->cp_request_cost,
        [F_WRITE] = s->write_request_cost, [F_MEMSTORE] = s->memstore_size_cost,
        [F_STOREFILE] = s->storefile_size_cost,
    };
    for (int f = 0; f < NFUNC; f++) {
        float v = (float)raw[f];
        m[f] = v > 0 ? (double)v : 0; /* addCostFunction keeps multiplier > 0 only */
    }
}

/* sumMultiplier: a float sum, in order, of the functions kept. */
static float multiplier_sum(const double m[NFUNC])
{
    float sum = 0;
    for (int f = 0; f < NFUNC; f++)
        if (m[f] > 0)
            sum += (float)m[f];
    return sum;
}

/* ---- the walk's state -------------------------------------------------- */

typedef struct vec_state {
    int used;                 /* some kept function reads it */
    double *rv;               /* per region (NULL for V_COUNT: 1 each; V_TABLE: 1, meta 0) */
    double *x;                /* per server */
    double mean, dev, dev_ref, min, max, cost;
} vec_state;

typedef struct walk {
    const balancer_config *cfg;
    uint32_t nservers;
    size_t nregions;                 /* the table's, and hbase:meta last when modelled */
    size_t meta;                     /* meta's index (nregions - 1), or SIZE_MAX */
    int table_vec;                   /* TableSkewCostFunction's vector: V_COUNT, V_TABLE */
    double mult[NFUNC];
    double cost[NFUNC];
    vec_state v[NVEC];
    uint32_t *initial, *server_of;   /* per region */
    uint32_t *pos;                   /* per region: its place in its server's list */
    uint32_t **list, *len, *cap;     /* per server: its regions (regionsPerServer) */
    /* Servers sorted by region count: sorted[] ascending, spos[] inverse,
     * bstart[k] = first place in sorted[] with count >= k (k <= regions + 1). */
    uint32_t *sorted, *spos, *bstart;
    size_t moved;                    /* numMovedRegions */
    double max_moves;                /* MoveCostFunction's maxMoves */
    double weight_random, weight_load;
    size_t accepted;
} walk;

static void walk_free(walk *w)
{
    for (int k = 0; k < NVEC; k++) {
        free(w->v[k].rv);
        free(w->v[k].x);
    }
    for (uint32_t s = 0; w->list && s < w->nservers; s++)
        free(w->list[s]);
    free(w->list);
    free(w->len);
    free(w->cap);
    free(w->initial);
    free(w->server_of);
    free(w->pos);
    free(w->sorted);
    free(w->spos);
    free(w->bstart);
}

/* The vector function f reads: TableSkewCostFunction sums a DoubleArrayCost
 * per table; with meta, the user table's counts (V_TABLE) plus meta's own
 * table, one region, whose cost is always 0 (best and worst are one). */
static int vec_of(const walk *w, int f)
{
    return f == F_TABLE_SKEW ? w->table_vec : functions[f].vec;
}

static double rval(const walk *w, int k, uint32_t r)
{
    return w->v[k].rv ? w->v[k].rv[r] : 1.0;
}

static int list_push(walk *w, uint32_t s, uint32_t r)
{
    if (w->len[s] == w->cap[s]) {
        uint32_t cap = w->cap[s] ? 2 * w->cap[s] : 4;
        uint32_t *l = realloc(w->list[s], cap * sizeof *l);
        if (!l)
            return -1;
        w->list[s] = l;
        w->cap[s] = cap;
    }
    w->pos[r] = w->len[s];
    w->list[s][w->len[s]++] = r;
    return 0;
}

static void list_remove(walk *w, uint32_t s, uint32_t r)
{
    uint32_t p = w->pos[r], last = w->list[s][--w->len[s]];
    w->list[s][p] = last;
    w->pos[last] = p;
}

/* Exact costs from scratch, as HBase's prepare computes them: each server's
 * value summed over its regions in region order, then DoubleArrayCost. */
static void walk_exact(walk *w)
{
    for (int k = 0; k < NVEC; k++) {
        vec_state *v = &w->v[k];
        if (!v->used)
            continue;
        memset(v->x, 0, w->nservers * sizeof *v->x);
        for (size_t r = 0; r < w->nregions; r++)
            v->x[w->server_of[r]] += rval(w, k, (uint32_t)r);
        double total;
        v->cost = array_cost(v->x, w->nservers, &v->dev, &total);
        v->mean = total / (double)w->nservers;
        v->min = min_skew(total, (double)w->nservers);
        v->max = max_skew(total, (double)w->nservers);
        v->dev_ref = v->dev;
    }
}

/* The deviation sums again from the per-server values (O(servers)). */
static void walk_refresh_dev(walk *w)
{
    for (int k = 0; k < NVEC; k++) {
        vec_state *v = &w->v[k];
        if (!v->used)
            continue;
        double dev = 0;
        for (uint32_t s = 0; s < w->nservers; s++)
            dev += (v->mean - v->x[s]) * (v->mean - v->x[s]);
        v->dev = v->dev_ref = dev;
        v->cost = scale(v->min, v->max, sqrt(dev));
    }
}

/* MoveCostFunction.cost for `moved` regions off their first server. */
static double move_cost(const walk *w, size_t moved)
{
    if ((double)moved > w->max_moves)
        return MOVES_OVER_CAP_COST;
    return scale(0, fmin((double)w->nregions, w->max_moves), (double)moved);
}

/* computeCost: the weighted total in function order, and the generator
 * weights (updateWeight) of these costs. */
static double total_of(walk *w, const double cost[NFUNC], int set_weights)
{
    double total = 0, random = 0, load = 0;
    for (int f = 0; f < NFUNC; f++) {
        if (w->mult[f] <= 0)
            continue;
        total += w->mult[f] * cost[f];
        if (functions[f].load_generator)
            load += cost[f];
        else
            random += cost[f];
    }
    if (set_weights) {
        w->weight_random = random;
        w->weight_load = load;
    }
    return total;
}

/* Every function's cost from the vectors' current state. */
static double walk_costs(walk *w)
{
    for (int f = 0; f < NFUNC; f++) {
        int k = vec_of(w, f);
        w->cost[f] = k >= 0 ? w->v[k].cost : k == V_NONE ? move_cost(w, w->moved) : 0;
    }
    return total_of(w, w->cost, 1);
}

static int walk_init(walk *w, const balancer_config *cfg, const stochastic_state *s,
                     const cluster *c, const uint32_t *initial)
{
    memset(w, 0, sizeof *w);
    size_t T = regionmap_count(c->map), R = cluster_balanced_regions(c);
    uint32_t S = c->nservers;
    w->cfg = cfg;
    w->nregions = R;
    w->meta = R > T ? T : SIZE_MAX;
    w->table_vec = R > T ? V_TABLE : V_COUNT;
    w->nservers = S;
    multipliers(&cfg->stochastic, w->mult);
    for (int f = 0; f < NFUNC; f++)
        if (w->mult[f] > 0 && vec_of(w, f) >= 0)
            w->v[vec_of(w, f)].used = 1;
    int ok = R < UINT32_MAX;
    for (int k = 0; ok && k < NVEC; k++) {
        if (!w->v[k].used)
            continue;
        w->v[k].x = calloc(S, sizeof(double));
        if (k != V_COUNT)
            w->v[k].rv = malloc((R ? R : 1) * sizeof(double));
        ok = w->v[k].x && (k == V_COUNT || w->v[k].rv);
    }
    w->initial = malloc((R ? R : 1) * sizeof *w->initial);
    w->server_of = malloc((R ? R : 1) * sizeof *w->server_of);
    w->pos = malloc((R ? R : 1) * sizeof *w->pos);
    w->list = calloc(S, sizeof *w->list);
    w->len = calloc(S, sizeof *w->len);
    w->cap = calloc(S, sizeof *w->cap);
    w->sorted = malloc(S * sizeof *w->sorted);
    w->spos = malloc(S * sizeof *w->spos);
    w->bstart = calloc(R + 2, sizeof *w->bstart);
    if (!ok || !w->initial || !w->server_of || !w->pos || !w->list || !w->len || !w->cap ||
        !w->sorted || !w->spos || !w->bstart)
        goto fail;
    for (size_t r = 0; r < R; r++) {
        uint32_t srv = r < T ? regionmap_get(c->map, r)->server : c->meta_server;
        w->server_of[r] = srv;
        w->initial[r] = initial && r < T ? initial[r] : srv;
        w->moved += w->initial[r] != srv;
        if (list_push(w, srv, (uint32_t)r) < 0)
            goto fail;
        double vals[NVEC] = { 1, 0, 0, 0, 0, r < T }; /* meta: no loads here */
        region_load_values lv;
        if (s && r < T && region_loads_values(s, c, r, &lv)) {
            vals[V_READ] = lv.read;
            vals[V_WRITE] = lv.write;
            vals[V_MEMSTORE] = lv.memstore;
            vals[V_STOREFILE] = lv.storefile;
        }
        for (int k = 0; k < NVEC; k++)
            if (w->v[k].rv)
                w->v[k].rv[r] = vals[k];
    }
    /* Servers by region count: a counting sort. */
    for (uint32_t srv = 0; srv < S; srv++)
        w->bstart[w->len[srv] + 1]++;
    for (size_t k = 1; k <= R + 1; k++)
        w->bstart[k] += w->bstart[k - 1];
    {
        uint32_t *fill = malloc((R + 2) * sizeof *fill);
        if (!fill)
            goto fail;
        memcpy(fill, w->bstart, (R + 2) * sizeof *fill);
        for (uint32_t srv = 0; srv < S; srv++) {
            uint32_t p = fill[w->len[srv]]++;
            w->sorted[p] = srv;
            w->spos[srv] = p;
        }
        free(fill);
    }
    /* MoveCostFunction: maxMoves = max((int) (numRegions * maxMovesPercent), 600),
     * a float product. */
    float pct = (float)cfg->stochastic.max_move_percent;
    w->max_moves = fmax(java_int((double)((float)R * pct)), DEFAULT_MAX_MOVES);
    walk_exact(w);
    walk_costs(w);
    return 0;
fail:
    walk_free(w);
    return -1;
}

/* ---- actions ----------------------------------------------------------- */

typedef enum { ACT_NULL, ACT_MOVE, ACT_SWAP } act_kind;

/* MOVE: r1 from `from` to `to`. SWAP: r1 (on from) and r2 (on to) trade. */
typedef struct action {
    act_kind kind;
    uint32_t r1, r2, from, to;
} action;

static long moved_change(const walk *w, uint32_t r, uint32_t from, uint32_t to)
{
    if (w->initial[r] == to)
        return -1;
    return w->initial[r] == from ? 1 : 0;
}

/* How much of vector k the action shifts from `from` to `to`. */
static double shift_of(const walk *w, const action *a, int k)
{
    double d = rval(w, k, a->r1);
    if (a->kind == ACT_SWAP)
        d -= rval(w, k, a->r2);
    return d;
}

/* The candidate's costs, in O(1) per function; dev[] gets each vector's
 * new deviation sum. Returns the new weighted total. */
static double candidate(walk *w, const action *a, double cost[NFUNC], double dev[NVEC])
{
    double vcost[NVEC];
    for (int k = 0; k < NVEC; k++) {
        vec_state *v = &w->v[k];
        dev[k] = v->dev;
        vcost[k] = v->cost;
        if (!v->used)
            continue;
        double d = shift_of(w, a, k);
        if (d == 0)
            continue;
        dev[k] = v->dev + 2 * d * (v->x[a->to] - v->x[a->from]) + 2 * d * d;
        vcost[k] = scale(v->min, v->max, sqrt(dev[k] > 0 ? dev[k] : 0));
    }
    long change = moved_change(w, a->r1, a->from, a->to);
    if (a->kind == ACT_SWAP)
        change += moved_change(w, a->r2, a->to, a->from);
    double mc = move_cost(w, (size_t)((long)w->moved + change));
    for (int f = 0; f < NFUNC; f++) {
        int k = vec_of(w, f);
        cost[f] = k >= 0 ? vcost[k] : k == V_NONE ? mc : 0;
    }
    return total_of(w, cost, 0);
}

/* Region counts: server s gains (+1) or loses (-1) a region in the sorted
 * buckets. */
static void count_change(walk *w, uint32_t s, int up)
{
    uint32_t c = w->len[s], p = w->spos[s];
    uint32_t q = up ? w->bstart[c + 1] - 1 : w->bstart[c];
    uint32_t other = w->sorted[q];
    w->sorted[q] = s;
    w->spos[s] = q;
    w->sorted[p] = other;
    w->spos[other] = p;
    if (up)
        w->bstart[c + 1]--;
    else
        w->bstart[c]++;
}

/* Moves region r to `to`: lists, counts, moved status and the vectors'
 * per-server values. */
static int walk_move(walk *w, uint32_t r, uint32_t to)
{
    uint32_t from = w->server_of[r];
    w->moved = (size_t)((long)w->moved + moved_change(w, r, from, to));
    count_change(w, from, 0);
    list_remove(w, from, r);
    count_change(w, to, 1);
    if (list_push(w, to, r) < 0)
        return -1;
    w->server_of[r] = to;
    for (int k = 0; k < NVEC; k++) {
        if (!w->v[k].used)
            continue;
        double d = rval(w, k, r);
        w->v[k].x[from] -= d;
        w->v[k].x[to] += d;
    }
    return 0;
}

/* Takes the action (already costed): O(1). */
static int walk_apply(walk *w, const action *a, const double dev[NVEC])
{
    if (walk_move(w, a->r1, a->to) < 0)
        return -1;
    if (a->kind == ACT_SWAP && walk_move(w, a->r2, a->from) < 0)
        return -1;
    int refresh = ++w->accepted % (w->nservers > 1024 ? w->nservers : 1024) == 0;
    for (int k = 0; k < NVEC; k++) {
        vec_state *v = &w->v[k];
        if (!v->used)
            continue;
        v->dev = dev[k];
        v->cost = scale(v->min, v->max, sqrt(dev[k] > 0 ? dev[k] : 0));
        /* A deviation sum that fell far carries the rounding of its larger
         * past: sum it again. */
        refresh |= v->dev < v->dev_ref / 16;
    }
    if (refresh)
        walk_refresh_dev(w);
    return 0;
}

/* ---- candidate generators ---------------------------------------------- */

static uint32_t rand_int(const walk *w, uint32_t n)
{
    return w->cfg->random.below(w->cfg->random.ctx, n);
}

static double rand_double(const walk *w)
{
    return w->cfg->random.unit(w->cfg->random.ctx);
}

/* CandidateGenerator.pickRandomRegion: NO_REGION (a move, not a swap) when
 * the server is empty or with chance `no_swap`. */
static uint32_t pick_region(const walk *w, uint32_t s, double no_swap)
{
    if (w->len[s] == 0 || rand_double(w) < no_swap)
        return NO_REGION;
    return w->list[s][rand_int(w, w->len[s])];
}

/* CandidateGenerator.pickRandomRegions and getAction. */
static action pick_regions(const walk *w, uint32_t this_s, uint32_t other_s)
{
    uint32_t this_n = w->len[this_s], other_n = w->len[other_s];
    uint32_t this_r = pick_region(w, this_s, this_n > other_n ? 0 : 0.5);
    uint32_t other_r = pick_region(w, other_s, this_n <= other_n ? 0 : 0.5);
    if (this_r != NO_REGION && other_r != NO_REGION)
        return (action){ ACT_SWAP, this_r, other_r, this_s, other_s };
    if (this_r != NO_REGION)
        return (action){ ACT_MOVE, this_r, NO_REGION, this_s, other_s };
    if (other_r != NO_REGION)
        return (action){ ACT_MOVE, other_r, NO_REGION, other_s, this_s };
    return (action){ ACT_NULL, NO_REGION, NO_REGION, 0, 0 };
}

/* RandomCandidateGenerator: pickRandomServer, pickOtherRandomServer. */
static action generate_random(const walk *w)
{
    uint32_t this_s = rand_int(w, w->nservers), other_s;
    do
        other_s = rand_int(w, w->nservers);
    while (other_s == this_s);
    return pick_regions(w, this_s, other_s);
}

/* LoadCandidateGenerator: a most loaded server, then a least loaded other
 * one, each uniformly among the servers of its region count. */
static action generate_load(const walk *w)
{
    uint32_t S = w->nservers;
    uint32_t top = w->len[w->sorted[S - 1]];
    uint32_t first = w->bstart[top];
    uint32_t most = w->sorted[first + rand_int(w, S - first)];
    uint32_t low = w->len[w->sorted[w->sorted[0] == most ? 1 : 0]];
    uint32_t lo = w->bstart[low], hi = w->bstart[low + 1];
    int skip = w->len[most] == low; /* `most` lies in [lo, hi): leave it out */
    uint32_t k = lo + rand_int(w, hi - lo - (uint32_t)skip);
    if (skip && k >= w->spos[most])
        k++;
    return pick_regions(w, most, w->sorted[k]);
}

/* getRandomGenerator + generate. */
static action next_action(const walk *w, int *skip)
{
    double sum = w->weight_random + w->weight_load;
    *skip = 0;
    if (sum == 0) {
        *skip = 1; /* any generator; no action can lower a zero cost */
        return (action){ ACT_NULL, NO_REGION, NO_REGION, 0, 0 };
    }
    if (rand_double(w) <= w->weight_random / sum)
        return generate_random(w);
    return generate_load(w);
}

/* ---- the run ------------------------------------------------------------ */

static uint64_t mul_saturating(uint64_t a, uint64_t b)
{
    return (b != 0 && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}

/* calculateMaxSteps and runMaxSteps. */
static uint64_t max_steps(const stochastic_config *s, size_t regions, uint32_t servers)
{
    uint64_t calc = mul_saturating(mul_saturating(regions, s->steps_per_region), servers);
    if (s->run_max_steps)
        return calc > s->max_steps ? calc : s->max_steps;
    return calc < s->max_steps ? calc : s->max_steps;
}

/* StochasticLoadBalancer.needsBalance (the sum of multipliers > 0). */
static int needs_balance(const balancer_config *cfg, const cluster *c, double total,
                         float sum_mult, balancer_report *report)
{
    int sloppy = balancer_sloppy_server(cfg->slop, c, 1, report); /* fills the figures */
    if (c->nservers < MIN_SERVER_BALANCE) {
        report->reason = BALANCER_FEW_SERVERS;
        return 0;
    }
    if (balancer_idle_server(c, 1)) {
        report->reason = BALANCER_IDLE_SERVER;
        return 1;
    }
    if (sloppy) {
        report->reason = BALANCER_OUT_OF_SLOP;
        return 1;
    }
    if (total / (double)sum_mult < (double)(float)cfg->stochastic.min_cost_need_balance) {
        report->reason = BALANCER_COST_LOW;
        return 0;
    }
    report->reason = BALANCER_COST_HIGH;
    return 1;
}

static void report_costs(const walk *w, balancer_report *report, int after)
{
    size_t n = 0;
    for (int f = 0; f < NFUNC && n < BALANCER_MAX_COSTS; f++) {
        if (w->mult[f] <= 0)
            continue;
        balancer_cost *bc = &report->costs[n++];
        bc->name = functions[f].name;
        bc->multiplier = w->mult[f];
        bc->after = w->cost[f];
        if (!after)
            bc->before = w->cost[f];
    }
    report->ncosts = n;
}

/* Whether `a` from cost `current` passes the walk's accept rule. */
static int improves(walk *w, const action *a, double current, double cost[NFUNC],
                    double dev[NVEC])
{
    double next = candidate(w, a, cost, dev);
    double eps = max2(java_ulp(current), java_ulp(next));
    return current - next > eps;
}

/* The actions the generators can make: every region moved to another
 * server, every two regions on different servers swapped. */
static double action_count(const walk *w)
{
    double r = (double)w->nregions, s = (double)w->nservers;
    return r * (s - 1) + r * r / 2;
}

/* Whether the walk is stuck: no action the generators can make (any
 * region of a server's list moved to another server, or swapped with a
 * region of another server) passes the accept rule from `current`. Then
 * no later step changes anything, whatever it draws. */
static int walk_stuck(walk *w, double current)
{
    if (w->weight_random + w->weight_load == 0)
        return 1; /* every step is skipped */
    double cost[NFUNC], dev[NVEC];
    for (uint32_t a = 0; a < w->nservers; a++) {
        for (uint32_t i = 0; i < w->len[a]; i++) {
            uint32_t r1 = w->list[a][i];
            for (uint32_t b = 0; b < w->nservers; b++) {
                if (b == a)
                    continue;
                action mv = { ACT_MOVE, r1, NO_REGION, a, b };
                if (improves(w, &mv, current, cost, dev))
                    return 0;
                for (uint32_t j = 0; b > a && j < w->len[b]; j++) {
                    action sw = { ACT_SWAP, r1, w->list[b][j], a, b };
                    if (improves(w, &sw, current, cost, dev))
                        return 0;
                }
            }
        }
    }
    return 1;
}

/* The walk from cost `current`, at most `steps` steps; *walked gets the
 * steps taken. It stops early when it is stuck (walk_stuck): checked
 * after a run of rejected steps as long as the check costs at most a
 * quarter of the steps left, the run doubling after each check that
 * finds a way down, so the checks cost at most about the walk's own
 * work. HBase walks every step (or until maxRunningTime); the plan is the
 * same, since a stuck walk's remaining steps change nothing: only the
 * draws they would have made are not made. Returns the final cost, or -1
 * if out of memory. */
static double walk_search(walk *w, uint64_t steps, double current, uint64_t *walked)
{
    double cost[NFUNC], dev[NVEC];
    double actions = action_count(w);
    uint64_t rejected = 0, check_at = actions < 1024 ? 1024 : (uint64_t)actions;
    *walked = steps;
    for (uint64_t step = 0; step < steps; step++) {
        int skip;
        action a = next_action(w, &skip);
        if (skip || a.kind == ACT_NULL || !improves(w, &a, current, cost, dev)) {
            if (++rejected < check_at)
                continue; /* undone: nothing was changed */
            if (!w->cfg->stochastic.walk_every_step &&
                4 * actions <= (double)(steps - step - 1) && walk_stuck(w, current)) {
                *walked = step + 1;
                break;
            }
            check_at *= 2;
            continue;
        }
        rejected = 0;
        if (walk_apply(w, &a, dev) < 0)
            return -1;
        current = walk_costs(w);
    }
    return current;
}

/* The state shared by a run and by stochastic_evaluate: costs, the sum of
 * multipliers and needsBalance's verdict. Returns -1 if out of memory,
 * 0 if no run is due (report->reason set), 1 if the walk should run. */
static int prepare(const balancer_config *cfg, const stochastic_state *s, const cluster *c,
                   const uint32_t *initial, walk *w, double *initial_cost,
                   balancer_report *report)
{
    if (walk_init(w, cfg, s, c, initial) < 0)
        return -1;
    float sum = multiplier_sum(w->mult);
    report->sum_multipliers = sum;
    *initial_cost = walk_costs(w);
    report->cost_before = report->cost_after = sum > 0 ? *initial_cost / (double)sum : 0;
    report_costs(w, report, 0);
    report->steps = max_steps(&cfg->stochastic, w->nregions, w->nservers);
    if (!(sum > 0)) {
        balancer_sloppy_server(cfg->slop, c, 1, report);
        report->reason = BALANCER_NO_COSTS;
        return 0;
    }
    return needs_balance(cfg, c, *initial_cost, sum, report);
}

int64_t stochastic_balance(const balancer_config *cfg, stochastic_state *state, cluster *c,
                           balancer_report *report)
{
    assert(cfg->random.below && cfg->random.unit);
    /* HMaster.balance: updateClusterMetrics, then balanceCluster. */
    if (stochastic_observe(state, c) < 0)
        return -1;
    walk w;
    double initial;
    int due = prepare(cfg, state, c, NULL, &w, &initial, report);
    if (due < 0)
        return -1;
    int64_t moved = 0;
    if (due) {
        report->ran = 1;
        double final = walk_search(&w, report->steps, initial, &report->steps_walked);
        if (final < 0) {
            walk_free(&w);
            return -1;
        }
        walk_exact(&w); /* the plan's costs as HBase would compute them */
        final = walk_costs(&w);
        if (initial > final) {
            report->cost_after = final / report->sum_multipliers;
            report_costs(&w, report, 1);
            for (size_t r = 0; r < w.nregions; r++) {
                if (w.server_of[r] == w.initial[r])
                    continue;
                if (r == w.meta) {
                    cluster_move_meta(c, w.server_of[r]);
                } else {
                    cluster_move(c, r, w.server_of[r]);
                    if (region_loads_note_move(state, c, r) < 0) {
                        walk_free(&w);
                        return -1;
                    }
                }
                moved++;
            }
        }
    }
    report->moves = (uint64_t)moved;
    walk_free(&w);
    return moved;
}

int stochastic_evaluate(const balancer_config *cfg, const stochastic_state *s, const cluster *c,
                        const uint32_t *initial, balancer_report *report)
{
    memset(report, 0, sizeof *report);
    report->kind = BALANCER_STOCHASTIC;
    report->servers = c->nservers;
    report->regions = cluster_balanced_regions(c);
    walk w;
    double total;
    int due = prepare(cfg, s, c, initial, &w, &total, report);
    if (due < 0)
        return -1;
    report->ran = due;
    walk_free(&w);
    return 0;
}

double stochastic_total_cost(const balancer_config *cfg, const cluster *c)
{
    stochastic_state *s = stochastic_new_detached(cfg);
    walk w;
    if (!s || stochastic_observe_detached(s, c) < 0 || walk_init(&w, cfg, s, c, NULL) < 0) {
        stochastic_free(s);
        return -1;
    }
    double total = walk_costs(&w);
    walk_free(&w);
    stochastic_free(s);
    return total;
}
