/* test_windows.c -- the digest of a run's per-server window counters
 * (engine/windows.h) and the reports drawn from it.
 *
 * By hand: a run of 40 servers and 5 windows whose counts are known is
 * reduced, and every part of the digest (totals, maxima, the binned
 * heatmap, the last two quarters' sums) is checked against values worked
 * out here, and the matrices are gone. Through the engine: the same
 * scenario of 100 servers (with reads, measured from a later window) runs
 * once keeping its matrices and once reduced; every scheme figure, the
 * steady state, the balance and steady assertions, the text compare and
 * run reports, the HTML page and the JSON report without per-server arrays
 * must be the same bytes and values. A run of 8 servers is never reduced.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "tests/support.h"

#include "reports/assertion.h"
#include "reports/figures.h"
#include "reports/report.h"
#include "reports/stats.h"
#include "engine/engine.h"
#include "scenario/scenario.h"
#include "engine/windows.h"

/* ---- by hand ---- */

static void test_reduce_by_hand(void **state)
{
    (void)state;
    enum { NS = 40, NW = 5 };
    run_result run;
    memset(&run, 0, sizeof run);
    run.nservers = NS;
    run.nwindows = NW;
    run.window_us = 1000;
    run.window_writes = calloc(NS * NW, sizeof *run.window_writes);
    run.window_reads = calloc(NS * NW, sizeof *run.window_reads);
    assert_non_null(run.window_writes);
    assert_non_null(run.window_reads);
    for (uint32_t w = 0; w < NW; w++)
        for (uint32_t s = 0; s < NS; s++) {
            run.window_writes[w * NS + s] = (uint64_t)(w + 1) * (s + 1);
            run.window_reads[w * NS + s] = s == 39 ? 100 + w : 0;
        }
    assert_int_equal(window_digest_reduce(&run), 0);
    assert_null(run.window_writes);
    assert_null(run.window_reads);
    const window_digest *d = &run.digest;
    assert_true(d->present);
    assert_true(d->reads);
    /* 40 servers: bins of 2, 20 rows */
    assert_int_equal(d->per_row, 2);
    assert_int_equal(d->nrows, 20);
    for (uint32_t w = 0; w < NW; w++) {
        assert_int_equal(d->writes_total[w], (uint64_t)(w + 1) * (NS * (NS + 1) / 2));
        assert_int_equal(d->writes_max[w], (uint64_t)(w + 1) * NS);
        assert_int_equal(d->reads_total[w], 100 + w);
        assert_int_equal(d->reads_max[w], 100 + w);
        for (uint32_t b = 0; b < d->nrows; b++) {
            assert_int_equal(d->writes_bins[w * d->nrows + b], (uint64_t)(w + 1) * (2 * b + 2));
            assert_int_equal(d->reads_bins[w * d->nrows + b], b == 19 ? 100 + w : 0);
        }
    }
    /* 5 windows from 0: quarters of 1 window, [3, 4) and [4, 5) */
    assert_int_equal(d->quarter, 1);
    for (uint32_t s = 0; s < NS; s++) {
        assert_int_equal(d->quarter_before[s], 4 * (uint64_t)(s + 1));
        assert_int_equal(d->quarter_after[s], 5 * (uint64_t)(s + 1));
    }
    /* the figures read it as they read the matrix */
    window_stats ws = stats_window_writes(&run);
    assert_int_equal(ws.windows, NW);
    assert_double_equal(ws.worst_max_mean, 40.0 * 40 / 820, 1e-12);
    assert_int_equal(stats_run_windows(&run, 1, 2).windows, 3);
    /* reduced once only */
    assert_int_equal(window_digest_reduce(&run), 0);
    assert_true(run.digest.present);
    window_digest_free(&run.digest);
    assert_false(run.digest.present);
}

static void test_small_runs_are_kept(void **state)
{
    (void)state;
    run_result run;
    memset(&run, 0, sizeof run);
    run.nservers = WINDOW_BIN_ROWS_MAX;
    run.nwindows = 2;
    run.window_writes = calloc(2 * WINDOW_BIN_ROWS_MAX, sizeof *run.window_writes);
    assert_non_null(run.window_writes);
    assert_int_equal(window_digest_reduce(&run), 0);
    assert_non_null(run.window_writes);
    assert_false(run.digest.present);
    free(run.window_writes);
    assert_true(window_digest_bytes(10000, 1440, 1) < 2e6); /* vs 230 MB of matrices */
}

/* ---- through the engine ---- */

static void scenario_of(scenario *sc, const char *servers, int digest)
{
    char err[512];
    scenario_defaults(sc);
    sc->nschemes = 0;
    scenario_add_scheme(sc, "salted", "salt(8) ts");
    scenario_add_scheme(sc, "plain", "ts");
    assert_int_equal(scenario_set(sc, NULL, "servers", servers, err, sizeof err), 0);
    assert_int_equal(scenario_set(sc, NULL, "duration", "12m", err, sizeof err), 0);
    assert_int_equal(scenario_set(sc, NULL, "measure_from", "90s", err, sizeof err), 0);
    assert_int_equal(scenario_set(sc, NULL, "region_size", "256KiB", err, sizeof err), 0);
    assert_int_equal(scenario_set(sc, NULL, "read_fraction", "0.1", err, sizeof err), 0);
    assert_int_equal(scenario_validate(sc, err, sizeof err), 0);
    sc->jobs = 2;
    sc->window_digest = digest;
}

