/* test_regionbands.c -- the region map: bands from the region log and the
 * timeline (a split divides a band at the split key and time, a move
 * changes its server, bands tile the key space at every time), their
 * coarsening, and the maps the HTML and text reports draw of a
 * monotonic run (the tail splitting, and changing server at a balancer
 * run).
 *
 * Usage: test_regionbands [--xmllint]: two meson tests; the second
 * (regionbands_xmllint) also has xmllint read the HTML map's page. Without
 * xmllint it exits 77, which meson counts as skipped, or fails under CI
 * (tests/support.h, test_cannot_run). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "reports/regionbands.h"
#include "reports/report.h"
#include "engine/engine.h"
#include "scenario/scenario.h"
#include "tests/support.h"

#define MIN 60000000ull

/* ---- a small run by hand ----
 * Buckets "", "b", "d", "f"; over 400 us:
 *   t=100 the table ["", "") splits at "c" on rs0;
 *   t=200 ["", "c") moves rs0 -> rs1;
 *   t=300 the tail ["c", "") splits at "e" on rs0;
 *   t=350 the tail ["e", "") moves rs0 -> rs2. */
typedef struct small {
    char *buckets[4];
    region_result history[5];
    timeline_event events[6];
    run_result run;
} small;

static void small_init(small *s)
{
    static char *const buckets[4] = { "", "b", "d", "f" };
    memset(s, 0, sizeof *s);
    memcpy(s->buckets, buckets, sizeof buckets);
    /* Split regions in the order they split, then the live ones in key order. */
    s->history[0] = (region_result){ .start = "", .end = "", .server = 0, .split = 1,
                                     .opened_us = 0, .closed_us = 100 };
    s->history[1] = (region_result){ .start = "c", .end = "", .server = 0, .split = 1,
                                     .opened_us = 100, .closed_us = 300 };
    s->history[2] = (region_result){ .start = "", .end = "c", .server = 1,
                                     .opened_us = 100, .closed_us = 400 };
    s->history[3] = (region_result){ .start = "c", .end = "e", .server = 0,
                                     .opened_us = 300, .closed_us = 400 };
    s->history[4] = (region_result){ .start = "e", .end = "", .server = 2,
                                     .opened_us = 300, .closed_us = 400 };
    s->events[0] = (timeline_event){ .t_us = 100, .kind = TIMELINE_SPLIT, .key = "c" };
    s->events[1] = (timeline_event){ .t_us = 200, .kind = TIMELINE_BALANCER };
    s->events[2] = (timeline_event){ .t_us = 200, .kind = TIMELINE_MOVE, .key = "", .from = 0,
                                     .to = 1 };
    s->events[3] = (timeline_event){ .t_us = 300, .kind = TIMELINE_SPLIT, .key = "e" };
    s->events[4] = (timeline_event){ .t_us = 350, .kind = TIMELINE_MOVE, .key = "e", .from = 0,
                                     .to = 2 };
    s->events[5] = (timeline_event){ .t_us = 350, .kind = TIMELINE_BALANCER };
    s->run = (run_result){ .nservers = 3, .duration_us = 400,
                           .keyspace = { .nbuckets = 4, .bucket_start = s->buckets },
                           .nhistory = 5, .history = s->history, .nevents = 6,
                           .events = s->events };
}

/* Fails unless the bands covering time t tile [0, axis) exactly: no gap,
 * no overlap. */
