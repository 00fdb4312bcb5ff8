/* balancer.c -- HBase's SimpleLoadBalancer and StochasticLoadBalancer.
 *
 * Sources: apache/hbase, hbase-balancer/src/main/java/org/apache/hadoop/
 * hbase/master/balancer/ on the master branch (3.0.0-SNAPSHOT; the 2.5+
 * formulas): BaseLoadBalancer.java (REGIONS_SLOP_DEFAULT = 0.2,
 * MIN_SERVER_BALANCE = 2, idleRegionServerExist, sloppyRegionServerExist),
 * SimpleLoadBalancer.java (needsBalance, balanceTable), StochasticLoadBalancer
 * .java (maxSteps 1000000, stepsPerRegion 800, maxRunningTime 30 s,
 * minCostNeedBalance 0.025f -- older 2.x releases had 0.05f --, needsBalance,
 * calculateMaxSteps, balanceTable's walk, computeCost, getRandomGenerator),
 * CostFunction.java (scale), DoubleArrayCost.java (computeCost, getMinSkew,
 * getMaxSkew), RegionCountSkewCostFunction.java (500), MoveCostFunction.java
 * (7; maxMovePercent 1.0f, DEFAULT_MAX_MOVES 600), ReadRequestCostFunction
 * .java and WriteRequestCostFunction.java (5 each, rates via
 * CostFromRegionLoadAsRateFunction), StoreFileCostFunction.java (5, store
 * file size in MB via CostFromRegionLoadFunction), CandidateGenerator.java,
 * RandomCandidateGenerator.java, LoadCandidateGenerator.java; tests
 * TestDoubleArrayCost.java and TestStochasticLoadBalancer.java (testSkewCost,
 * testMoveCost). Facts only; the code is this file's own.
 *
 * Simple: unchanged region-count algorithm, O(R log R), run only when
 * needsBalance says so (see balancer.h).
 *
 * Stochastic. Each cost function is HBase's DoubleArrayCost over a
 * per-server vector: sqrt(sum (mean - x_s)^2), scaled between the minimum
 * (everyone within one unit of the mean) and the maximum (all on one
 * server) for the same total, so in [0, 1]. The vectors: region counts;
 * read and write requests, from the regions' recent_reads/recent_writes
 * (HBase averages the per-report increase over the last 15 region load
 * reports; here the counters cover the last balancer period, which the
 * engine resets after each run); store file size in MB from store_bytes
 * (HBase truncates to whole MB; here fractional, so small simulated regions
 * still count). The move cost is moved / regions, 1000000 past
 * max(regions * maxMovePercent, 600) moves (MoveCostFunction). The total is
 * sum(multiplier * cost), summed in HBase's function order. needsBalance:
 * at least 2 servers, and an idle server, or a server out of slop, or
 * total / sum(multipliers) >= minCostNeedBalance.
 *
 * The walk: min(maxSteps, regions * stepsPerRegion * servers) steps; each
 * picks a candidate generator with probability proportional to the
 * (unweighted) costs it serves (region count -> LOAD; the others, move
 * included -> RANDOM), generates a move or a swap (pickRandomRegions: the
 * fuller server always gives, the other gives with chance 1/2), and keeps
 * it only if the total cost falls. The accepted plan is applied with
 * cluster_move, in region order, only if it beats the initial cost.
 *
 * Departures: only these five cost functions (no locality, table skew,
 * memstore, coprocessor, replica functions), so sum(multipliers) is 522 by
 * default, not HBase's larger sum; no maxRunningTime (the step bound alone,
 * so runs are deterministic); no off-peak move cost. Speed: a candidate's
 * cost is found in O(1) from each vector's running sum of squared
 * deviations (a move of d from a to b changes it by 2d(x_b - x_a) + 2d^2);
 * an apparent improvement is applied and re-costed exactly in O(servers),
 * and undone if the exact cost did not fall. The per-server loads are kept
 * as exact integers, so undoing restores the exact state.
 */
