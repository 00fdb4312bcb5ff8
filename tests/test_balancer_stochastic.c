/* test_balancer_stochastic.c -- HBase's StochasticLoadBalancer
 * (core/balancer_stochastic.c).
 *
 * 1. Reference values: tests/data/hbase_stochastic_costs.txt holds tables
 *    observed over time (regions splitting, counters growing and
 *    restarting) and what HBase's own cost function classes computed for
 *    them (tests/data/hbase_stochastic_costs.md says how). Each case is
 *    replayed through balancer_observe, one fresh cluster per observation
 *    with the regions' counters set as HBase's RegionMetrics report them,
 *    then every cost function, the weighted total, sumMultiplier,
 *    needsBalance's verdict and calculateMaxSteps are compared, before and
 *    after the case's moves and swaps. Tolerance: 1e-12 absolute on each
 *    function's cost (in [0, 1]) and 1e-9 on total / sumMultiplier, which
 *    reaches 1e4 when the move cost is past maxMoves (the test prints the
 *    worst difference seen: a few 1e-16, double rounding).
 * 2. Worked values: DoubleArrayCost (TestDoubleArrayCost, testSkewCost,
 *    by hand), the loads' history rules (rates, restarts after a move,
 *    splits, the 15-load window, MB rounding).
 * 3. The walk: it never raises the cost, it moves what HBase would (an
 *    idle server, a hot server), the move cost can forbid moves, it is
 *    deterministic for one random sequence, and the report is complete.
 *
 * The data directory is the first argument (meson passes tests/data).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/balancer_impl.h"
#include "tests/balancer_support.h"

static const char *data_dir = "tests/data";

/* ---- helpers ----------------------------------------------------------- */