static void assert_tiles(const region_bands *b, uint64_t t)
{
    double covered = 0;
    size_t n = 0;
    for (size_t i = 0; i < b->n; i++)
        if (b->band[i].t0_us <= t && t < b->band[i].t1_us) {
            covered += b->band[i].key_hi - b->band[i].key_lo;
            n++;
        }
    if (!(covered > b->axis - 1e-9 && covered < b->axis + 1e-9))
        fail_msg("at t=%llu the %zu bands cover %g of %g", (unsigned long long)t, n, covered,
                 b->axis);
    /* no overlap: every point is in exactly one band */
    for (double y = 0.01; y < b->axis; y += 0.02) {
        int in = 0;
        for (size_t i = 0; i < b->n; i++)
            in += b->band[i].t0_us <= t && t < b->band[i].t1_us && b->band[i].key_lo <= y &&
                  y < b->band[i].key_hi;
        if (in != 1) fail_msg("at t=%llu, y=%g is in %d bands", (unsigned long long)t, y, in);
    }
}

/* The band starting at t0 whose keys are [lo, hi), or NULL. */
static const region_band *band_at(const region_bands *b, uint64_t t0, double lo, double hi)
{
    for (size_t i = 0; i < b->n; i++)
        if (b->band[i].t0_us == t0 && b->band[i].key_lo == lo && b->band[i].key_hi == hi)
            return &b->band[i];
    return NULL;
}

static void test_key_positions_follow_the_heatmap_buckets(void **state)
{
    (void)state;
    small s;
    small_init(&s);
    const keyspace_heatmap *ks = &s.run.keyspace;
    assert_double_equal(regionbands_key_position(ks, "", NULL, NULL), 0, 0);
    assert_double_equal(regionbands_key_position(ks, "b", NULL, NULL), 1, 1e-12);
    assert_double_equal(regionbands_key_position(ks, "c", NULL, NULL), 1.5, 1e-12); /* b..d */
    assert_double_equal(regionbands_key_position(ks, "\\x63", NULL, NULL), 1.5, 1e-12); /* c */
    assert_double_equal(regionbands_key_position(ks, "e", NULL, NULL), 2.5, 1e-12);
    /* the last bucket: in its lower half, in proportion up to the top boundary */
    assert_double_equal(regionbands_key_position(ks, "g", NULL, "h"), 3.25, 1e-12);
    assert_double_equal(regionbands_key_position(ks, "h", NULL, "h"), 3.5, 1e-12);
    assert_double_equal(regionbands_key_position(ks, "g", NULL, NULL), 3.5, 1e-12);
    /* the first bucket, from "": its upper half from the lowest boundary on */
    assert_double_equal(regionbands_key_position(ks, "a", "a", NULL), 0.5, 1e-12);
    assert_double_equal(regionbands_key_position(ks, "a\\x80", "a", NULL), 0.5 + 0.5 * 0x80 / 0x100,
                        1e-9);
    assert_double_equal(regionbands_key_position(ks, "0", "a", NULL), 0.5 * '0' / 'a', 1e-9);
}

static void test_a_split_divides_a_band_at_its_key_and_time(void **state)
{
    (void)state;
    small s;
    small_init(&s);
    region_bands b = regionbands_of(&s.run);
    assert_int_equal(b.unmatched, 0);
    assert_double_equal(b.axis, 4, 0);
    /* The table's band ends at 100, where its two daughters start, at "c". */
    const region_band *table = band_at(&b, 0, 0, 4);
    assert_non_null(table);
    assert_int_equal(table->t1_us, 100);
    const region_band *low = band_at(&b, 100, 0, 1.5), *high = band_at(&b, 100, 1.5, 4);
    assert_non_null(low);
    assert_non_null(high);
    assert_int_equal(low->server, 0);
    assert_int_equal(high->server, 0);
    assert_int_equal(high->t1_us, 300); /* the tail splits at 300, at "e" */
    assert_non_null(band_at(&b, 300, 1.5, 2.5));
    assert_non_null(band_at(&b, 300, 2.5, 4));
    /* The splits, for the marks. */
    assert_int_equal(b.nsplits, 2);
    assert_double_equal(b.split[0].key, 1.5, 1e-12);
    assert_int_equal(b.split[0].t_us, 100);
    assert_double_equal(b.split[1].key, 2.5, 1e-12);
    assert_int_equal(b.split[1].t_us, 300);
    regionbands_free(&b);
}