#include "core/balancer_impl.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_MOVES 600.0       /* MoveCostFunction */
#define MOVES_OVER_CAP_COST 1000000.0 /* MoveCostFunction: "much greater than any other" */
#define BYTES_PER_MB 1048576.0
#define NO_REGION SIZE_MAX

/* ---- DoubleArrayCost ------------------------------------------------- */

/* CostFunction.scale: (value - min) / (max - min) clamped to [0, 1]; 0 when
 * the range or the excess is within one ulp of max. */
static double scale(double min, double max, double value)
{
    double ulp = nextafter(fabs(max), INFINITY) - fabs(max);
    if (max <= min || value <= min || fabs(max - min) <= ulp || fabs(value - min) <= ulp)
        return 0;
    double v = (value - min) / (max - min);
    return v < 0 ? 0 : v > 1 ? 1 : v;
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
        double high = trunc(total - floor(mean) * n);   /* Java's (int) */
        double low = trunc(n - high);
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

/* The summed squared deviations from the mean; *total gets the sum. */
static double deviation(const double *x, size_t n, double *total)
{
    double t = 0, d = 0;
    for (size_t i = 0; i < n; i++)
        t += x[i];
    double mean = t / (double)n;
    for (size_t i = 0; i < n; i++)
        d += (mean - x[i]) * (mean - x[i]);
    *total = t;
    return d;
}

double balancer_array_cost(const double *stats, size_t n)
{
    if (!stats || n == 0)
        return 0;
    double total, dev = deviation(stats, n, &total);
    return scale(min_skew(total, (double)n), max_skew(total, (double)n), sqrt(dev));
}

/* ---- Stochastic: state ----------------------------------------------- */

enum { F_COUNT, F_READ, F_WRITE, F_STORE, NFUNC };

typedef struct walk {
    const balancer_config *cfg;
    size_t nregions;
    uint32_t nservers;
    double mult[NFUNC], move_mult;
    uint64_t *rload[NFUNC];   /* per region (F_COUNT unused: 1 each) */
    uint64_t *sload[NFUNC];   /* per server: exact sums of rload */
    /* From the last exact costing (walk_refresh): */
    double dev[NFUNC], min_skew[NFUNC], max_skew[NFUNC], cost[NFUNC];
    double weight_random, weight_load;   /* the candidate generators' weights */
    uint32_t *initial, *server_of;
    /* Regions grouped by server: server s hosts order[start[s] .. start[s+1]),
     * pos[r] is r's place in order. */
    size_t *order, *pos, *start;
    double *scratch;          /* one value per server */
    size_t moved;             /* regions not on their initial server */
} walk;

static void walk_free(walk *w)
{
    for (int f = 0; f < NFUNC; f++) {
        free(w->rload[f]);
        free(w->sload[f]);
    }
    free(w->initial);
    free(w->server_of);
    free(w->order);
    free(w->pos);
    free(w->start);
    free(w->scratch);
}

static double unit_of(int f)
{
    return f == F_STORE ? BYTES_PER_MB : 1.0;
}

static uint64_t region_load(const walk *w, int f, size_t r)
{
    return f == F_COUNT ? 1 : w->rload[f][r];
}

static double server_value(const walk *w, int f, uint32_t s)
{
    return (double)w->sload[f][s] / unit_of(f);
}

static size_t server_count(const walk *w, uint32_t s)
{
    return w->start[s + 1] - w->start[s];
}

/* Groups the regions by server (a counting sort; regions ascending within a
 * server). */
static void walk_group(walk *w)
{
    for (uint32_t s = 0; s < w->nservers; s++)
        w->start[s + 1] = w->start[s] + (size_t)w->sload[F_COUNT][s];
    for (size_t r = w->nregions; r-- > 0;) {
        uint32_t s = w->server_of[r];
        /* start[s + 1] counts down from the end of s's block to its start. */
        size_t p = --w->start[s + 1];
        w->order[p] = r;
        w->pos[r] = p;
    }
    memmove(w->start, w->start + 1, w->nservers * sizeof *w->start);
    w->start[w->nservers] = w->nregions;
}

/* Reads c into w. Returns 0, or -1 if out of memory (w freed). */
static int walk_init(walk *w, const balancer_config *cfg, const cluster *c)
{
    memset(w, 0, sizeof *w);
    size_t R = regionmap_count(c->map), S = c->nservers;
    w->cfg = cfg;
    w->nregions = R;
    w->nservers = c->nservers;
    w->mult[F_COUNT] = cfg->stochastic.region_count_cost;
    w->mult[F_READ] = cfg->stochastic.read_request_cost;
    w->mult[F_WRITE] = cfg->stochastic.write_request_cost;
    w->mult[F_STORE] = cfg->stochastic.storefile_size_cost;
    w->move_mult = cfg->stochastic.move_cost;
    int ok = 1;
    for (int f = 0; f < NFUNC; f++) {
        w->rload[f] = f == F_COUNT ? NULL : malloc(R * sizeof *w->rload[f]);
        w->sload[f] = calloc(S, sizeof *w->sload[f]);
        ok &= (f == F_COUNT || w->rload[f]) && w->sload[f];
    }
    w->initial = malloc(R * sizeof *w->initial);
    w->server_of = malloc(R * sizeof *w->server_of);
    w->order = malloc(R * sizeof *w->order);
    w->pos = malloc(R * sizeof *w->pos);
    w->start = calloc(S + 1, sizeof *w->start);
    w->scratch = malloc(S * sizeof *w->scratch);
    if (!ok || !w->initial || !w->server_of || !w->order || !w->pos || !w->start ||
        !w->scratch) {
        walk_free(w);
        return -1;
    }
    for (size_t r = 0; r < R; r++) {
        const region *reg = regionmap_get(c->map, r);
        w->initial[r] = w->server_of[r] = reg->server;
        w->rload[F_READ][r] = reg->recent_reads;
        w->rload[F_WRITE][r] = reg->recent_writes;
        w->rload[F_STORE][r] = store_bytes(reg->rows);
        for (int f = 0; f < NFUNC; f++)
            w->sload[f][reg->server] += region_load(w, f, r);
    }
    walk_group(w);
    return 0;
}

/* MoveCostFunction.cost for `moved` regions away from their first server. */
static double move_cost_of(const walk *w, size_t moved)
{
    double regions = (double)w->nregions;
    double max_moves = fmax(trunc(regions * w->cfg->stochastic.max_move_percent), DEFAULT_MAX_MOVES);
    if ((double)moved > max_moves)
        return MOVES_OVER_CAP_COST;
    return scale(0, fmin(regions, max_moves), (double)moved);
}

/* The weighted total in HBase's cost function order (region count, move,
 * read, write, store file); functions with multiplier <= 0 are left out,
 * as StochasticLoadBalancer.addCostFunction leaves them out. */
static double weighted_total(const walk *w, const double cost[NFUNC], double move_cost)
{
    static const int order[] = { F_COUNT, -1, F_READ, F_WRITE, F_STORE };
    double total = 0;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        int f = order[i];
        double m = f < 0 ? w->move_mult : w->mult[f];
        if (m > 0)
            total += m * (f < 0 ? move_cost : cost[f]);
    }
    return total;
}