/* splitmix64: the tests' seeded random source. */
static uint64_t test_random(void *ctx)
{
    uint64_t *state = ctx;
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint32_t test_below(void *ctx, uint32_t n)
{
    return (uint32_t)(test_random(ctx) % n);
}

static double test_unit(void *ctx)
{
    return (double)(test_random(ctx) >> 11) * (1.0 / 9007199254740992.0);
}

static balancer_config config(uint64_t *seed)
{
    balancer_config cfg;
    balancer_defaults(&cfg, BALANCER_STOCHASTIC);
    cfg.random = (balancer_random){ test_below, test_unit, seed };
    return cfg;
}


static int64_t run_once(balancer *b, cluster *c, balancer_report *report)
{
    int64_t moved = balancer_run(b, c, report);
    assert_true(moved >= 0);
    assert_int_equal(report->moves, (uint64_t)moved);
    return moved;
}

/* A report's cost of the function named `name`, or -1 if it is not there. */
static double cost_of(const balancer_report *r, const char *name, int after)
{
    for (size_t i = 0; i < r->ncosts; i++)
        if (strcmp(r->costs[i].name, name) == 0)
            return after ? r->costs[i].after : r->costs[i].before;
    return -1;
}

static void assert_balanced(const cluster *c)
{
    size_t n = regionmap_count(c->map);
    uint64_t lo = n / c->nservers, hi = lo + (n % c->nservers != 0);
    for (uint32_t s = 0; s < c->nservers; s++) {
        assert_true(c->servers[s].regions >= lo);
        assert_true(c->servers[s].regions <= hi);
        uint64_t count = 0;
        for (size_t i = 0; i < n; i++)
            count += regionmap_get(c->map, i)->server == s;
        assert_int_equal(count, c->servers[s].regions);
    }
}

/* Writes `bytes` into region i's store (cells of at most 1 GiB). */
static void store_add(cluster *c, size_t i, uint64_t bytes)
{
    region *r = regionmap_at(c->map, i);
    uint8_t zero = 0;
    keyref k = r->start_len ? region_start(r) : keyref_of(&zero, 1);
    while (bytes) {
        uint32_t cell = bytes > (1u << 30) ? (1u << 30) : (uint32_t)bytes;
        assert_int_equal(store_put(r->rows, k, cell), 0);
        bytes -= cell;
    }
}

/* ---- 1. HBase's values -------------------------------------------------- */

static const char *const fn_names[9] = {
    "RegionCountSkewCostFunction", "MoveCostFunction", "TableSkewCostFunction",
    "StoreFileTableSkewCostFunction", "ReadRequestCostFunction", "CPRequestCostFunction",
    "WriteRequestCostFunction", "MemStoreSizeCostFunction", "StoreFileCostFunction",
};

/* Every default function in StochasticLoadBalancer.createCostFunctions'
 * order (those of replicas left out: not needed without replicas). */
static const char *const hbase_order[11] = {
    "RegionCountSkewCostFunction", "MoveCostFunction", "ServerLocalityCostFunction",
    "RackLocalityCostFunction", "TableSkewCostFunction", "StoreFileTableSkewCostFunction",
    "ReadRequestCostFunction", "CPRequestCostFunction", "WriteRequestCostFunction",
    "MemStoreSizeCostFunction", "StoreFileCostFunction",
};

typedef struct ref_stats {
    size_t values, cases;
    double worst;
} ref_stats;

static void check_value(ref_stats *st, double want, double got, double tol)
{
    double err = fabs(want - got);
    if (err > st->worst)
        st->worst = err;
    st->values++;
    if (!(err <= tol)) {
        print_error("want %.17g got %.17g\n", want, got);
        fail();
    }
}

/* Checks a "before"/"after" line's costs (tokens after the head). */
static void check_costs(ref_stats *st, const balancer_report *rep, char **tok, double total)
{
    check_value(st, total / rep->sum_multipliers, rep->cost_before, 1e-9);
    for (int f = 0; f < 9; f++) {
        double got = cost_of(rep, fn_names[f], 0);
        if (strcmp(tok[f], "x") == 0) {
            assert_true(got == -1);
            continue;
        }
        check_value(st, strtod(tok[f], NULL), got, 1e-12);
    }
}

static int split_tokens(char *line, char **tok, int max)
{
    int n = 0;
    for (char *p = strtok(line, " \n"); p && n < max; p = strtok(NULL, " \n"))
        tok[n++] = p;
    return n;
}

static balancer_reason reason_named(const char *s)
{
    static const struct { const char *name; balancer_reason r; } names[] = {
        { "NO_COSTS", BALANCER_NO_COSTS }, { "FEW_SERVERS", BALANCER_FEW_SERVERS },
        { "IDLE_SERVER", BALANCER_IDLE_SERVER }, { "OUT_OF_SLOP", BALANCER_OUT_OF_SLOP },
        { "COST_LOW", BALANCER_COST_LOW }, { "COST_HIGH", BALANCER_COST_HIGH },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0)
            return names[i].r;
    fail_msg("unknown reason %s", s);
    return BALANCER_REASONS;
}

/* Builds one observation's cluster from its region lines. */
static cluster *observed_cluster(uint32_t servers, char (*lines)[256], size_t n)
{
    keyref *splits = calloc(n, sizeof *splits);
    char (*keys)[16] = calloc(n, sizeof *keys);
    assert_true(splits && keys);
    char *tok[8];
    for (size_t i = 0; i < n; i++) {
        char copy[256];
        memcpy(copy, lines[i], sizeof copy);
        assert_int_equal(split_tokens(copy, tok, 8), 8);
        if (i > 0) {
            snprintf(keys[i], sizeof keys[i], "%s", tok[1]);
            splits[i - 1] = keyref_of((const uint8_t *)keys[i], strlen(keys[i]));
        }
    }
    split_policy p = { .kind = SPLIT_DISABLED, .max_bytes = 0 };
    size_t bad;
    cluster *c = cluster_new(servers, splits, n - 1, p, &bad);
    assert_non_null(c);
    for (size_t i = 0; i < n; i++) {
        char copy[256];
        memcpy(copy, lines[i], sizeof copy);
        split_tokens(copy, tok, 8);
        region *r = regionmap_at(c->map, i);
        cluster_move(c, i, (uint32_t)strtoul(tok[3], NULL, 10));
        r->id = strtoull(tok[2], NULL, 10);
        r->read_rows = strtoull(tok[4], NULL, 10);
        r->writes = strtoull(tok[5], NULL, 10);
        uint64_t mem = strtoull(tok[6], NULL, 10) << 20, file = strtoull(tok[7], NULL, 10) << 20;
        store_add(c, i, mem + file);
        r->memstore_bytes = mem;
    }
    free(splits);
    free(keys);
    return c;
}

static void test_hbase_reference_values(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/hbase_stochastic_costs.txt", data_dir);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    ref_stats st = { 0, 0, 0 };
    char line[4096], *tok[32];
    static char rlines[2048][256];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        int nt = split_tokens(line, tok, 32);
        assert_int_equal(nt, 6);
        assert_string_equal(tok[0], "case");
        uint32_t servers = (uint32_t)atoi(tok[3]);
        int nobs = atoi(tok[5]);
        /* config m0..m8 runMaxSteps maxSteps stepsPerRegion maxMovePercent */
        assert_non_null(fgets(line, sizeof line, f));
        assert_int_equal(split_tokens(line, tok, 32), 14);
        balancer_config cfg;
        balancer_defaults(&cfg, BALANCER_STOCHASTIC);
        stochastic_config *sc = &cfg.stochastic;
        double *mult[9] = { &sc->region_count_cost, &sc->move_cost, &sc->table_skew_cost,
                            &sc->storefile_table_skew_cost, &sc->read_request_cost,
                            &sc->cp_request_cost, &sc->write_request_cost,
                            &sc->memstore_size_cost, &sc->storefile_size_cost };
        for (int i = 0; i < 9; i++)
            *mult[i] = strtod(tok[1 + i], NULL);
        /* The harness evaluated the nine functions above; the locality
         * ones (cost 0 here) are left out of these cases. */
        sc->server_locality_cost = sc->rack_locality_cost = 0;
        sc->run_max_steps = atoi(tok[10]);
        sc->max_steps = strtoull(tok[11], NULL, 10);
        sc->steps_per_region = (uint32_t)strtoul(tok[12], NULL, 10);
        sc->max_move_percent = strtod(tok[13], NULL);
        balancer *b = balancer_new(&cfg);
        assert_non_null(b);
        cluster *c = NULL;
        for (int k = 0; k < nobs; k++) {
            assert_non_null(fgets(line, sizeof line, f));
            assert_int_equal(split_tokens(line, tok, 32), 4);
            size_t n = (size_t)atoi(tok[3]);
            assert_true(n >= 1 && n <= 2048);
            for (size_t i = 0; i < n; i++)
                assert_non_null(fgets(rlines[i], sizeof rlines[i], f));
            cluster_free(c);
            c = observed_cluster(servers, rlines, n);
            assert_int_equal(balancer_observe(b, c), 0);
        }
        /* before <sum> <verdict> <reason> <steps> <total> costs... */
        assert_non_null(fgets(line, sizeof line, f));
        assert_int_equal(split_tokens(line, tok, 32), 15);
        assert_string_equal(tok[0], "before");
        balancer_report rep;
        assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &rep), 0);
        assert_true(rep.sum_multipliers == strtod(tok[1], NULL));
        assert_int_equal(rep.ran, atoi(tok[2]));
        assert_int_equal(rep.reason, reason_named(tok[3]));
        assert_int_equal(rep.steps, strtoull(tok[4], NULL, 10));
        if (rep.sum_multipliers > 0)
            check_costs(&st, &rep, tok + 6, strtod(tok[5], NULL));
        /* actions, then after <moved> <total> costs... */
        size_t n = regionmap_count(c->map);
        uint32_t *initial = malloc(n * sizeof *initial);
        assert_non_null(initial);
        for (size_t i = 0; i < n; i++)
            initial[i] = regionmap_get(c->map, i)->server;
        assert_non_null(fgets(line, sizeof line, f));
        assert_int_equal(split_tokens(line, tok, 32), 2);
        int nact = atoi(tok[1]);
        for (int a = 0; a < nact; a++) {
            assert_non_null(fgets(line, sizeof line, f));
            assert_int_equal(split_tokens(line, tok, 32), 4);
            size_t i = (size_t)atoi(tok[2]), j = (size_t)atoi(tok[3]);
            assert_true(i < n);
            if (strcmp(tok[1], "move") == 0) {
                cluster_move(c, i, (uint32_t)j);
            } else {
                uint32_t si = regionmap_get(c->map, i)->server, sj = regionmap_get(c->map, j)->server;
                cluster_move(c, i, sj);
                cluster_move(c, j, si);
            }
        }
        assert_non_null(fgets(line, sizeof line, f));
        assert_int_equal(split_tokens(line, tok, 32), 12);
        assert_string_equal(tok[0], "after");
        size_t moved = 0;
        for (size_t i = 0; i < n; i++)
            moved += regionmap_get(c->map, i)->server != initial[i];
        assert_int_equal(moved, strtoull(tok[1], NULL, 10));
        assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, initial, &rep), 0);
        if (rep.sum_multipliers > 0)
            check_costs(&st, &rep, tok + 3, strtod(tok[2], NULL));
        free(initial);
        cluster_free(c);
        balancer_free(b);
        st.cases++;
    }
    fclose(f);
    print_message("HBase reference: %zu cases, %zu values, worst difference %.3g\n", st.cases,
                  st.values, st.worst);
    assert_true(st.cases >= 100);
    assert_true(st.values >= 2000);
}