static void test_a_move_changes_the_server_at_its_time(void **state)
{
    (void)state;
    small s;
    small_init(&s);
    region_bands b = regionbands_of(&s.run);
    assert_int_equal(regionbands_server_at(&b, 0.5, 199), 0);
    assert_int_equal(regionbands_server_at(&b, 0.5, 200), 1);
    assert_int_equal(regionbands_server_at(&b, 0.5, 399), 1);
    assert_int_equal(regionbands_server_at(&b, 3.9, 349), 0); /* the tail */
    assert_int_equal(regionbands_server_at(&b, 3.9, 350), 2);
    assert_int_equal(regionbands_server_at(&b, 2, 399), 0);   /* ["c", "e") stayed */
    assert_int_equal(regionbands_server_at(&b, 2, 400), -1);  /* the run is over */
    /* 7 bands: table, ["",c) twice, tail [c,) once, [c,e), [e,) twice. */
    assert_int_equal(b.n, 7);
    regionbands_free(&b);
}

static void test_bands_tile_the_key_space_at_every_time(void **state)
{
    (void)state;
    small s;
    small_init(&s);
    region_bands b = regionbands_of(&s.run);
    for (uint64_t t = 0; t < 400; t++) assert_tiles(&b, t);
    regionbands_free(&b);
}

/* A move at the very time its region splits goes to the region the
 * timeline's order says: here before the split, so to the parent. */
static void test_same_time_events_follow_the_timeline_order(void **state)
{
    (void)state;
    small s;
    small_init(&s);
    /* the tail ["c", "") moves rs0 -> rs2 at 300, just before it splits */
    s.history[1].server = 2;
    s.history[3].server = 2;
    s.history[4].server = 2;
    s.events[4] = s.events[3];
    s.events[3] = (timeline_event){ .t_us = 300, .kind = TIMELINE_MOVE, .key = "c", .from = 0,
                                    .to = 2 };
    s.events[4].from = 2;
    region_bands b = regionbands_of(&s.run);
    assert_int_equal(b.unmatched, 0);
    assert_int_equal(regionbands_server_at(&b, 2, 299), 0);
    assert_int_equal(regionbands_server_at(&b, 2, 300), 2);
    assert_int_equal(regionbands_server_at(&b, 3, 300), 2);
    for (uint64_t t = 0; t < 400; t++) assert_tiles(&b, t);
    regionbands_free(&b);
}

static void test_events_that_match_nothing_are_counted(void **state)
{
    (void)state;
    small s;
    small_init(&s);
    s.events[2].key = "zz"; /* no region starts there */
    region_bands b = regionbands_of(&s.run);
    assert_int_equal(b.unmatched, 1);
    regionbands_free(&b);
    s.run.keyspace.nbuckets = 0; /* no key axis: no bands */
    b = regionbands_of(&s.run);
    assert_int_equal(b.n, 0);
    regionbands_free(&b);
}

/* 3,000 regions side by side for the whole run, on alternating servers
 * in runs of 10: coarsened on a fine grid they merge (fewer bands, still
 * tiling); to at most 20 bands, the grid coarsens until they fit. */
