/* bench_floor.c -- regionsim's time per operation against two floors, for
 * the same keys, measured in one process (issue 15, "Scale").
 *
 * For each scheme (monotonic, salted, hashed and md5 by default) of the
 * default scenario (8 servers, 1,000 series writing once a second), this
 * times, on exactly the same N operations:
 *   - the routing floor: the workload's own generator and key encoder
 *     (seeded as the engine seeds them) make every key, and each key is
 *     routed over a table of 64 regions cut at the 64-quantiles of the keys
 *     themselves (core/regionmap), counting hits per region; nothing else.
 *     No simulator can do less per write and still know where it goes.
 *   - the exact-storage floor: the same keys appended, [u16 length][bytes],
 *     to one big array, sorted once (an LSD radix sort of (8-byte prefix,
 *     offset) pairs that skips the bytes all keys share, then a comparison
 *     sort inside runs of equal prefixes) and counted distinct. It keeps
 *     every key exactly, as the exact store does, but in one sort at the
 *     end, with nothing served, split or balanced on the way.
 *   - regionsim itself: engine_run of the same scenario (everything:
 *     queues, splits, balancer, windows, results), writes only and with
 *     10% of the operations turned into reads (read_fraction 0.1, the
 *     default read mix). The run's duration is N / 1000 simulated seconds,
 *     so it makes exactly the N operations the floors make (no observer:
 *     one would cost time inside the loop).
 * A short untimed check first runs the engine with an observer that hashes
 * the first keys it writes and compares them with the floors' generator:
 * "same keys" is checked, not assumed.
 *
 * Times are this process's CPU seconds (user + system, the page faults of
 * growing arrays included): steadier than wall time on a shared machine,
 * and everything here runs on one thread. Each line is the median of REPS
 * repetitions (the four runs of a scheme interleaved, so a burst of load
 * from another process hits all of them alike), with the spread of the
 * repetitions, the share of its CPU time spent in the kernel (sys) and the
 * median wall seconds of a run. The targets of issue 15 are printed as
 * pass or miss, not enforced: exact writes within 2.5x of the routing
 * floor per operation for monotonic and salted; and issue 30's: for every
 * scheme and store, 10% reads within 2x its writes-only time (a table at
 * the end: an operation's time with reads, writes-only, their ratio, and
 * a read's own time, taking writes to cost what they do writes-only), and
 * exact writes within 1.2x the exact-storage floor (each scheme's ratio
 * beside the sampled store's: that store keeps no rows, so its ratio is
 * what routing, serving and splitting cost on their own; where keys
 * repeat the floor, which sorts every put, is no lower bound: it says so).
 *
 * Store kinds: the `stores` table below is one row per store the engine
 * is run with (the scenario's `store` setting, set explicitly: a default
 * of auto could choose either). An engine without the setting keeps every
 * row exactly, so there "exact" sets nothing; "sampled" runs every
 * regionsim line with the sampled store too (the floors stay what they
 * are: exact by definition).
 *
 * Trade-offs: the floors reuse the engine's private stream numbers
 * (engine/engine_impl.h), so they follow the engine if those change (the key
 * check catches any drift). The routing floor's table is 64 even regions
 * of the keys written, not the engine's: a floor, not a replica. Memory:
 * the exact floor holds all keys plus 32 bytes a key of sort arrays
 * (about 0.5 GB at 10 million keys).
 * Usage: bench_floor [OPERATIONS [REPS [SCHEME...]]] (defaults 4000000, 3,
 * every preset scheme: workloads/keyscheme.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/regionmap.h"
#include "engine/engine_impl.h"

/* One row per store kind the engine is run with (see the top comment);
 * exact first: the routing target, exact mode's, is judged on stores[0]. */
static const char *const stores[] = { "exact", "sampled" };
#define NSTORES (sizeof stores / sizeof stores[0])

#define FLOOR_REGIONS 64
#define CHECK_KEYS 100000u

/* The lines of a scheme: the two floors, then per store regionsim writes
 * only and with reads (columns 2 + 2 st and 3 + 2 st). */
#define NCOLS (2 + 2 * NSTORES)
#define MAX_REPS 15
#define READS_TARGET 2.0 /* issue 30: 10% reads within 2x writes-only */
#define FLOOR_TARGET 1.2 /* issue 30: exact writes within 1.2x the exact floor */

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* System CPU seconds of this process (page faults, mostly). */
static double sys_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, const char *why)
{
    fprintf(stderr, "bench_floor: %s%s%s\n", what, why ? ": " : "", why ? why : "");
    exit(2);
}