/* A writer's output as a malloc'd string. */
typedef enum { OUT_TEXT, OUT_RUN, OUT_HTML, OUT_JSON } out_kind;
static char *render(const sim_results *res, out_kind kind, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    switch (kind) {
    case OUT_TEXT: text_write_compare(f, res, 1); break;
    case OUT_RUN: text_write_run(f, res, &res->runs[0], 50, 0); break;
    case OUT_HTML: html_write(f, res); break;
    case OUT_JSON: json_write_windows(f, res, JSON_WINDOWS_NO); break;
    }
    assert_int_equal(fclose(f), 0);
    return buf;
}

static void assert_same_value(double a, double b, const char *what, const char *scheme)
{
    if (!(isnan(a) && isnan(b)) && memcmp(&a, &b, sizeof a) != 0)
        fail_msg("%s of %s: %.17g from the matrix, %.17g from the digest", what, scheme, a, b);
}

static void test_digest_gives_the_same_reports(void **state)
{
    (void)state;
    scenario full_sc, digest_sc;
    scenario_of(&full_sc, "100", 0);
    scenario_of(&digest_sc, "100", 1);
    char err[512];
    sim_results full, reduced;
    assert_int_equal(engine_run_all(&full_sc, NULL, &full, err, sizeof err), 0);
    assert_int_equal(engine_run_all(&digest_sc, NULL, &reduced, err, sizeof err), 0);
    assert_int_equal(full.nruns, reduced.nruns);
    for (size_t i = 0; i < full.nruns; i++) {
        const run_result *a = &full.runs[i], *b = &reduced.runs[i];
        assert_false(a->digest.present);
        assert_non_null(a->window_writes);
        assert_non_null(a->window_reads);
        /* freed: nothing of this invocation needs them */
        assert_true(b->digest.present);
        assert_true(b->digest.reads);
        assert_null(b->window_writes);
        assert_null(b->window_reads);
        assert_true(a->reads > 0);
        for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f))
            assert_same_value(figure_value(f, a, 0), figure_value(f, b, 0), f->name,
                              a->scheme_name);
        steady_state sa = stats_steady(a), sb = stats_steady(b);
        assert_int_equal(sa.steady, sb.steady);
        assert_int_equal(sa.hottest_moved, sb.hottest_moved);
        assert_int_equal(sa.hottest_before, sb.hottest_before);
        assert_int_equal(sa.hottest_after, sb.hottest_after);
        assert_int_equal(sa.span_us, sb.span_us);
        for (int reads = 0; reads < 2; reads++) {
            window_stats wa = stats_run_windows(a, reads, 3), wb = stats_run_windows(b, reads, 3);
            assert_int_equal(wa.windows, wb.windows);
            assert_true(wa.windows > 0);
            assert_same_value(wa.mean_max_mean, wb.mean_max_mean, "mean window max/mean", a->scheme_name);
            assert_same_value(wa.worst_max_mean, wb.worst_max_mean, "worst window max/mean", a->scheme_name);
        }
    }
    for (int which = STATS_SERVER_WRITES; which <= STATS_KEY_READS; which++)
        assert_int_equal(stats_shared_max(&full, which), stats_shared_max(&reduced, which));

    const char *texts[] = { "balance writes <= 1.5 over last 6 windows",
                            "balance reads <= 3 over last 4 windows",
                            "steady over last 5 windows" };
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
        assertion a;
        assert_int_equal(assertion_parse(texts[t], &a, err, sizeof err), 0);
        assertion_result ra[2], rb[2];
        assert_int_equal(assertion_check(&a, &full, ra, err, sizeof err), 2);
        assert_int_equal(assertion_check(&a, &reduced, rb, err, sizeof err), 2);
        for (int i = 0; i < 2; i++) {
            assert_same_value(ra[i].value, rb[i].value, texts[t], ra[i].scheme);
            assert_int_equal(ra[i].passed, rb[i].passed);
            assert_false(isnan(ra[i].value));
        }
    }

    for (out_kind k = OUT_TEXT; k <= OUT_JSON; k++) {
        size_t la, lb;
        char *a = render(&full, k, &la), *b = render(&reduced, k, &lb);
        if (la != lb || memcmp(a, b, la) != 0)
            fail_msg("report %d differs: %zu bytes from the matrix, %zu from the digest", (int)k,
                     la, lb);
        assert_true(la > 1000);
        if (k == OUT_TEXT) /* binned: a row is a bin of 4 servers */
            assert_non_null(strstr(a, "rs0-rs3"));
        free(a);
        free(b);
    }
    /* JSON's arrays need the matrix: a reduced run gives totals and maxima */
    assert_int_equal(json_windows_per_server(&full, JSON_WINDOWS_YES), 1);
    assert_int_equal(json_windows_per_server(&reduced, JSON_WINDOWS_YES), 0);
    sim_results_free(&full);
    sim_results_free(&reduced);
    scenario_release(&full_sc);
    scenario_release(&digest_sc);
}

static void test_few_servers_keep_their_matrix(void **state)
{
    (void)state;
    scenario sc;
    scenario_of(&sc, "8", 1);
    char err[512];
    sim_results res;
    assert_int_equal(engine_run_all(&sc, NULL, &res, err, sizeof err), 0);
    for (size_t i = 0; i < res.nruns; i++) {
        assert_false(res.runs[i].digest.present);
        assert_non_null(res.runs[i].window_writes);
    }
    sim_results_free(&res);
    scenario_release(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_by_hand),
        cmocka_unit_test(test_small_runs_are_kept),
        cmocka_unit_test(test_digest_gives_the_same_reports),
        cmocka_unit_test(test_few_servers_keep_their_matrix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