static void test_coarsening_bounds_the_bands_and_keeps_the_tiling(void **state)
{
    (void)state;
    enum { N = 3000 };
    static char keys[N][8];
    static region_result history[N];
    static char *buckets[4] = { "", "k0750", "k1500", "k2250" };
    for (int i = 0; i < N; i++) {
        snprintf(keys[i], sizeof keys[i], "k%04d", i);
        history[i] = (region_result){ .start = i ? keys[i] : "",
                                      .end = i + 1 < N ? keys[i + 1] : "",
                                      .server = (uint32_t)(i / 10 % 2), .closed_us = 1000 };
    }
    run_result run = { .nservers = 2, .duration_us = 1000,
                       .keyspace = { .nbuckets = 4, .bucket_start = buckets },
                       .nhistory = N, .history = history };
    region_bands b = regionbands_of(&run);
    assert_int_equal(b.n, N);
    assert_tiles(&b, 500);
    region_bands fine = { malloc(b.n * sizeof *b.band), b.n, NULL, 0, b.axis, 0 };
    assert_non_null(fine.band);
    memcpy(fine.band, b.band, b.n * sizeof *b.band);
    regionbands_coarsen(&fine, 4096, 1000, 100, SIZE_MAX); /* merges, no halving */
    assert_in_range(fine.n, 21, N - 1);
    assert_tiles(&fine, 500);
    regionbands_coarsen(&b, 4096, 1000, 100, 20);
    assert_in_range(b.n, 1, 20);
    assert_tiles(&b, 0);
    assert_tiles(&b, 999);
    uint32_t regions = 0;
    for (size_t i = 0; i < b.n; i++) regions += b.band[i].regions;
    assert_in_range(regions, 1, N);
    /* sorted by server */
    for (size_t i = 1; i < b.n; i++) assert_true(b.band[i - 1].server <= b.band[i].server);
    regionbands_free(&b);
    regionbands_free(&fine);
}

/* ---- a monotonic run ----
 * 20 one-minute windows; the tail splits at the end of every minute i at
 * key "tNN" (i = 1..19), all on rs0, until the balancer at 12.5 min moves
 * the tail to rs1; buckets at "", t05, t10, t15. */
enum { WINDOWS = 20, SERVERS = 3 };

typedef struct mono {
    char keys[WINDOWS][8];
    char *buckets[4];
    region_result history[2 * WINDOWS];
    timeline_event events[WINDOWS + 4];
    server_result servers[SERVERS];
    uint64_t window_writes[WINDOWS * SERVERS];
    run_result run;
    sim_results res;
} mono;

static void mono_init(mono *m)
{
    memset(m, 0, sizeof *m);
    for (int i = 0; i < WINDOWS; i++) snprintf(m->keys[i], sizeof m->keys[i], "t%02d", i);
    m->buckets[0] = "";
    for (int b = 1; b < 4; b++) m->buckets[b] = m->keys[5 * b];
    for (int s = 0; s < SERVERS; s++) snprintf(m->servers[s].name, 16, "rs%d", s);
    const uint64_t move = 12 * MIN + MIN / 2;
    size_t nh = 0, ne = 0;
    /* the tails that split, in order: [t(i-1), "") opened at (i-1) min, split at i min */
    for (int i = 1; i < WINDOWS; i++) {
        uint32_t on = (uint64_t)i * MIN > move ? 1 : 0;
        m->history[nh++] = (region_result){ .start = i > 1 ? m->keys[i - 1] : "", .end = "",
            .server = on, .split = 1, .opened_us = (uint64_t)(i - 1) * MIN,
            .closed_us = (uint64_t)i * MIN };
        if (i == 13) { /* the balancer ran before this split */
            m->events[ne++] = (timeline_event){ .t_us = move, .kind = TIMELINE_BALANCER };
            m->events[ne++] = (timeline_event){ .t_us = move, .kind = TIMELINE_MOVE,
                .key = m->keys[12], .from = 0, .to = 1 };
        }
        m->events[ne++] = (timeline_event){ .t_us = (uint64_t)i * MIN, .kind = TIMELINE_SPLIT,
            .key = m->keys[i], .from = on };
    }
    /* the live regions in key order: [t(i-1), t(i)) and the last tail */
    for (int i = 1; i < WINDOWS; i++)
        m->history[nh++] = (region_result){ .start = i > 1 ? m->keys[i - 1] : "",
            .end = m->keys[i], .server = i >= 13 ? 1 : 0,
            .opened_us = (uint64_t)i * MIN, .closed_us = WINDOWS * MIN };
    m->history[nh++] = (region_result){ .start = m->keys[WINDOWS - 1], .end = "", .server = 1,
        .opened_us = (WINDOWS - 1) * MIN, .closed_us = WINDOWS * MIN };
    for (int w = 0; w < WINDOWS; w++) m->window_writes[w * SERVERS + (w < 12 ? 0 : 1)] = 600;
    m->servers[0].writes = 12 * 600;
    m->servers[1].writes = 8 * 600;
    m->run = (run_result){ .scheme_name = "monotonic", .scheme_expr = "ts", .key_example = "t01",
        .presplit = "none", .nservers = SERVERS, .servers = m->servers, .writes = 12000,
        .duration_us = WINDOWS * MIN, .regions_start = 1, .regions = WINDOWS,
        .splits = WINDOWS - 1, .moves = 1, .window_us = MIN, .nwindows = WINDOWS,
        .window_writes = m->window_writes,
        .keyspace = { .nbuckets = 4, .bucket_start = m->buckets, .sample = 1000, .exact = 1 },
        .nhistory = nh, .history = m->history, .nevents = ne, .events = m->events };
    m->res = (sim_results){ .scenario = "mono", .seed = 1, .servers = SERVERS,
        .split_policy = "size", .region_max_bytes = 1 << 20, .balancer = "simple",
        .balancer_period_us = 5 * MIN, .window_us = MIN, .workload = "time series",
        .nruns = 1, .runs = &m->run, .nsamples = 1 };
}