/* ---- 2. worked values ---------------------------------------------------- */

static void test_defaults_are_hbase(void **state)
{
    (void)state;
    balancer_config cfg;
    balancer_defaults(&cfg, BALANCER_STOCHASTIC);
    const stochastic_config *s = &cfg.stochastic;
    assert_int_equal(cfg.kind, BALANCER_STOCHASTIC);
    assert_true(cfg.slop == 0.2);
    assert_int_equal(s->max_steps, 1000000);
    assert_int_equal(s->steps_per_region, 800);
    assert_int_equal(s->run_max_steps, 0);
    assert_true(s->min_cost_need_balance == 0.025);
    assert_int_equal(s->region_loads, 15);
    assert_true(s->max_move_percent == 1.0); /* MoveCostFunction.DEFAULT_MAX_MOVE_PERCENT */
    assert_true(s->region_count_cost == 500);
    assert_true(s->move_cost == 7);
    assert_true(s->server_locality_cost == 25);
    assert_true(s->rack_locality_cost == 15);
    assert_true(s->table_skew_cost == 35);
    assert_true(s->storefile_table_skew_cost == 35);
    assert_true(s->read_request_cost == 5);
    assert_true(s->cp_request_cost == 5);
    assert_true(s->write_request_cost == 5);
    assert_true(s->memstore_size_cost == 5);
    assert_true(s->storefile_size_cost == 5);
    assert_null(cfg.random.below);
    assert_null(cfg.random.unit);
}

static void test_array_cost_hbase_values(void **state)
{
    (void)state;
    double v[200];
    /* TestDoubleArrayCost.testComputeCost, with its tolerance 0.01. */
    for (int i = 0; i < 100; i++)
        v[i] = 10;
    assert_float_equal(balancer_array_cost(v, 100), 0, 0.01);
    for (int i = 0; i < 100; i++)
        v[i] = 0;
    v[100] = 100;
    assert_float_equal(balancer_array_cost(v, 101), 1, 0.01);
    for (int i = 0; i < 100; i++) {
        v[i] = 0;
        v[i + 100] = 100;
    }
    assert_float_equal(balancer_array_cost(v, 200), 0.0708, 0.01);
    assert_float_equal(balancer_array_cost(v, 200),
                       sqrt(200 * 2500.0) / sqrt(9950.0 * 9950 + 199 * 2500.0), 1e-12);
    /* TestStochasticLoadBalancer.testSkewCost. */
    const double skew[][5] = { { 0, 0, 0, 0, 1 }, { 0, 0, 0, 1, 1 }, { 0, 0, 1, 1, 1 },
                               { 0, 1, 1, 1, 1 }, { 1, 1, 1, 1, 1 } };
    for (size_t k = 0; k < 5; k++)
        assert_float_equal(balancer_array_cost(skew[k], 5), 0, 0.01);
    const double worst[5] = { 10000, 0, 0, 0, 0 };
    assert_float_equal(balancer_array_cost(worst, 5), 1, 0.01);
    assert_float_equal(balancer_array_cost(NULL, 0), 0, 0);
}

static void test_array_cost_by_hand(void **state)
{
    (void)state;
    /* [3,1,0]: mean 4/3; dev 42/9; min: one server at 2, two at 1 -> 6/9;
     * max (8/3)^2 + 2 (4/3)^2 = 96/9. */
    const double a[] = { 3, 1, 0 };
    assert_float_equal(balancer_array_cost(a, 3), (sqrt(42.0) - sqrt(6.0)) / (sqrt(96.0) - sqrt(6.0)),
                       1e-12);
    const double b[] = { 4, 2, 0 };
    assert_float_equal(balancer_array_cost(b, 3), sqrt(8.0 / 24.0), 1e-12);
    const double c[] = { 1, 0, 0, 0 }; /* fewer units than servers: already the best */
    assert_float_equal(balancer_array_cost(c, 4), 0, 0);
    const double d[] = { 6, 2, 0, 0 };
    assert_float_equal(balancer_array_cost(d, 4), sqrt(24.0 / 48.0), 1e-12);
}

/* One observation: no rates yet; region counts and store files by hand. */
static void test_total_cost_of_hand_cluster(void **state)
{
    (void)state;
    uint64_t seed = 1;
    const uint64_t counts[] = { 3, 1, 0 };
    cluster *c = cluster_with(3, 4, counts, NULL);
    cluster_move(c, 3, 2); /* counts [3,0,1] */
    balancer_config cfg = config(&seed);
    /* Store files: regions 1 and 2 (rs0) and 3 (rs2) 1 MiB each: [2,0,1]. */
    store_add(c, 1, 1u << 20);
    store_add(c, 2, 1u << 20);
    store_add(c, 3, 1u << 20);
    double count_cost = (sqrt(42.0) - sqrt(6.0)) / (sqrt(96.0) - sqrt(6.0));
    double file_cost = sqrt(2.0 / 6.0);
    assert_float_equal(balancer_total_cost(&cfg, c),
                       (500 + 35) * count_cost + (35 + 5) * file_cost, 1e-9);
    /* A store below 1 MB reports 1 MB (roundSize): region 0 joins [3,0,1]. */
    store_add(c, 0, 100);
    const double files[] = { 3, 0, 1 };
    assert_float_equal(balancer_total_cost(&cfg, c),
                       (500 + 35) * count_cost + 40 * balancer_array_cost(files, 3), 1e-9);
    /* Each function alone, by its multiplier. */
    balancer_config only = cfg;
    stochastic_config *s = &only.stochastic;
    s->region_count_cost = s->move_cost = s->table_skew_cost = s->storefile_table_skew_cost = 0;
    s->server_locality_cost = s->rack_locality_cost = 0;
    s->read_request_cost = s->cp_request_cost = s->write_request_cost = 0;
    s->memstore_size_cost = s->storefile_size_cost = 0;
    assert_float_equal(balancer_total_cost(&only, c), 0, 0);
    s->storefile_size_cost = 1;
    assert_float_equal(balancer_total_cost(&only, c), balancer_array_cost(files, 3), 1e-12);
    cluster_free(c);
}