/* Costs every function exactly from the per-server vectors, refreshes the
 * generator weights (CostFunction.updateWeight: region count feeds LOAD,
 * every other function RANDOM), and returns the weighted total. */
static double walk_refresh(walk *w)
{
    for (int f = 0; f < NFUNC; f++) {
        for (uint32_t s = 0; s < w->nservers; s++)
            w->scratch[s] = server_value(w, f, s);
        double total;
        w->dev[f] = deviation(w->scratch, w->nservers, &total);
        w->min_skew[f] = min_skew(total, (double)w->nservers);
        w->max_skew[f] = max_skew(total, (double)w->nservers);
        w->cost[f] = scale(w->min_skew[f], w->max_skew[f], sqrt(w->dev[f]));
    }
    double move_cost = move_cost_of(w, w->moved);
    w->weight_load = w->mult[F_COUNT] > 0 ? w->cost[F_COUNT] : 0;
    w->weight_random = w->move_mult > 0 ? move_cost : 0;
    for (int f = F_READ; f < NFUNC; f++)
        w->weight_random += w->mult[f] > 0 ? w->cost[f] : 0;
    return weighted_total(w, w->cost, move_cost);
}

/* ---- Stochastic: actions --------------------------------------------- */

typedef enum { ACT_NONE, ACT_MOVE, ACT_SWAP } act_kind;