/* ---- the workload's keys, made as the engine makes them ---- */

typedef struct keygen {
    keyscheme *scheme;
    keyencoder *encoder;
    pattern *workload;
    uint64_t start_ms, ops;
    uint8_t *buf;
} keygen;

static void keygen_open(keygen *g, const scenario *sc)
{
    char preset[SCENARIO_PRESET_EXPR], why[512];
    const char *expr = scenario_scheme_text(sc, 0, preset, sizeof preset, NULL);
    if (keyscheme_parse(expr, &g->scheme, why, sizeof why) < 0)
        die(expr, why);
    rng r = rng_stream(sc->seed, RNG_STREAM_KEYS); /* as engine.c's run_setup */
    g->encoder = keyencoder_new(g->scheme, rng_next(&r));
    pattern_config cfg;
    scenario_pattern_config(scenario_phase(sc, 0), &cfg);
    r = rng_stream(sc->seed, RNG_STREAM_PATTERN + 0); /* as phase_begin, phase 0 */
    g->workload = pattern_new(&cfg, rng_next(&r), why, sizeof why);
    g->buf = malloc(KEYSCHEME_MAX_KEY);
    if (!g->encoder || !g->workload || !g->buf)
        die("setting up the key generator", why);
    g->start_ms = sc->start_ms;
    g->ops = 0;
}

static void keygen_close(keygen *g)
{
    pattern_free(g->workload);
    keyencoder_free(g->encoder);
    keyscheme_free(g->scheme);
    free(g->buf);
}

/* The next key (in g->buf, valid until the next call); as engine_op sets
 * a record's time and sequence before encoding it. */
static keyref keygen_next(keygen *g)
{
    uint64_t t_us;
    record rec;
    char why[256];
    if (pattern_next(g->workload, &t_us, &rec, why, sizeof why) <= 0)
        die("the workload ended", why);
    rec.ts_ms = g->start_ms + t_us / 1000;
    rec.seq = g->ops++;
    return keyref_of(g->buf, keyencoder_encode(g->encoder, &rec, g->buf, KEYSCHEME_MAX_KEY));
}

static uint64_t fnv_keys(uint64_t h, keyref k)
{
    h = (h ^ k.len) * 0x100000001b3ull;
    for (size_t i = 0; i < k.len; i++)
        h = (h ^ k.data[i]) * 0x100000001b3ull;
    return h;
}

/* ---- the scenario ---- */

static void make_scenario(scenario *sc, const char *scheme, uint64_t ops, double read_fraction,
                          const char *store)
{
    char err[512] = "", duration[64], fraction[64];
    scenario_defaults(sc);
    sc->nschemes = 0;
    const pattern_config *ts = &sc->workload.pattern;
    uint64_t per_s = (uint64_t)ts->metrics * ts->hosts * ts->tags; /* one per series per s */
    snprintf(duration, sizeof duration, "%llums", (unsigned long long)(ops * 1000 / per_s));
    snprintf(fraction, sizeof fraction, "%g", read_fraction);
    if (scenario_add_scheme(sc, NULL, scheme) < 0 ||
        scenario_set(sc, NULL, "duration", duration, err, sizeof err) < 0 ||
        scenario_set(sc, NULL, "measure_from", "0s", err, sizeof err) < 0 || /* count all N */
        /* the regime its figures were measured in (docs/performance.md):
         * examples/classroom.ini's 4 MiB constant splits, tens of regions */
        scenario_set(sc, NULL, "size_scale", "2560", err, sizeof err) < 0 ||
        scenario_set(sc, NULL, "split_policy", "constant", err, sizeof err) < 0 ||
        scenario_set(sc, NULL, "read_fraction", fraction, err, sizeof err) < 0)
        die("setting up the scenario", err);
    int rc = scenario_set(sc, NULL, "store", store, err, sizeof err);
    if (rc == -2 && strcmp(store, "exact") == 0)
        rc = 0; /* an engine without the setting: every store is exact */
    if (rc < 0)
        die("store", err);
    if (scenario_validate(sc, err, sizeof err) < 0)
        die(scheme, err);
}

/* ---- the three kinds of run ---- */

typedef struct sample {
    double cpu, sys, wall;
    uint64_t ops, distinct;
} sample;