/* Read rates: the mean increase between loads, a fall counting in full. */
static void test_rates_from_history(void **state)
{
    (void)state;
    uint64_t seed = 1;
    balancer_config cfg = config(&seed);
    balancer *b = balancer_new(&cfg);
    const uint64_t counts[] = { 1, 1, 1 };
    cluster *c = cluster_with(3, 3, counts, NULL);
    /* region 0: 0, 100, 300, 250 (fell: +250) -> (100+200+250)/3
     * region 1: 5, 5, 5, 5 -> 0; region 2: 0, 30, 60, 90 -> 30 */
    const uint64_t r0[] = { 0, 100, 300, 250 }, r1[] = { 5, 5, 5, 5 }, r2[] = { 0, 30, 60, 90 };
    for (int k = 0; k < 4; k++) {
        regionmap_at(c->map, 0)->read_rows = r0[k];
        regionmap_at(c->map, 1)->read_rows = r1[k];
        regionmap_at(c->map, 2)->read_rows = r2[k];
        regionmap_at(c->map, 0)->writes = 7 * (uint64_t)k;
        assert_int_equal(balancer_observe(b, c), 0);
        balancer_report rep;
        assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &rep), 0);
        if (k == 0) /* one load: no rate */
            assert_true(cost_of(&rep, "ReadRequestCostFunction", 0) == 0);
    }
    balancer_report rep;
    assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &rep), 0);
    const double reads[] = { 550.0 / 3, 0, 30 };
    assert_float_equal(cost_of(&rep, "ReadRequestCostFunction", 0), balancer_array_cost(reads, 3),
                       1e-12);
    const double writes[] = { 7, 0, 0 };
    assert_float_equal(cost_of(&rep, "WriteRequestCostFunction", 0),
                       balancer_array_cost(writes, 3), 1e-12);
    assert_true(cost_of(&rep, "CPRequestCostFunction", 0) == 0);
    assert_float_equal(rep.sum_multipliers, 642, 0);
    balancer_free(b);
    cluster_free(c);
}

/* numRegionLoadsToRemember: only the last 15 loads count. */
static void test_fifteen_loads(void **state)
{
    (void)state;
    uint64_t seed = 1;
    balancer_config cfg = config(&seed);
    balancer *b = balancer_new(&cfg);
    const uint64_t counts[] = { 1, 1 };
    cluster *c = cluster_with(2, 2, counts, NULL);
    /* Region 0's writes grow by k at load k (k = 0..19): the last 15 loads
     * are k = 5..19, their 14 increases k = 6..19, mean 12.5. Its store
     * files are k MB: mean of 5..19 = 12. */
    uint64_t w = 0;
    for (uint64_t k = 0; k < 20; k++) {
        w += k;
        region *r = regionmap_at(c->map, 0);
        r->writes = w;
        store_free(r->rows);
        r->rows = store_new();
        assert_non_null(r->rows);
        store_add(c, 0, k << 20);
        assert_int_equal(balancer_observe(b, c), 0);
    }
    balancer_report rep;
    assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &rep), 0);
    const double writes[] = { 12.5, 0 }, files[] = { 12, 0 };
    assert_float_equal(cost_of(&rep, "WriteRequestCostFunction", 0), balancer_array_cost(writes, 2),
                       1e-12);
    assert_float_equal(cost_of(&rep, "StoreFileCostFunction", 0), balancer_array_cost(files, 2), 1e-12);
    /* Three servers make the vectors' costs differ from 0 and 1. */
    balancer_free(b);
    cluster_free(c);
    b = balancer_new(&cfg);
    const uint64_t three[] = { 1, 1, 1 };
    c = cluster_with(3, 3, three, NULL);
    w = 0;
    for (uint64_t k = 0; k < 20; k++) {
        w += k;
        regionmap_at(c->map, 0)->writes = w;
        regionmap_at(c->map, 1)->writes = 3 * k;
        assert_int_equal(balancer_observe(b, c), 0);
    }
    assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &rep), 0);
    const double w3[] = { 12.5, 3, 0 };
    assert_float_equal(cost_of(&rep, "WriteRequestCostFunction", 0), balancer_array_cost(w3, 3), 1e-12);
    balancer_free(b);
    cluster_free(c);
}

/* Loads kept a byte a value (balancer_loads.c) until one needs more: a
 * ring that widens mid-way, wraps and takes idle loads after gives the
 * same means as one held wide throughout. */
static void test_loads_widen_exactly(void **state)
{
    (void)state;
    uint64_t seed = 1;
    balancer_config cfg = config(&seed);
    balancer *b = balancer_new(&cfg);
    const uint64_t counts[] = { 1, 1, 1 };
    cluster *c = cluster_with(3, 3, counts, NULL);
    /* Region 0: +10 writes at loads 1..9, +1000 and 300 MB of store files
     * at load 10, unchanged (idle) at 11..19. The last 15 loads are 5..19:
     * increases 4 x 10 + 1000 = 1040 over 14 steps; files 5 x 0 + 10 x 300
     * MB over 15. Region 1: +255 a load throughout (the widest narrow
     * value), 255 MB of files. Region 2: +3 a load, past 2^32 writes from
     * load 10 on (counters wider than a narrow record's). */
    uint64_t w = 0;
    for (uint64_t k = 0; k < 20; k++) {
        if (k >= 1 && k <= 9)
            w += 10;
        if (k == 10) {
            w += 1000;
            store_add(c, 0, 300ull << 20);
        }
        if (k == 0)
            store_add(c, 1, 255ull << 20);
        regionmap_at(c->map, 0)->writes = w;
        regionmap_at(c->map, 1)->writes = 255 * k;
        regionmap_at(c->map, 2)->writes = (1ull << 32) - 30 + 3 * k;
        assert_int_equal(balancer_observe(b, c), 0);
    }
    balancer_report rep;
    assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &rep), 0);
    const double writes[] = { 1040.0 / 14, 255, 3 }, files[] = { 200, 255, 0 };
    assert_float_equal(cost_of(&rep, "WriteRequestCostFunction", 0), balancer_array_cost(writes, 3),
                       1e-12);
    assert_float_equal(cost_of(&rep, "StoreFileCostFunction", 0), balancer_array_cost(files, 3),
                       1e-12);
    balancer_free(b);
    cluster_free(c);
}