/* MOVE: region r1 from server `from` to `to`. SWAP: r1 (on `from`) and r2
 * (on `to`) trade servers. */
typedef struct action {
    act_kind kind;
    size_t r1, r2;
    uint32_t from, to;
} action;

/* The change in the count of moved regions when r goes from -> to. */
static long moved_change(const walk *w, size_t r, uint32_t from, uint32_t to)
{
    if (w->initial[r] == to)
        return -1;
    return w->initial[r] == from ? 1 : 0;
}

/* How much of function f's load the action shifts from `from` to `to`. */
static double action_delta(const walk *w, const action *a, int f)
{
    double d = (double)region_load(w, f, a->r1) / unit_of(f);
    if (a->kind == ACT_SWAP)
        d -= (double)region_load(w, f, a->r2) / unit_of(f);
    return d;
}

/* The weighted total after the action, from the running deviations: O(1). */
static double candidate_cost(const walk *w, const action *a)
{
    double cost[NFUNC];
    for (int f = 0; f < NFUNC; f++) {
        double d = action_delta(w, a, f);
        cost[f] = w->cost[f];
        if (w->mult[f] <= 0 || d == 0)
            continue;
        double gap = server_value(w, f, a->to) - server_value(w, f, a->from);
        double dev = w->dev[f] + 2 * d * gap + 2 * d * d;
        cost[f] = scale(w->min_skew[f], w->max_skew[f], sqrt(dev > 0 ? dev : 0));
    }
    long change = moved_change(w, a->r1, a->from, a->to);
    if (a->kind == ACT_SWAP)
        change += moved_change(w, a->r2, a->to, a->from);
    return weighted_total(w, cost, move_cost_of(w, (size_t)((long)w->moved + change)));
}

static void swap_places(walk *w, size_t p, size_t q)
{
    size_t a = w->order[p], b = w->order[q];
    w->order[p] = b;
    w->order[q] = a;
    w->pos[b] = p;
    w->pos[a] = q;
}

/* Moves region r to server `to`: its loads, its moved status, and its place
 * in the grouping (walked across the blocks in between: O(servers)). */
static void walk_move(walk *w, size_t r, uint32_t to)
{
    uint32_t s = w->server_of[r];
    w->moved = (size_t)((long)w->moved + moved_change(w, r, s, to));
    for (int f = 0; f < NFUNC; f++) {
        w->sload[f][s] -= region_load(w, f, r);
        w->sload[f][to] += region_load(w, f, r);
    }
    for (; s < to; s++) {   /* to the end of block s, then into s + 1 */
        swap_places(w, w->pos[r], w->start[s + 1] - 1);
        w->start[s + 1]--;
    }
    for (; s > to; s--) {   /* to the start of block s, then into s - 1 */
        swap_places(w, w->pos[r], w->start[s]);
        w->start[s]++;
    }
    w->server_of[r] = to;
}

static void walk_apply(walk *w, const action *a)
{
    walk_move(w, a->r1, a->to);
    if (a->kind == ACT_SWAP)
        walk_move(w, a->r2, a->from);
}

static action action_undo(const action *a)
{
    action u = *a;
    u.from = a->to;
    u.to = a->from;
    return u;
}

/* ---- Stochastic: candidate generators -------------------------------- */

/* A uniform double in [0, 1) from the engine's 64-bit source. */
static double rand_unit(const walk *w)
{
    return w->cfg->random.unit(w->cfg->random.ctx);
}

static size_t rand_below(const walk *w, size_t n)
{
    size_t k = (size_t)(rand_unit(w) * (double)n);
    return k < n ? k : n - 1;
}

/* CandidateGenerator.pickRandomRegion: NO_REGION (a move, not a swap) when
 * the server is empty or with chance `no_swap`, else one of its regions. */