static char *render(void (*write)(FILE *, const mono *), const mono *m)
{
    struct { char *buf; size_t len; } *b = calloc(1, sizeof *b);
    assert_non_null(b);
    FILE *out = open_memstream(&b->buf, &b->len);
    assert_non_null(out);
    write(out, m);
    assert_int_equal(fclose(out), 0);
    char *text = b->buf;
    free(b);
    return text;
}

static void html_of(FILE *out, const mono *m) { html_write(out, &m->res); }
static void text_of(FILE *out, const mono *m) { text_write_run(out, &m->res, &m->run, 40, 0); }

static void test_monotonic_bands_tile_and_the_tail_moves(void **state)
{
    (void)state;
    mono *m = malloc(sizeof *m);
    assert_non_null(m);
    mono_init(m);
    region_bands b = regionbands_of(&m->run);
    assert_int_equal(b.unmatched, 0);
    assert_int_equal(b.nsplits, WINDOWS - 1);
    for (uint64_t t = 0; t < WINDOWS * MIN; t += MIN / 4) assert_tiles(&b, t);
    double top = 3.9; /* always in the tail */
    assert_int_equal(regionbands_server_at(&b, top, 12 * MIN + MIN / 2 - 1), 0);
    assert_int_equal(regionbands_server_at(&b, top, 12 * MIN + MIN / 2), 1);
    assert_int_equal(regionbands_server_at(&b, top, WINDOWS * MIN - 1), 1);
    regionbands_free(&b);
    free(m);
}

/* The page draws the map: the tail [t12, +inf) on rs0 until the balancer
 * at 12.5 min, then on rs1; split marks; a player; well-formed XML. */