/* Memstore: a rate of whole MB, any non-empty memstore at least 1 MB. */
static void test_memstore_rate(void **state)
{
    (void)state;
    uint64_t seed = 1;
    balancer_config cfg = config(&seed);
    balancer *b = balancer_new(&cfg);
    const uint64_t counts[] = { 1, 1, 1 };
    cluster *c = cluster_with(3, 3, counts, NULL);
    /* region 0: 100 B (1 MB), 3.5 MB (3), 0 (flushed: +0) -> 2/2 = 1
     * region 1: 0, 2 MB, 5 MB -> 5/2 */
    const uint64_t m0[] = { 100, 3584u << 10, 0 }, m1[] = { 0, 2u << 20, 5u << 20 };
    for (int k = 0; k < 3; k++) {
        regionmap_at(c->map, 0)->memstore_bytes = m0[k];
        regionmap_at(c->map, 1)->memstore_bytes = m1[k];
        store_add(c, 0, m0[k]); /* keep store bytes >= memstore bytes */
        store_add(c, 1, m1[k]);
        assert_int_equal(balancer_observe(b, c), 0);
    }
    balancer_report rep;
    assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &rep), 0);
    const double mem[] = { 1, 2.5, 0 };
    assert_float_equal(cost_of(&rep, "MemStoreSizeCostFunction", 0), balancer_array_cost(mem, 3),
                       1e-12);
    balancer_free(b);
    cluster_free(c);
}

/* A split: the daughters start new histories, the parent's is forgotten. */
static void test_split_starts_new_histories(void **state)
{
    (void)state;
    uint64_t seed = 1;
    balancer_config cfg = config(&seed);
    balancer *b = balancer_new(&cfg);
    const uint64_t counts[] = { 1, 1, 1 };
    cluster *c = cluster_with(3, 3, counts, NULL);
    for (uint64_t k = 0; k < 3; k++) {
        regionmap_at(c->map, 0)->read_rows = 100 * k;
        regionmap_at(c->map, 2)->read_rows = 10 * k;
        assert_int_equal(balancer_observe(b, c), 0);
    }
    balancer_report rep;
    assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &rep), 0);
    const double before[] = { 100, 0, 10 };
    assert_float_equal(cost_of(&rep, "ReadRequestCostFunction", 0), balancer_array_cost(before, 3),
                       1e-12);
    /* Region 0 splits (both daughters on rs0, counters 0, a new id). */
    uint8_t at[5] = { 0, 0, 0, 0, 7 }; /* inside region 0: below the key 1 */
    assert_int_equal(regionmap_split(c->map, 0, keyref_of(at, 5), 999), 0);
    c->servers[0].regions++;
    regionmap_at(c->map, 0)->read_rows = 5000; /* one load only: no rate yet */
    regionmap_at(c->map, 3)->read_rows = 40;    /* region 2 moved to index 3 */
    assert_int_equal(balancer_observe(b, c), 0);
    assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &rep), 0);
    /* rs0: the daughters (one load each: no rate); rs2: region 2's loads
     * 0, 10, 20, 40 -> 40/3. */
    const double kept[] = { 0, 0, 40.0 / 3 };
    assert_float_equal(cost_of(&rep, "ReadRequestCostFunction", 0), balancer_array_cost(kept, 3),
                       1e-12);
    balancer_free(b);
    cluster_free(c);
}

/* A region reopened on another server reports counters from 0 again. */
static void test_reassigned_region_counts_from_zero(void **state)
{
    (void)state;
    uint64_t seed = 1;
    balancer_config cfg = config(&seed);
    balancer *b = balancer_new(&cfg);
    const uint64_t counts[] = { 1, 1, 1, 1 };
    cluster *c = cluster_with(4, 4, counts, NULL);
    regionmap_at(c->map, 3)->read_rows = 0;
    assert_int_equal(balancer_observe(b, c), 0);
    regionmap_at(c->map, 3)->read_rows = 5;
    assert_int_equal(balancer_observe(b, c), 0);
    /* rs3 leaves: region 3 reopens elsewhere (counts so far: 5). */
    assert_int_equal(cluster_retire_server(c, 3, 0), 0);
    regionmap_at(c->map, 3)->read_rows = 25; /* 20 since it reopened */
    assert_int_equal(balancer_observe(b, c), 0);
    balancer_report rep;
    assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &rep), 0);
    /* HBase's loads 0, 5, 0 (reset at the observation that found it moved:
     * the 20 before it are lost), so its rate is (5 + 0) / 2. */
    uint32_t s3 = regionmap_get(c->map, 3)->server;
    double reads[3] = { 0, 0, 0 };
    reads[s3] = 2.5;
    assert_float_equal(cost_of(&rep, "ReadRequestCostFunction", 0), balancer_array_cost(reads, 3),
                       1e-12);
    /* Counted from the reset on: 20 more reads give an increase of 20. */
    regionmap_at(c->map, 3)->read_rows = 45;
    assert_int_equal(balancer_observe(b, c), 0);
    assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &rep), 0);
    reads[s3] = 25.0 / 3;
    assert_float_equal(cost_of(&rep, "ReadRequestCostFunction", 0), balancer_array_cost(reads, 3),
                       1e-12);
    balancer_free(b);
    cluster_free(c);
}

/* The balancer's own moves restart the moved regions' counters. */
static void test_moved_region_counts_from_zero(void **state)
{
    (void)state;
    uint64_t seed = 11;
    balancer_config cfg = config(&seed);
    cfg.stochastic.read_request_cost = 0; /* keep the plan about counts */
    balancer *b = balancer_new(&cfg);
    cluster *c = cluster_with(2, 2, NULL, NULL); /* both on rs0: rs1 idle */
    for (size_t i = 0; i < 2; i++)
        regionmap_at(c->map, i)->read_rows = 5;
    assert_int_equal(balancer_observe(b, c), 0); /* loads: 5 */
    balancer_report rep;
    assert_int_equal(run_once(b, c, &rep), 1);   /* observes (5), moves one region */
    size_t moved = regionmap_get(c->map, 0)->server == 1 ? 0 : 1;
    assert_int_equal(regionmap_get(c->map, moved)->server, 1);
    for (size_t i = 0; i < 2; i++)
        regionmap_at(c->map, i)->read_rows += 20; /* 25 each */
    assert_int_equal(balancer_observe(b, c), 0);
    /* Kept: 5, 5, 25 -> (0 + 20) / 2 = 10. Moved: 5, 5, 20 (counted from
     * the move) -> 20 >= 5, so (0 + 15) / 2 = 7.5. */
    cfg.stochastic.read_request_cost = 5;
    assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &rep), 0);
    double reads[2];
    reads[0] = 10;
    reads[1] = 7.5;
    assert_float_equal(cost_of(&rep, "ReadRequestCostFunction", 0), balancer_array_cost(reads, 2),
                       1e-12);
    assert_true(cost_of(&rep, "ReadRequestCostFunction", 0) > 0);
    balancer_free(b);
    cluster_free(c);
}