static size_t pick_region(const walk *w, uint32_t s, double no_swap)
{
    size_t n = server_count(w, s);
    if (n == 0 || rand_unit(w) < no_swap)
        return NO_REGION;
    return w->order[w->start[s] + rand_below(w, n)];
}

/* CandidateGenerator.pickRandomRegions + getAction: the server with more
 * regions always gives one; the other gives one with chance 1/2 (a swap). */
static action pick_regions(const walk *w, uint32_t this_s, uint32_t other_s)
{
    size_t this_n = server_count(w, this_s), other_n = server_count(w, other_s);
    size_t this_r = pick_region(w, this_s, this_n > other_n ? 0 : 0.5);
    size_t other_r = pick_region(w, other_s, this_n <= other_n ? 0 : 0.5);
    if (this_r != NO_REGION && other_r != NO_REGION)
        return (action){ ACT_SWAP, this_r, other_r, this_s, other_s };
    if (this_r != NO_REGION)
        return (action){ ACT_MOVE, this_r, NO_REGION, this_s, other_s };
    if (other_r != NO_REGION)
        return (action){ ACT_MOVE, other_r, NO_REGION, other_s, this_s };
    return (action){ ACT_NONE, NO_REGION, NO_REGION, 0, 0 };
}

/* RandomCandidateGenerator: two distinct random servers. */
static action generate_random(const walk *w)
{
    uint32_t this_s = (uint32_t)rand_below(w, w->nservers), other_s;
    do
        other_s = (uint32_t)rand_below(w, w->nservers);
    while (other_s == this_s);
    return pick_regions(w, this_s, other_s);
}

/* The server with the most (most != 0) or fewest regions, other than
 * `exclude`, chosen uniformly among ties. */
static uint32_t pick_by_count(const walk *w, int most, uint32_t exclude)
{
    size_t best = 0, ties = 0;
    for (uint32_t s = 0; s < w->nservers; s++) {
        if (s == exclude)
            continue;
        size_t n = server_count(w, s);
        if (ties == 0 || (most ? n > best : n < best)) {
            best = n;
            ties = 1;
        } else if (n == best) {
            ties++;
        }
    }
    size_t k = rand_below(w, ties);
    for (uint32_t s = 0; s < w->nservers; s++)
        if (s != exclude && server_count(w, s) == best && k-- == 0)
            return s;
    return 0; /* unreachable: ties >= 1 */
}

/* LoadCandidateGenerator: from the most loaded server (by region count) to
 * the least loaded one. */
static action generate_load(const walk *w)
{
    uint32_t most = pick_by_count(w, 1, UINT32_MAX);
    uint32_t least = pick_by_count(w, 0, most);
    return pick_regions(w, most, least);
}

/* StochasticLoadBalancer.getRandomGenerator: a generator with probability
 * proportional to its weight; RANDOM when all weights are 0. */
static action next_action(const walk *w)
{
    double sum = w->weight_random + w->weight_load;
    if (sum == 0 || rand_unit(w) <= w->weight_random / sum)
        return generate_random(w);
    return generate_load(w);
}

/* ---- Stochastic: the run --------------------------------------------- */