/* The routing floor on the 64-region table m. */
static double run_route(const scenario *sc, uint64_t n, const regionmap *m, sample *s)
{
    uint64_t hits[FLOOR_REGIONS + 1] = { 0 };
    keygen g;
    keygen_open(&g, sc);
    double c0 = cpu_now(), s0 = sys_now(), w0 = wall_now();
    for (uint64_t i = 0; i < n; i++)
        hits[regionmap_route(m, keygen_next(&g))]++;
    s->cpu = cpu_now() - c0;
    s->sys = sys_now() - s0;
    s->wall = wall_now() - w0;
    keygen_close(&g);
    uint64_t sum = 0;
    for (size_t i = 0; i <= FLOOR_REGIONS; i++)
        sum += hits[i];
    s->ops = sum;
    s->distinct = 0;
    return s->cpu;
}

typedef struct entry {
    uint64_t prefix, off;
} entry;

typedef struct keyarray {
    uint8_t *bytes;
    entry *e, *tmp;
} keyarray;

static keyref entry_key(const uint8_t *bytes, const entry *e)
{
    const uint8_t *p = bytes + e->off;
    return keyref_of(p + 2, (size_t)p[0] << 8 | p[1]);
}

/* Sorts a run of entries with equal prefixes by their whole keys:
 * insertion sort when short (as they are for these schemes), else a merge
 * sort through tmp (qsort's comparator could not reach the key bytes
 * without a global). */
static void sort_run(const uint8_t *bytes, entry *e, entry *tmp, size_t n)
{
    if (n <= 16) {
        for (size_t i = 1; i < n; i++) {
            entry x = e[i];
            size_t j = i;
            while (j > 0 && key_compare(entry_key(bytes, &e[j - 1]), entry_key(bytes, &x)) > 0) {
                e[j] = e[j - 1];
                j--;
            }
            e[j] = x;
        }
        return;
    }
    size_t h = n / 2;
    sort_run(bytes, e, tmp, h);
    sort_run(bytes, e + h, tmp, n - h);
    size_t a = 0, b = h, o = 0;
    while (a < h && b < n)
        tmp[o++] = key_compare(entry_key(bytes, &e[b]), entry_key(bytes, &e[a])) < 0 ? e[b++]
                                                                                   : e[a++];
    while (a < h)
        tmp[o++] = e[a++];
    while (b < n)
        tmp[o++] = e[b++];
    memcpy(e, tmp, n * sizeof *e);
}

/* Sorts n entries by key; returns the sorted array (k->e or k->tmp). */
static entry *sort_keys(keyarray *k, size_t n)
{
    enum { nb = 256 };
    if (n == 0)
        return k->e;
    size_t (*count)[nb] = calloc(8, sizeof *count);
    if (!count)
        die("out of memory", NULL);
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 8; b++)
            count[b][(k->e[i].prefix >> (8 * b)) & 0xff]++;
    entry *src = k->e, *dst = k->tmp;
    for (int b = 0; b < 8; b++) {
        size_t first = (k->e[0].prefix >> (8 * b)) & 0xff;
        if (count[b][first] == n)
            continue; /* every key has this byte: the pass would not move anything */
        size_t at = 0;
        for (size_t v = 0; v < nb; v++) {
            size_t c = count[b][v];
            count[b][v] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[count[b][(src[i].prefix >> (8 * b)) & 0xff]++] = src[i];
        entry *t = src;
        src = dst;
        dst = t;
    }
    free(count);
    /* equal prefixes: only keys longer than 8 bytes can still be out of order */
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && src[j].prefix == src[i].prefix)
            j++;
        if (j - i > 1)
            sort_run(k->bytes, src + i, dst, j - i);
        i = j;
    }
    return src;
}

/* The exact-storage floor. Leaves the 63 cuts of a 64-region table at the
 * keys' 64-quantiles in *cuts (key_copy'd). */