/* ---- 3. the walk and the report ----------------------------------------- */

static void test_needs_balance_reasons(void **state)
{
    (void)state;
    uint64_t seed = 7;
    balancer_config cfg = config(&seed);
    balancer_report rep;
    /* Even: cost 0, within slop: COST_LOW, no run. */
    const uint64_t even[4] = { 2, 2, 2, 2 };
    cluster *c = cluster_with(4, 8, even, NULL);
    balancer *b = balancer_new(&cfg);
    assert_int_equal(run_once(b, c, &rep), 0);
    assert_int_equal(rep.reason, BALANCER_COST_LOW);
    assert_false(rep.ran);
    assert_true(rep.cost_before == 0);
    balancer_free(b);
    cluster_free(c);
    /* Even counts, one hot server: write skew 1, 5 / 642 < 0.025. */
    c = cluster_with(4, 8, even, NULL);
    b = balancer_new(&cfg);
    for (int k = 0; k < 3; k++) {
        regionmap_at(c->map, 0)->writes += 1000;
        regionmap_at(c->map, 1)->writes += 1000;
        assert_int_equal(balancer_observe(b, c), 0);
    }
    assert_int_equal(run_once(b, c, &rep), 0);
    assert_int_equal(rep.reason, BALANCER_COST_LOW);
    assert_float_equal(cost_of(&rep, "WriteRequestCostFunction", 0), 1, 1e-12);
    assert_float_equal(rep.cost_before, 5.0 / 642, 1e-12);
    balancer_free(b);
    cluster_free(c);
    /* One server. */
    c = cluster_with(1, 10, NULL, NULL);
    b = balancer_new(&cfg);
    assert_int_equal(run_once(b, c, &rep), 0);
    assert_int_equal(rep.reason, BALANCER_FEW_SERVERS);
    balancer_free(b);
    cluster_free(c);
    /* An idle server beside one with two regions. */
    const uint64_t idle[4] = { 2, 1, 1, 0 };
    c = cluster_with(4, 4, idle, NULL);
    b = balancer_new(&cfg);
    assert_int_equal(run_once(b, c, &rep), 1);
    assert_int_equal(rep.reason, BALANCER_IDLE_SERVER);
    assert_true(rep.ran);
    balancer_free(b);
    cluster_free(c);
    /* Out of slop: avg 10, allowed [8, 12]. */
    const uint64_t slop[4] = { 13, 10, 10, 7 };
    c = cluster_with(4, 40, slop, NULL);
    b = balancer_new(&cfg);
    assert_true(run_once(b, c, &rep) > 0);
    assert_int_equal(rep.reason, BALANCER_OUT_OF_SLOP);
    balancer_free(b);
    cluster_free(c);
    /* Within slop but costly enough: [12,12,8,8] -> 535 * cost / 642. */
    const uint64_t skewed[4] = { 12, 12, 8, 8 };
    c = cluster_with(4, 40, skewed, NULL);
    b = balancer_new(&cfg);
    assert_true(run_once(b, c, &rep) > 0);
    assert_int_equal(rep.reason, BALANCER_COST_HIGH);
    const double x[4] = { 12, 12, 8, 8 };
    assert_float_equal(rep.cost_before, (500 + 35) * balancer_array_cost(x, 4) / 642, 1e-12);
    assert_true(rep.cost_after < rep.cost_before);
    balancer_free(b);
    cluster_free(c);
    /* No function with a multiplier > 0. */
    balancer_config none = cfg;
    stochastic_config *s = &none.stochastic;
    s->region_count_cost = s->move_cost = s->table_skew_cost = s->storefile_table_skew_cost = 0;
    s->server_locality_cost = s->rack_locality_cost = 0;
    s->read_request_cost = s->cp_request_cost = s->write_request_cost = 0;
    s->memstore_size_cost = s->storefile_size_cost = 0;
    c = cluster_with(4, 4, idle, NULL);
    b = balancer_new(&none);
    assert_int_equal(run_once(b, c, &rep), 0);
    assert_int_equal(rep.reason, BALANCER_NO_COSTS);
    assert_int_equal(rep.ncosts, 0);
    balancer_free(b);
    cluster_free(c);
}

static void test_report_is_complete(void **state)
{
    (void)state;
    uint64_t seed = 42;
    balancer_config cfg = config(&seed);
    cluster *c = cluster_with(4, 20, NULL, NULL);
    balancer *b = balancer_new(&cfg);
    balancer_report rep;
    int64_t moved = run_once(b, c, &rep);
    assert_true(moved >= 15);
    assert_true(rep.ran);
    assert_int_equal(rep.kind, BALANCER_STOCHASTIC);
    assert_int_equal(rep.servers, 4);
    assert_int_equal(rep.regions, 20);
    assert_int_equal(rep.steps, 20 * 800 * 4);
    /* HBase's default sum without replicas: 500 + 7 + 25 + 15 + 35 + 35 + 5 * 5 */
    assert_float_equal(rep.sum_multipliers, 642, 0);
    assert_int_equal(rep.ncosts, 11);
    double before = 0, after = 0;
    for (size_t i = 0; i < rep.ncosts; i++) {
        assert_string_equal(rep.costs[i].name, hbase_order[i]);
        assert_true(rep.costs[i].before >= 0 && rep.costs[i].before <= 1);
        before += rep.costs[i].multiplier * rep.costs[i].before;
        after += rep.costs[i].multiplier * rep.costs[i].after;
    }
    assert_float_equal(rep.costs[0].multiplier, 500, 0);
    assert_float_equal(rep.costs[1].multiplier, 7, 0);
    assert_float_equal(before / 642, rep.cost_before, 1e-12);
    assert_float_equal(after / 642, rep.cost_after, 1e-12);
    assert_float_equal(rep.costs[2].before + rep.costs[3].after, 0, 0); /* locality: 0 */
    /* Everything on rs0: region count skew at its worst; then even. */
    assert_float_equal(rep.costs[0].before, 1, 1e-12);
    assert_float_equal(rep.costs[0].after, 0, 1e-12);
    assert_float_equal(rep.costs[1].after, (double)moved / 20, 1e-12); /* MoveCostFunction */
    assert_balanced(c);
    assert_int_equal((uint64_t)moved, c->moves);
    /* Moved regions are offline for the move pause, counted as moves. */
    balancer_free(b);
    cluster_free(c);
}