static uint64_t mul_saturating(uint64_t a, uint64_t b)
{
    return (b != 0 && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}

/* StochasticLoadBalancer.needsBalance for an assignment of weighted cost
 * `total` (the multipliers summing to sum_mult > 0); sets the reason. */
static int stochastic_needs_balance(const balancer_config *cfg, const cluster *c,
                                    double total, double sum_mult, balancer_report *report)
{
    int sloppy = balancer_sloppy_server(cfg->slop, c, report);
    if (c->nservers < MIN_SERVER_BALANCE) {
        report->reason = BALANCER_FEW_SERVERS;
        return 0;
    }
    if (balancer_idle_server(c)) {
        report->reason = BALANCER_IDLE_SERVER;
        return 1;
    }
    if (sloppy) {
        report->reason = BALANCER_OUT_OF_SLOP;
        return 1;
    }
    if (total / sum_mult < cfg->stochastic.min_cost_need_balance) {
        report->reason = BALANCER_COST_LOW;
        return 0;
    }
    report->reason = BALANCER_COST_HIGH;
    return 1;
}

static double multiplier_sum(const balancer_config *cfg)
{
    const double m[] = { cfg->stochastic.region_count_cost, cfg->stochastic.move_cost,
                         cfg->stochastic.read_request_cost, cfg->stochastic.write_request_cost,
                         cfg->stochastic.storefile_size_cost };
    double sum = 0;
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        sum += m[i] > 0 ? m[i] : 0;
    return sum;
}

/* The random walk over w from cost `current`; returns the final cost. */
static double walk_search(walk *w, uint64_t steps, double current)
{
    for (uint64_t step = 0; step < steps; step++) {
        action a = next_action(w);
        if (a.kind == ACT_NONE || !(candidate_cost(w, &a) < current))
            continue;
        walk_apply(w, &a);
        double exact = walk_refresh(w);
        if (exact < current) {
            current = exact;
            continue;
        }
        action undo = action_undo(&a);   /* rounding fooled the estimate */
        walk_apply(w, &undo);
        walk_refresh(w);
    }
    return current;
}

/* The cost functions' part, for the report. */
static void report_costs(const walk *w, balancer_report *report, int after)
{
    static const char *const names[NFUNC] = {
        [F_COUNT] = "RegionCountSkewCostFunction", [F_READ] = "ReadRequestCostFunction",
        [F_WRITE] = "WriteRequestCostFunction", [F_STORE] = "StoreFileCostFunction",
    };
    report->ncosts = NFUNC;
    for (int f = 0; f < NFUNC; f++) {
        balancer_cost *bc = &report->costs[f];
        bc->name = names[f];
        bc->multiplier = w->mult[f];
        if (after)
            bc->after = w->cost[f];
        else
            bc->before = bc->after = w->cost[f];
    }
}

struct stochastic_state {
    int unused; /* the region loads it remembers: not yet modelled */
};

stochastic_state *stochastic_new(const balancer_config *cfg)
{
    (void)cfg;
    return calloc(1, sizeof(stochastic_state));
}

void stochastic_free(stochastic_state *s)
{
    free(s);
}

int stochastic_observe(stochastic_state *s, const cluster *c)
{
    (void)s, (void)c;
    return 0;
}

int64_t stochastic_balance(const balancer_config *cfg, stochastic_state *state, cluster *c,
                           balancer_report *report)
{
    (void)state;
    assert(cfg->random.unit);
    double sum_mult = multiplier_sum(cfg);
    report->sum_multipliers = sum_mult;
    if (sum_mult <= 0) {
        report->reason = BALANCER_COST_LOW;
        return 0;
    }
    walk w;
    if (walk_init(&w, cfg, c) < 0)
        return -1;
    double initial = walk_refresh(&w);
    report->cost_before = report->cost_after = initial / sum_mult;
    report_costs(&w, report, 0);
    int64_t moved = 0;
    if (stochastic_needs_balance(cfg, c, initial, sum_mult, report)) {
        report->ran = 1;
        uint64_t steps = mul_saturating(mul_saturating(w.nregions, cfg->stochastic.steps_per_region),
                                        w.nservers);
        if (steps > cfg->stochastic.max_steps)
            steps = cfg->stochastic.max_steps;
        report->steps = steps;
        double final = walk_search(&w, steps, initial);
        if (initial > final) {
            report->cost_after = final / sum_mult;
            report_costs(&w, report, 1);
        }
        for (size_t r = 0; initial > final && r < w.nregions; r++) {
            if (w.server_of[r] != w.initial[r]) {
                cluster_move(c, r, w.server_of[r]);
                moved++;
            }
        }
    }
    report->moves = (uint64_t)moved;
    walk_free(&w);
    return moved;
}

double stochastic_total_cost(const balancer_config *cfg, const cluster *c)
{
    walk w;
    if (walk_init(&w, cfg, c) < 0)
        return -1;
    double total = walk_refresh(&w);
    walk_free(&w);
    return total;
}