static void run_exact(const scenario *sc, uint64_t n, keyref *cuts, sample *s)
{
    keygen g;
    keygen_open(&g, sc);
    keyarray k;
    size_t maxlen = keyscheme_max_len(g.scheme) + 2;
    k.bytes = malloc(n * maxlen); /* pages are touched only as keys arrive */
    k.e = malloc(n * sizeof *k.e);
    k.tmp = malloc(n * sizeof *k.tmp);
    if (!k.bytes || !k.e || !k.tmp)
        die("out of memory for the exact floor", NULL);
    double c0 = cpu_now(), s0 = sys_now(), w0 = wall_now();
    uint64_t off = 0;
    for (uint64_t i = 0; i < n; i++) {
        keyref key = keygen_next(&g);
        uint8_t *p = k.bytes + off;
        p[0] = (uint8_t)(key.len >> 8);
        p[1] = (uint8_t)key.len;
        memcpy(p + 2, key.data, key.len);
        uint64_t prefix = 0;
        for (size_t b = 0; b < 8; b++)
            prefix = prefix << 8 | (b < key.len ? key.data[b] : 0);
        k.e[i] = (entry){ prefix, off };
        off += 2 + key.len;
    }
    entry *sorted = sort_keys(&k, n);
    uint64_t distinct = n > 0;
    for (size_t i = 1; i < n; i++)
        distinct += sorted[i].prefix != sorted[i - 1].prefix ||
                    key_compare(entry_key(k.bytes, &sorted[i]),
                                entry_key(k.bytes, &sorted[i - 1])) != 0;
    s->cpu = cpu_now() - c0;
    s->sys = sys_now() - s0;
    s->wall = wall_now() - w0;
    s->ops = n;
    s->distinct = distinct;
    if (cuts) {
        /* the quantiles of the distinct keys: strictly ascending, non-empty */
        size_t d = 0;
        uint64_t want = 1;
        for (size_t i = 0; i < n && want < FLOOR_REGIONS; i++) {
            if (i > 0 && key_compare(entry_key(k.bytes, &sorted[i]),
                                     entry_key(k.bytes, &sorted[i - 1])) == 0)
                continue;
            if (d++ == want * distinct / FLOOR_REGIONS) {
                keyref key = entry_key(k.bytes, &sorted[i]);
                cuts[want - 1] = keyref_of(key_copy(key), key.len);
                want++;
            }
        }
        if (want < FLOOR_REGIONS)
            die("fewer distinct keys than floor regions", NULL);
    }
    free(k.bytes);
    free(k.e);
    free(k.tmp);
    keygen_close(&g);
}

static void run_sim(const scenario *sc, sample *s)
{
    run_result r;
    char err[512];
    double c0 = cpu_now(), s0 = sys_now(), w0 = wall_now();
    if (engine_run(sc, 0, NULL, &r, err, sizeof err) < 0)
        die("engine_run", err);
    s->cpu = cpu_now() - c0;
    s->sys = sys_now() - s0;
    s->wall = wall_now() - w0;
    s->ops = r.writes + r.reads;
    s->distinct = r.rows;
    run_result_free(&r);
}

/* The engine's first CHECK_KEYS written keys against the generator's. */
typedef struct key_check {
    uint64_t left, hash;
} key_check;

static int hash_written(void *ctx, uint64_t t_us, const record *rec, keyref key,
                        const cluster *c, uint32_t s)
{
    (void)t_us, (void)rec, (void)c, (void)s;
    key_check *kc = ctx;
    kc->hash = fnv_keys(kc->hash, key);
    return --kc->left == 0;
}

static int same_keys(const scenario *sc)
{
    key_check kc = { CHECK_KEYS, 0xcbf29ce484222325ull };
    engine_observer obs = { .on_op = hash_written, .ctx = &kc };
    run_result r;
    char err[512];
    if (engine_run(sc, 0, &obs, &r, err, sizeof err) < 0)
        die("engine_run", err);
    run_result_free(&r);
    keygen g;
    keygen_open(&g, sc);
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint64_t i = 0; i < CHECK_KEYS; i++)
        h = fnv_keys(h, keygen_next(&g));
    keygen_close(&g);
    return kc.left == 0 && h == kc.hash;
}

/* ---- reporting ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct column {
    char name[48];
    sample s[MAX_REPS];
    double cpu, sys, wall, lo, hi; /* medians, spread of cpu */
} column;

static void summarise(column *c, int reps)
{
    double v[MAX_REPS], w[MAX_REPS], y[MAX_REPS];
    for (int i = 0; i < reps; i++)
        v[i] = c->s[i].cpu, w[i] = c->s[i].wall, y[i] = c->s[i].sys;
    qsort(v, (size_t)reps, sizeof *v, cmp_double);
    qsort(w, (size_t)reps, sizeof *w, cmp_double);
    qsort(y, (size_t)reps, sizeof *y, cmp_double);
    c->cpu = v[reps / 2];
    c->wall = w[reps / 2];
    c->sys = y[reps / 2];
    c->lo = v[0];
    c->hi = v[reps - 1];
}