static void test_html_map_of_a_monotonic_run(void **state)
{
    mono *m = malloc(sizeof *m);
    assert_non_null(m);
    mono_init(m);
    char *html = render(html_of, m);
    assert_non_null(strstr(html, "<h3>Regions over time"));
    const char *before = strstr(html, "keys [t12, +inf), 12.0 min to 12.5 min</title>");
    const char *after = strstr(html, "keys [t12, +inf), 12.5 min to 13.0 min</title>");
    assert_non_null(before);
    assert_non_null(after);
    /* the server names in those tooltips */
    const char *tb = before, *ta = after;
    while (tb > html && strncmp(tb, "<title>", 7) != 0) tb--;
    while (ta > html && strncmp(ta, "<title>", 7) != 0) ta--;
    assert_true(strncmp(tb, "<title>rs0:", 11) == 0);
    assert_true(strncmp(ta, "<title>rs1:", 11) == 0);
    /* 19 splits, at distinct pixels: 19 marks */
    const char *marks = strstr(html, "<path class=\"splits\" d=\"");
    assert_non_null(marks);
    size_t n = 0;
    for (const char *p = marks; *p && *p != '/'; p++) n += *p == 'M';
    assert_int_equal(n, WINDOWS - 1);
    /* the player: data for 20 windows, hidden controls, the script */
    assert_non_null(strstr(html, "<div class=\"player\" data-v=\"600,0,0;"));
    assert_non_null(strstr(html, "<div class=\"controls\" hidden=\"hidden\">"));
    assert_non_null(strstr(html, "<script>//<![CDATA["));
    if (*state) { /* regionbands_xmllint */
        FILE *p = popen("xmllint --noout -", "w");
        assert_non_null(p);
        fputs(html, p);
        assert_int_equal(pclose(p), 0);
    }
    free(html);
    free(m);
}

/* The run's text report: the top row (the tail's keys) is rs0's letter
 * for the 12 columns before the balancer, then rs1's. */
static void test_text_map_of_a_monotonic_run(void **state)
{
    (void)state;
    test_plain_env();
    mono *m = malloc(sizeof *m);
    assert_non_null(m);
    mono_init(m);
    char *text = render(text_of, m);
    const char *map = strstr(text, "regions over the key space");
    assert_non_null(map);
    const char *top = strstr(map, "\n  t15");
    assert_non_null(top);
    assert_true(strncmp(strchr(top + 1, '|'), "|AAAAAAAAAAAABBBBBBBB|\n", 23) == 0);
    const char *low = strstr(map, "\n  (first key)");
    assert_non_null(low);
    assert_true(strncmp(strchr(low, '|'), "|AAAAAAAAAAAAAAAAAAAA|", 22) == 0);
    assert_non_null(strstr(map, "servers:  A rs0  B rs1  C rs2"));
    free(text);
    free(m);
}

/* ---- through the engine ----
 * 8 servers, 10 minutes, 64 KiB regions, a balancer every 3 minutes, a
 * server failing at 4 minutes (rs0, which hosts the monotonic run's
 * tail): the monotonic, salted and md5 schemes, with moves and
 * reassignments. Every timeline event matches the region log, the bands
 * tile the key space all along, and the monotonic run's tail changes
 * server. */
static void test_engine_runs_replay_exactly(void **state)
{
    (void)state;
    static const char ini[] =
        "[cluster]\nservers = 8\nregion_size = 64KiB\nbalancer_period = 3m\n"
        "[workload]\nduration = 10m\n"
        "[event crash]\nat = 4m\naction = fail\nserver = 0\ndetection = 30s\n"
        "[scheme monotonic]\nkey = monotonic\n[scheme salted]\nkey = salted\n"
        "[scheme md5]\nkey = md5\n";
    const char *path = test_temp_file("regionbands", ini);
    scenario sc;
    char err[512];
    scenario_defaults(&sc);
    if (scenario_load(&sc, path, err, sizeof err) != 0) fail_msg("%s", err);
    unlink(path);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    sim_results res;
    assert_int_equal(engine_run_all(&sc, NULL, &res, err, sizeof err), 0);
    assert_int_equal(res.nruns, 3);
    uint64_t moves = 0;
    for (size_t i = 0; i < res.nruns; i++) {
        const run_result *run = &res.runs[i];
        region_bands b = regionbands_of(run);
        assert_int_equal(b.unmatched, 0);
        assert_int_equal(b.nsplits, run->splits);
        print_message("%s: %" PRIu64 " splits, %" PRIu64 " moves, %" PRIu64 " reassigned, "
                      "%zu bands\n", run->scheme_name, run->splits, run->moves, run->reassigned,
                      b.n);
        assert_true(run->reassigned > 0);
        moves += run->moves;
        for (uint64_t t = 0; t < run->duration_us; t += 7000000) assert_tiles(&b, t);
        if (i == 0) { /* monotonic: the tail changes server */
            long first = regionbands_server_at(&b, b.axis - 0.01, 0);
            long last = regionbands_server_at(&b, b.axis - 0.01, run->duration_us - 1);
            assert_true(first >= 0 && last >= 0 && first != last);
        }
        regionbands_free(&b);
    }
    assert_true(moves > 0);
    sim_results_free(&res);
    scenario_release(&sc);
}