/* hbase:meta in the ensemble: its region counts in RegionCountSkew (rs0
 * with 2 of the table's regions, rs1 with 1, rs2 with meta: counts 2, 1,
 * 1, the best there is, cost 0) but not in the user table's TableSkew (2,
 * 1, 0), meta's own table costing 0; without meta both see 2, 1, 0. A run over a table all
 * on rs0 with meta there too moves regions until the counts, meta
 * included, are even, and may move meta: over seeds it does. */
static void test_meta_in_the_ensemble(void **state)
{
    (void)state;
    uint64_t seed = 7;
    balancer_config cfg = config(&seed);
    uint64_t counts[3] = { 2, 1, 0 };
    cluster *c = cluster_with(3, 3, counts, NULL);
    balancer_report rep;
    balancer *b = balancer_new(&cfg);
    assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &rep), 0);
    double table_skew = cost_of(&rep, "TableSkewCostFunction", 0);
    assert_true(cost_of(&rep, "RegionCountSkewCostFunction", 0) > 0);
    assert_float_equal(cost_of(&rep, "RegionCountSkewCostFunction", 0), table_skew, 1e-12);
    assert_int_equal(rep.regions, 3);
    assert_int_equal(rep.reason, BALANCER_IDLE_SERVER);
    cluster_place_meta(c, 2);
    assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &rep), 0);
    assert_int_equal(rep.regions, 4);
    assert_int_equal(rep.most, 2);
    assert_int_equal(rep.least, 1); /* no idle server now: meta is rs2's region */
    assert_float_equal(cost_of(&rep, "RegionCountSkewCostFunction", 0), 0, 1e-12);
    assert_float_equal(cost_of(&rep, "TableSkewCostFunction", 0), table_skew, 1e-12);
    balancer_free(b);
    cluster_free(c);

    int meta_moved = 0;
    for (uint64_t s = 1; s <= 10; s++) {
        seed = s;
        cfg = config(&seed);
        c = cluster_with(4, 11, NULL, NULL); /* 11 regions and meta on rs0: 3 each */
        cluster_place_meta(c, 0);
        b = balancer_new(&cfg);
        assert_true(run_once(b, c, &rep) > 0);
        assert_int_equal(rep.regions, 12);
        for (uint32_t k = 0; k < 4; k++)
            assert_int_equal(cluster_server_load(c, k), 3);
        meta_moved += c->meta_server != 0;
        balancer_free(b);
        cluster_free(c);
    }
    assert_true(meta_moved > 0);
}

static void test_move_cost_can_forbid_moves(void **state)
{
    (void)state;
    uint64_t seed = 3;
    balancer_config cfg = config(&seed);
    cfg.stochastic.move_cost = 1e9; /* one move of 20: 5e7 > 500 */
    cluster *c = cluster_with(4, 20, NULL, NULL);
    balancer *b = balancer_new(&cfg);
    balancer_report rep;
    assert_int_equal(run_once(b, c, &rep), 0);
    assert_true(rep.ran);
    assert_int_equal(c->servers[0].regions, 20);
    balancer_free(b);
    cluster_free(c);
}

static void test_never_increases_cost(void **state)
{
    (void)state;
    uint64_t gen = 99;
    for (int trial = 0; trial < 40; trial++) {
        uint32_t servers = 2 + (uint32_t)(test_random(&gen) % 6);
        size_t regions = 1 + (size_t)(test_random(&gen) % 40);
        cluster *c = cluster_with(servers, regions, NULL, NULL);
        uint64_t seed = (uint64_t)trial;
        balancer_config cfg = config(&seed);
        cfg.stochastic.write_request_cost = (double)(test_random(&gen) % 1000);
        cfg.stochastic.max_steps = 20000;
        balancer *b = balancer_new(&cfg);
        for (int k = 0; k < 3; k++) {
            for (size_t i = 0; i < regions; i++) {
                region *r = regionmap_at(c->map, i);
                if (k == 0)
                    cluster_move(c, i, (uint32_t)(test_random(&gen) % servers));
                r->writes += test_random(&gen) % 1000;
                r->reads += test_random(&gen) % 100;
            }
            assert_int_equal(balancer_observe(b, c), 0);
        }
        balancer_report rep;
        int64_t moved = run_once(b, c, &rep);
        assert_true(rep.cost_after <= rep.cost_before);
        if (moved > 0)
            assert_true(rep.cost_after < rep.cost_before);
        else
            assert_true(rep.cost_after == rep.cost_before);
        balancer_free(b);
        cluster_free(c);
    }
}

static void test_is_deterministic(void **state)
{
    (void)state;
    cluster *a = cluster_with(5, 37, NULL, NULL);
    cluster *b = cluster_with(5, 37, NULL, NULL);
    uint64_t seed_a = 2024, seed_b = 2024;
    balancer_config ca = config(&seed_a), cb = config(&seed_b);
    balancer *ba = balancer_new(&ca), *bb = balancer_new(&cb);
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < 37; i++) {
            regionmap_at(a->map, i)->writes += (i * 7919) % 101;
            regionmap_at(b->map, i)->writes += (i * 7919) % 101;
        }
        assert_int_equal(balancer_observe(ba, a), 0);
        assert_int_equal(balancer_observe(bb, b), 0);
    }
    balancer_report ra, rb;
    int64_t ma = run_once(ba, a, &ra), mb = run_once(bb, b, &rb);
    assert_true(ma > 0);
    assert_int_equal(ma, mb);
    for (size_t i = 0; i < 37; i++)
        assert_int_equal(regionmap_get(a->map, i)->server, regionmap_get(b->map, i)->server);
    assert_int_equal(seed_a, seed_b); /* the same draws were made */
    assert_true(ra.cost_after == rb.cost_after);
    balancer_free(ba);
    balancer_free(bb);
    cluster_free(a);
    cluster_free(b);
}