static const char *verdict(double ratio, double target)
{
    return ratio <= target ? "pass" : "MISS";
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 4000000ull;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    n -= n % 1000; /* whole simulated seconds of the default's 1,000 writes/s */
    if (n < 100000 || reps < 1 || reps > MAX_REPS) {
        fprintf(stderr, "usage: bench_floor [OPERATIONS (>= 100000) [REPS (1..%d) "
                        "[SCHEME...]]]\n", MAX_REPS);
        return 2;
    }
    int nschemes = argc > 3 ? argc - 3 : (int)keyscheme_preset_count();
    const char **schemes = malloc((size_t)nschemes * sizeof *schemes);
    if (!schemes)
        die("out of memory", NULL);
    for (int si = 0; si < nschemes; si++)
        schemes[si] = argc > 3 ? argv[3 + si] : keyscheme_preset_name((size_t)si);
    printf("bench_floor: %llu operations a run, the default scenario; median of %d "
           "(CPU s of this process; spread min-max)\n", (unsigned long long)n, reps);
    printf("%-10s %-28s %9s %8s %8s %8s %15s %5s %6s %10s\n", "scheme", "run", "ns/op",
           "Mops/s", "x route", "x exact", "spread ns/op", "sys", "wall", "distinct");
    double *route_ratio = calloc((size_t)nschemes, sizeof *route_ratio);
    double (*floor_ratio)[NSTORES] = calloc((size_t)nschemes, sizeof *floor_ratio);
    uint64_t *distinct = calloc((size_t)nschemes, sizeof *distinct);
    double (*reads_ns)[NSTORES][2] = calloc((size_t)nschemes, sizeof *reads_ns);
    if (!route_ratio || !reads_ns || !floor_ratio || !distinct)
        die("out of memory", NULL);
    int rc = 0;
    for (int si = 0; si < nschemes; si++) {
        const char *name = schemes[si];
        scenario sc_w[NSTORES], sc_r[NSTORES];
        for (size_t st = 0; st < NSTORES; st++) {
            make_scenario(&sc_w[st], name, n, 0, stores[st]);
            make_scenario(&sc_r[st], name, n, 0.1, stores[st]);
        }
        if (!same_keys(&sc_w[0])) {
            printf("%-10s the floors' keys differ from the engine's: not comparable\n", name);
            rc = 1;
            for (size_t st = 0; st < NSTORES; st++) {
                scenario_release(&sc_w[st]);
                scenario_release(&sc_r[st]);
            }
            continue;
        }
        column col[NCOLS];
        memset(col, 0, sizeof col);
        snprintf(col[0].name, sizeof col[0].name, "route floor (%d regions)", FLOOR_REGIONS);
        snprintf(col[1].name, sizeof col[1].name, "exact floor (sort once)");
        for (size_t st = 0; st < NSTORES; st++) {
            snprintf(col[2 + 2 * st].name, sizeof col[0].name, "regionsim %s", stores[st]);
            snprintf(col[3 + 2 * st].name, sizeof col[0].name, "regionsim %s 10%% reads",
                     stores[st]);
        }
        keyref cuts[FLOOR_REGIONS - 1];
        regionmap *m = NULL;
        for (int rep = 0; rep < reps; rep++) {
            run_exact(&sc_w[0], n, m ? NULL : cuts, &col[1].s[rep]);
            if (!m) {
                size_t bad;
                m = regionmap_new(cuts, FLOOR_REGIONS - 1, &bad);
                if (!m)
                    die("the floor's region table", NULL);
            }
            run_route(&sc_w[0], n, m, &col[0].s[rep]);
            for (size_t st = 0; st < NSTORES; st++) {
                run_sim(&sc_w[st], &col[2 + 2 * st].s[rep]);
                run_sim(&sc_r[st], &col[3 + 2 * st].s[rep]);
            }
        }
        regionmap_free(m);
        for (size_t i = 0; i < FLOOR_REGIONS - 1; i++)
            free((void *)cuts[i].data);
        for (size_t c = 0; c < NCOLS; c++)
            summarise(&col[c], reps);
        for (size_t c = 0; c < NCOLS; c++) {
            double ops = (double)col[c].s[0].ops;
            if (col[c].s[0].ops != n) {
                printf("%-10s %s made %llu operations, not %llu\n", name, col[c].name,
                       (unsigned long long)col[c].s[0].ops, (unsigned long long)n);
                rc = 1;
            }
            printf("%-10s %-28s %9.1f %8.2f %8.2f %8.2f %7.1f-%-7.1f %4.0f%% %6.2f %10llu\n",
                   name, col[c].name, col[c].cpu / ops * 1e9, ops / col[c].cpu / 1e6,
                   col[c].cpu / col[0].cpu, col[c].cpu / col[1].cpu, col[c].lo / ops * 1e9,
                   col[c].hi / ops * 1e9, 100 * col[c].sys / col[c].cpu, col[c].wall,
                   (unsigned long long)col[c].s[0].distinct);
        }
        route_ratio[si] = col[2].cpu / col[0].cpu;
        for (size_t st = 0; st < NSTORES; st++)
            floor_ratio[si][st] = col[2 + 2 * st].cpu / col[1].cpu;
        distinct[si] = col[1].s[0].distinct;
        for (size_t st = 0; st < NSTORES; st++)
            for (int k = 0; k < 2; k++)
                reads_ns[si][st][k] = col[2 + 2 * st + k].cpu / (double)n * 1e9;
        for (size_t st = 0; st < NSTORES; st++) {
            scenario_release(&sc_w[st]);
            scenario_release(&sc_r[st]);
        }
        fflush(stdout);
    }
    printf("targets (issue 15; printed, not enforced):\n");
    for (int si = 0; si < nschemes; si++)
        if (route_ratio[si] > 0 && (strcmp(schemes[si], "monotonic") == 0 ||
                                    strcmp(schemes[si], "salted") == 0))
            printf("  %-10s %-7s %-40s %5.2fx  %s\n", schemes[si], stores[0],
                   "writes within 2.5x the routing floor:", route_ratio[si],
                   verdict(route_ratio[si], 2.5));
    /* Issue 30: exact writes within 1.2x the exact-storage floor. The
     * sampled store keeps no rows: its ratio is what routing, serving and
     * splitting alone cost against the floor, the part of the budget the
     * exact store's rows cannot use. The floor sorts every put; where keys
     * repeat (fewer distinct keys than half the puts) the engine folds
     * them as they come, and the floor is no lower bound. The sampled
     * ratio plus the floor's own storage share ((exact floor - routing
     * floor) / exact floor) is the ratio the exact store would have if its
     * rows cost just what the floor's append-and-sort-once costs: measured
     * at HBase's sizes (28 Nov 2026, docs/performance.md, "Exact writes
     * against the exact-storage floor") that is 1.59 for reversed, 1.45
     * seq-reversed, 1.36 promoted, 1.29 revts and 1.14 md5, so for the
     * first four 1.2x asks rows to cost less than the floor's storage. */
    printf("exact writes against the exact-storage floor (issue 30: within %.1fx; printed, "
           "not enforced):\n", FLOOR_TARGET);
    for (int si = 0; si < nschemes; si++)
        if (floor_ratio[si][0] > 0)
            printf("  %-16s %-7s %5.2fx  (sampled store %5.2fx)  %s%s\n", schemes[si], stores[0],
                   floor_ratio[si][0], NSTORES > 1 ? floor_ratio[si][1] : 0.0,
                   verdict(floor_ratio[si][0], FLOOR_TARGET),
                   distinct[si] < n / 2 ? "  (keys repeat: the floor is no lower bound)" : "");
    printf("10%% reads against writes-only (issue 30: within %.0fx; printed, not enforced):\n",
           READS_TARGET);
    printf("  %-16s %-7s %12s %12s %8s %12s\n", "scheme", "store", "ns/op reads",
           "ns/op writes", "x writes", "ns a read");
    for (int si = 0; si < nschemes; si++)
        for (size_t st = 0; st < NSTORES; st++) {
            double r = reads_ns[si][st][1], w = reads_ns[si][st][0];
            if (w <= 0)
                continue; /* the scheme was not comparable */
            /* a tenth of the operations read: r = 0.9 w + 0.1 R, taking a
             * write to cost what it does writes-only, so a read costs
             * R = 10 r - 9 w */
            printf("  %-16s %-7s %12.1f %12.1f %7.2fx %12.0f  %s\n", schemes[si], stores[st], r,
                   w, r / w, 10 * r - 9 * w, verdict(r / w, READS_TARGET));
        }
    free(route_ratio);
    free(floor_ratio);
    free(distinct);
    free(reads_ns);
    free(schemes);
    return rc;
}