/* hbase:meta's moves and reassignments are in the timeline (its key its
 * region name, meta set) but are no region of the table's map: they match
 * nothing there and are left out, not counted as unmatched. Over a few
 * seeds meta moves at least once. */
static void test_meta_moves_are_not_the_tables(void **state)
{
    (void)state;
    static const char ini[] =
        "[cluster]\nservers = 6\nregion_size = 64KiB\nbalancer_period = 2m\n"
        "[workload]\nduration = 8m\n"
        "[event crash]\nat = 3m\naction = fail\nserver = 0\ndetection = 30s\n"
        "[scheme monotonic]\nkey = monotonic\n";
    const char *path = test_temp_file("regionbands-meta", ini);
    scenario sc;
    char err[512];
    scenario_defaults(&sc);
    if (scenario_load(&sc, path, err, sizeof err) != 0) fail_msg("%s", err);
    unlink(path);
    size_t meta_events = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        sc.seed = seed;
        assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
        sim_results res;
        assert_int_equal(engine_run_all(&sc, NULL, &res, err, sizeof err), 0);
        const run_result *run = &res.runs[0];
        for (size_t e = 0; e < run->nevents; e++) {
            const timeline_event *ev = &run->events[e];
            if (ev->kind != TIMELINE_MOVE && ev->kind != TIMELINE_REASSIGN)
                continue;
            assert_int_equal(ev->meta, strcmp(ev->key, "hbase:meta,,1") == 0);
            meta_events += ev->meta;
        }
        region_bands b = regionbands_of(run);
        assert_int_equal(b.unmatched, 0);
        regionbands_free(&b);
        sim_results_free(&res);
    }
    assert_true(meta_events > 0);
    scenario_release(&sc);
}

int main(int argc, char **argv)
{
    static int on = 1;
    if (test_has_arg(argc, argv, "--xmllint")) {
        if (!test_have_xmllint())
            return test_cannot_run("regionbands_xmllint", "xmllint not found (Debian package"
                                   " libxml2-utils; sh setup.sh --tests installs it)", test_in_ci());
        const struct CMUnitTest xmllint_tests[] = {
            cmocka_unit_test_prestate(test_html_map_of_a_monotonic_run, &on),
        };
        return cmocka_run_group_tests(xmllint_tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_positions_follow_the_heatmap_buckets),
        cmocka_unit_test(test_a_split_divides_a_band_at_its_key_and_time),
        cmocka_unit_test(test_a_move_changes_the_server_at_its_time),
        cmocka_unit_test(test_bands_tile_the_key_space_at_every_time),
        cmocka_unit_test(test_same_time_events_follow_the_timeline_order),
        cmocka_unit_test(test_events_that_match_nothing_are_counted),
        cmocka_unit_test(test_coarsening_bounds_the_bands_and_keeps_the_tiling),
        cmocka_unit_test(test_monotonic_bands_tile_and_the_tail_moves),
        cmocka_unit_test(test_html_map_of_a_monotonic_run),
        cmocka_unit_test(test_text_map_of_a_monotonic_run),
        cmocka_unit_test(test_engine_runs_replay_exactly),
        cmocka_unit_test(test_meta_moves_are_not_the_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