/* A walk stopped where it is stuck ends with the plan the whole walk ends
 * with: the same servers for every region, the same cost. */
static void test_stuck_walk_stops_with_the_same_plan(void **state)
{
    (void)state;
    static const struct { uint32_t servers; size_t regions; } shapes[] = {
        { 4, 12 }, { 6, 60 }, { 9, 120 },
    };
    int stopped = 0;
    for (size_t k = 0; k < 3 * sizeof shapes / sizeof *shapes; k++) {
        uint32_t ns = shapes[k % 3].servers;
        size_t nr = shapes[k % 3].regions;
        /* everything on the first servers: the walk has far to go */
        uint64_t *on = calloc(ns, sizeof *on);
        assert_non_null(on);
        on[0] = nr / 2;
        on[1] = nr - nr / 2;
        cluster *a = cluster_with(ns, nr, on, NULL);
        cluster *b = cluster_with(ns, nr, on, NULL);
        free(on);
        uint64_t seed_a = 77 + k, seed_b = 77 + k;
        balancer_config ca = config(&seed_a), cb = config(&seed_b);
        cb.stochastic.walk_every_step = 1;
        balancer *ba = balancer_new(&ca), *bb = balancer_new(&cb);
        for (int round = 0; round < 3; round++) {
            /* one hot region (a timestamp key's) and some spread load */
            for (size_t i = 0; i < nr; i++) {
                uint64_t w = i == nr - 1 ? 50000 : (i * 7919 + k) % 997;
                regionmap_at(a->map, i)->writes += w;
                regionmap_at(b->map, i)->writes += w;
            }
            assert_int_equal(balancer_observe(ba, a), 0);
            assert_int_equal(balancer_observe(bb, b), 0);
        }
        balancer_report ra, rb;
        int64_t ma = run_once(ba, a, &ra), mb = run_once(bb, b, &rb);
        assert_int_equal(ma, mb);
        for (size_t i = 0; i < nr; i++)
            assert_int_equal(regionmap_get(a->map, i)->server, regionmap_get(b->map, i)->server);
        assert_true(ra.cost_after == rb.cost_after);
        assert_int_equal(rb.steps_walked, rb.steps);
        assert_true(ra.steps_walked <= ra.steps);
        stopped += ra.steps_walked < ra.steps;
        balancer_free(ba);
        balancer_free(bb);
        cluster_free(a);
        cluster_free(b);
    }
    assert_true(stopped > 0); /* the early stop was taken */
}

static void test_hot_server_sheds_writes(void **state)
{
    (void)state;
    uint64_t seed = 5;
    balancer_config cfg = config(&seed);
    cfg.stochastic.write_request_cost = 1000; /* write skew dominates */
    const uint64_t even[4] = { 2, 2, 2, 2 };
    cluster *c = cluster_with(4, 8, even, NULL);
    balancer *b = balancer_new(&cfg);
    /* Both regions of rs0 take 1000 writes per status period. */
    for (int k = 0; k < 3; k++) {
        regionmap_at(c->map, 0)->writes += 1000;
        regionmap_at(c->map, 1)->writes += 1000;
        assert_int_equal(balancer_observe(b, c), 0);
    }
    balancer_report rep;
    assert_true(run_once(b, c, &rep) > 0);
    assert_int_equal(rep.reason, BALANCER_COST_HIGH);
    assert_int_not_equal(regionmap_get(c->map, 0)->server, regionmap_get(c->map, 1)->server);
    assert_balanced(c);
    balancer_free(b);
    cluster_free(c);
}

/* Larger clusters: the O(1) costing keeps what exact costing would. */
static void test_large_walk_matches_exact_costs(void **state)
{
    (void)state;
    uint64_t seed = 77, gen = 5;
    balancer_config cfg = config(&seed);
    cfg.stochastic.max_steps = 200000;
    const uint64_t counts[8] = { 400, 100, 100, 100, 100, 100, 50, 50 };
    cluster *c = cluster_with(8, 1000, counts, NULL);
    balancer *b = balancer_new(&cfg);
    for (int k = 0; k < 4; k++) {
        for (size_t i = 0; i < 1000; i++) {
            regionmap_at(c->map, i)->reads += test_random(&gen) % 500;
            regionmap_at(c->map, i)->writes += (i % 7 == 0) ? 3000 : test_random(&gen) % 100;
        }
        assert_int_equal(balancer_observe(b, c), 0);
    }
    balancer_report rep, check;
    int64_t moved = run_once(b, c, &rep);
    assert_true(moved > 0);
    /* The reported after-costs are those of the final assignment, costed
     * from scratch (the run's observation is the last load). */
    assert_int_equal(stochastic_evaluate(&cfg, b->stochastic, c, NULL, &check), 0);
    for (size_t i = 0; i < rep.ncosts; i++) {
        if (strcmp(rep.costs[i].name, "MoveCostFunction") == 0)
            continue; /* the check sees no move */
        assert_float_equal(rep.costs[i].after, check.costs[i].before, 1e-12);
    }
    assert_true(rep.cost_after < rep.cost_before);
    balancer_free(b);
    cluster_free(c);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        data_dir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hbase_reference_values),
        cmocka_unit_test(test_defaults_are_hbase),
        cmocka_unit_test(test_array_cost_hbase_values),
        cmocka_unit_test(test_array_cost_by_hand),
        cmocka_unit_test(test_total_cost_of_hand_cluster),
        cmocka_unit_test(test_rates_from_history),
        cmocka_unit_test(test_fifteen_loads),
        cmocka_unit_test(test_loads_widen_exactly),
        cmocka_unit_test(test_memstore_rate),
        cmocka_unit_test(test_split_starts_new_histories),
        cmocka_unit_test(test_reassigned_region_counts_from_zero),
        cmocka_unit_test(test_moved_region_counts_from_zero),
        cmocka_unit_test(test_needs_balance_reasons),
        cmocka_unit_test(test_report_is_complete),
        cmocka_unit_test(test_move_cost_can_forbid_moves),
        cmocka_unit_test(test_meta_in_the_ensemble),
        cmocka_unit_test(test_never_increases_cost),
        cmocka_unit_test(test_is_deterministic),
        cmocka_unit_test(test_stuck_walk_stops_with_the_same_plan),
        cmocka_unit_test(test_hot_server_sheds_writes),
        cmocka_unit_test(test_large_walk_matches_exact_costs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
