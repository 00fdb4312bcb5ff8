/* test_figures.c -- the registry of figures (reports/figures.h).
 *
 * The registry's own contract: names unique and snake_case, every entry
 * described, families expanded over every read kind, values those of
 * reports/stats.h on a hand-built run, NAN where undefined, and the
 * "did you mean" of figure_nearest.
 *
 * Then the point of the registry: every figure reaches every format
 * without a writer naming it. For a hand-built result, each registry
 * name must appear in the text run report, the text compare report, the
 * JSON (as a member of "figures"), the CSV (a line of figures.csv or
 * server_figures.csv) and the HTML page. A new entry in figures.c is
 * checked here with no change to this file.
 *
 * Last, docs/figures.md must list every figure as the registry describes
 * it, and nothing else, so the documentation cannot drift: the program's
 * first argument is the source root.
 */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "tests/support.h"

#include "reports/figures.h"
#include "reports/report.h"
#include "reports/stats.h"

static const char *source_root = ".";


/* ---- a hand-built result ---- */

/* Run 0: 3 servers, writes {10, 30, 0}, reads on two servers, two kinds of
 * read, latency timed, 4 windows. Run 1: nothing at all. */
typedef struct fixture {
    server_result sv0[3], sv1[3];
    uint64_t win_writes[12], win_reads[12], win_regions[4];
    run_result runs[2];
    sim_results res;
} fixture;

static void fixture_init(fixture *f)
{
    memset(f, 0, sizeof *f);
    for (int s = 0; s < 3; s++) {
        snprintf(f->sv0[s].name, sizeof f->sv0[s].name, "rs%d", s);
        snprintf(f->sv1[s].name, sizeof f->sv1[s].name, "rs%d", s);
    }
    f->sv0[0] = (server_result){ .name = "rs0", .writes = 10, .reads = 6, .bytes = 500,
        .regions = 1, .rpcs = 16, .busy = 0.25, .longest_queue = 2,
        .latency = { 16, 120.5, 100, 900, 950, 1000 } };
    f->sv0[1] = (server_result){ .name = "rs1", .writes = 30, .reads = 2, .bytes = 1500,
        .regions = 2, .rpcs = 32, .busy = 0.5, .longest_queue = 3, .rows_scanned = 7,
        .latency = { 32, 80.0, 50, 400, 500, 600 } };
    const uint64_t ww[12] = { 10, 10, 0, 0, 20, 0, 0, 0, 0, 0, 0, 0 };
    memcpy(f->win_writes, ww, sizeof ww);
    const uint64_t wr[4] = { 1, 2, 2, 3 };
    memcpy(f->win_regions, wr, sizeof wr);

    run_result *r = &f->runs[0];
    *r = (run_result){
        .scheme_name = "monotonic", .scheme_expr = "ts", .key_example = "k1",
        .presplit = "none", .nservers = 3, .servers = f->sv0, .writes = 40, .reads = 5,
        .duration_us = 8000000, .offered_per_s = 6.0, .achieved_per_s = 5.5, .unfinished = 1,
        .latency = { 48, 93.5, 60, 800, 900, 1000 },
        .read_latency = { 5, 300.0, 200, 700, 800, 900 },
        .regions_start = 1, .regions = 3, .splits = 2, .moves = 1, .rows = 40, .bytes = 2000,
        .key_bytes_min = 8, .key_bytes_max = 9, .key_bytes_mean = 8.25,
        .window_us = 2000000, .nwindows = 4, .window_writes = f->win_writes,
        .window_reads = f->win_reads, .window_regions = f->win_regions,
        .rows_scanned = 7, .records_returned = 4, .full_scans = 1 };
    r->reads_by_kind[QUERY_GET] = 4;
    r->read_rpcs_by_kind[QUERY_GET] = 4;
    r->rows_scanned_by_kind[QUERY_GET] = 4;
    r->records_returned_by_kind[QUERY_GET] = 3;
    r->reads_by_kind[QUERY_RANGE] = 1;
    r->read_rpcs_by_kind[QUERY_RANGE] = 4;
    r->rows_scanned_by_kind[QUERY_RANGE] = 3;
    r->records_returned_by_kind[QUERY_RANGE] = 1;

    f->runs[1] = (run_result){ .scheme_name = "idle", .scheme_expr = "md5(ts)",
        .key_example = "", .presplit = "3 buckets", .nservers = 3, .servers = f->sv1 };
    f->res = (sim_results){ .scenario = "figures", .seed = 1, .servers = 3,
        .split_policy = "size", .region_max_bytes = 1u << 20, .balancer = "none",
        .window_us = 2000000, .workload = "sequence", .cell_overhead_bytes = 40,
        .nruns = 2, .runs = f->runs };
}

static double value_of(const char *name, const run_result *run, size_t index)
{
    const figure *f = figure_find(name);
    if (!f) fail_msg("no figure %s", name);
    return figure_value(f, run, index);
}

/* ---- the registry ---- */

static int snake_case(const char *s)
{
    if (!islower((unsigned char)s[0])) return 0;
    for (const char *p = s; *p; p++) {
        if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_') return 0;
        if (*p == '_' && (p[1] == '_' || p[1] == '\0')) return 0;
    }
    return 1;
}

static void test_names_unique_snake_case_described(void **state)
{
    (void)state;
    static const char *const units[] = { "", "us", "ops/s", "count", "bytes", "share" };
    assert_true(figure_count() > 50);
    assert_null(figure_get(figure_count()));
    for (size_t i = 0; i < figure_count(); i++) {
        const figure *f = figure_get(i);
        assert_non_null(f);
        if (!snake_case(f->name)) fail_msg("not snake_case: '%s'", f->name);
        assert_true(strlen(f->name) < sizeof f->name);
        assert_non_null(f->unit);
        int known = 0;
        for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
            known |= !strcmp(f->unit, units[u]);
        if (!known) fail_msg("%s: unit '%s' is none of the known ones", f->name, f->unit);
        assert_non_null(f->meaning);
        if (strlen(f->meaning) < 10 || f->meaning[strlen(f->meaning) - 1] != '.')
            fail_msg("%s: meaning '%s' is not a sentence", f->name, f->meaning);
        assert_non_null(f->value);
        assert_true(f->decimals >= 0 && f->decimals <= 6);
        assert_true(f->scope == FIGURE_SCHEME || f->scope == FIGURE_SERVER);
        assert_int_equal(f->scope == FIGURE_SERVER, !strncmp(f->name, "server_", 7));
        assert_true(f->kind >= -1 && f->kind < QUERY_KINDS);
        assert_ptr_equal(figure_find(f->name), f);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(figure_get(j)->name, f->name)) fail_msg("%s twice", f->name);
        assert_string_not_equal(figure_scope_name(f->scope), "?");
        assert_string_not_equal(figure_better_name(f->better), "?");
    }
    assert_null(figure_find("no_such_figure"));
    assert_null(figure_find(NULL));
}

/* figure_first and figure_next visit a scope's figures, in the registry's
 * order, and only those. */
static void test_first_next_walk_one_scope(void **state)
{
    (void)state;
    static const figure_scope scopes[] = { FIGURE_SCHEME, FIGURE_SERVER };
    for (size_t s = 0; s < sizeof scopes / sizeof scopes[0]; s++) {
        const figure *f = figure_first(scopes[s]);
        for (size_t i = 0; i < figure_count(); i++) {
            if (figure_get(i)->scope != scopes[s])
                continue;
            assert_ptr_equal(f, figure_get(i));
            f = figure_next(f);
        }
        assert_null(f);
    }
}

/* The names the issue and the other writers rely on. */
static void test_named_figures_exist(void **state)
{
    (void)state;
    static const char *const names[] = {
        "write_max_mean", "read_max_mean", "write_window_max_mean",
        "write_worst_window_max_mean", "write_cov", "write_gini", "write_jain",
        "hottest_share", "p50_latency_us", "p99_latency_us", "p999_latency_us",
        "rpcs_per_read", "rows_scanned_per_row", "achieved_ops_per_s", "splits", "moves",
        "regions", "writes", "reads", "offered_ops_per_s", "unfinished",
        "read_p99_latency_us", "key_bytes_mean", "rows", "bytes", "regions_start",
        "balancer_runs", "full_scans", "records_returned", "read_cov", "read_gini",
        "read_jain", "read_hottest_share", "mean_latency_us", "max_latency_us",
        "server_writes", "server_reads", "server_bytes", "server_regions", "server_busy",
        "server_rpcs", "server_p99_latency_us",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!figure_find(names[i])) fail_msg("no figure %s", names[i]);
    assert_int_equal(figure_find("write_max_mean")->better, FIGURE_LOWER_BETTER);
    assert_int_equal(figure_find("write_jain")->better, FIGURE_HIGHER_BETTER);
    assert_int_equal(figure_find("splits")->better, FIGURE_NEITHER);
    assert_string_equal(figure_find("p99_latency_us")->unit, "us");
}

/* Every family has a member per read kind, named by query_kind_name. */
static void test_families_cover_every_read_kind(void **state)
{
    (void)state;
    static const char *const families[] = { "reads_", "read_rpcs_", "rpcs_per_read_",
                                            "rows_scanned_", "rows_scanned_per_row_",
                                            "records_returned_", "read_share_" };
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        for (int k = 0; k < QUERY_KINDS; k++) {
            char name[64];
            snprintf(name, sizeof name, "%s%s", families[i], query_kind_name((query_kind)k));
            const figure *f = figure_find(name);
            if (!f) fail_msg("no figure %s", name);
            assert_int_equal(f->kind, k);
            assert_int_equal(f->scope, FIGURE_SCHEME);
        }
    }
    /* and every figure with a kind is a member of some family */
    for (size_t i = 0; i < figure_count(); i++) {
        const figure *f = figure_get(i);
        if (f->kind < 0) continue;
        const char *kind = query_kind_name((query_kind)f->kind);
        size_t n = strlen(f->name), k = strlen(kind);
        assert_true(n > k + 1 && !strcmp(f->name + n - k, kind) && f->name[n - k - 1] == '_');
    }
}

static void test_values_are_stats(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    const run_result *r = &f.runs[0];
    imbalance w = stats_server_writes(r), rd = stats_server_reads(r);
    window_stats ws = stats_window_writes(r);
    assert_double_equal(value_of("write_max_mean", r, 0), w.max_mean, 1e-12);
    assert_double_equal(value_of("write_max_mean", r, 0), 30.0 / (40.0 / 3), 1e-12);
    assert_double_equal(value_of("write_cov", r, 0), w.cov, 1e-12);
    assert_double_equal(value_of("write_gini", r, 0), w.gini, 1e-12);
    assert_double_equal(value_of("write_jain", r, 0), w.jain, 1e-12);
    assert_double_equal(value_of("hottest_share", r, 0), 0.75, 1e-12);
    assert_double_equal(value_of("read_max_mean", r, 0), rd.max_mean, 1e-12);
    assert_double_equal(value_of("read_hottest_share", r, 0), 0.75, 1e-12);
    assert_double_equal(value_of("write_window_max_mean", r, 0), ws.mean_max_mean, 1e-12);
    assert_double_equal(value_of("write_worst_window_max_mean", r, 0), ws.worst_max_mean, 1e-12);
    assert_double_equal(value_of("write_windows", r, 0), 2, 0);
    assert_double_equal(value_of("writes", r, 0), 40, 0);
    assert_double_equal(value_of("p50_latency_us", r, 0), 60, 0);
    assert_double_equal(value_of("p99_latency_us", r, 0), 800, 0);
    assert_double_equal(value_of("p999_latency_us", r, 0), 900, 0);
    assert_double_equal(value_of("mean_latency_us", r, 0), 93.5, 0);
    assert_double_equal(value_of("read_p99_latency_us", r, 0), 700, 0);
    assert_double_equal(value_of("achieved_ops_per_s", r, 0), 5.5, 0);
    assert_double_equal(value_of("offered_ops_per_s", r, 0), 6.0, 0);
    assert_double_equal(value_of("rpcs_per_read", r, 0), 8.0 / 5, 1e-12);
    assert_double_equal(value_of("rows_scanned_per_row", r, 0), 7.0 / 4, 1e-12);
    assert_double_equal(value_of("reads_get", r, 0), 4, 0);
    assert_double_equal(value_of("reads_range", r, 0), 1, 0);
    assert_double_equal(value_of("read_share_get", r, 0), 0.8, 1e-12);
    assert_double_equal(value_of("rpcs_per_read_range", r, 0), 4, 0);
    assert_double_equal(value_of("rows_scanned_per_row_get", r, 0), 4.0 / 3, 1e-12);
    assert_double_equal(value_of("busiest_busy", r, 0), 0.5, 0);
    assert_double_equal(value_of("longest_queue", r, 0), 3, 0);
    assert_double_equal(value_of("key_bytes_mean", r, 0), 8.25, 0);
    assert_double_equal(value_of("splits", r, 0), 2, 0);
    assert_double_equal(value_of("regions", r, 0), 3, 0);
    assert_double_equal(value_of("regions_start", r, 0), 1, 0);
    /* server scope: by index */
    assert_double_equal(value_of("server_writes", r, 1), 30, 0);
    assert_double_equal(value_of("server_write_share", r, 1), 0.75, 1e-12);
    assert_double_equal(value_of("server_busy", r, 0), 0.25, 0);
    assert_double_equal(value_of("server_p99_latency_us", r, 0), 900, 0);
    assert_true(isnan(value_of("server_p99_latency_us", r, 2))); /* timed nothing */
    assert_true(isnan(value_of("server_writes", r, 3)));         /* no such server */
    /* figure_named is the same lookup */
    assert_double_equal(figure_named("write_gini", r, 0), w.gini, 0);
    /* a scheme figure ignores the index */
    assert_double_equal(value_of("writes", r, 7), 40, 0);
}

static void test_nan_where_undefined(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    const run_result *idle = &f.runs[1];
    static const char *const undefined[] = {
        "write_max_mean", "write_cov", "write_gini", "write_jain", "hottest_share",
        "read_max_mean", "write_window_max_mean", "write_worst_window_max_mean",
        "p50_latency_us", "p99_latency_us", "read_p99_latency_us", "mean_latency_us",
        "offered_ops_per_s", "achieved_ops_per_s", "rpcs_per_read", "rows_scanned_per_row",
        "rpcs_per_read_get", "read_share_scan", "key_bytes_mean",
    };
    for (size_t i = 0; i < sizeof undefined / sizeof undefined[0]; i++)
        if (!isnan(value_of(undefined[i], idle, 0)))
            fail_msg("%s is %g on an idle run, not NAN", undefined[i],
                     value_of(undefined[i], idle, 0));
    /* counts are 0, never NAN */
    assert_double_equal(value_of("writes", idle, 0), 0, 0);
    assert_double_equal(value_of("reads_get", idle, 0), 0, 0);
    assert_double_equal(value_of("server_writes", idle, 0), 0, 0);
    /* a kind that did not run, in a run that read */
    assert_true(isnan(value_of("rpcs_per_read_scan", &f.runs[0], 0)));
}

static void test_nearest(void **state)
{
    (void)state;
    assert_string_equal(figure_nearest("write_max_mean"), "write_max_mean");
    assert_string_equal(figure_nearest("write_max_men"), "write_max_mean");
    assert_string_equal(figure_nearest("wirte_max_mean"), "write_max_mean");
    assert_string_equal(figure_nearest("p99_latency"), "p99_latency_us");
    assert_string_equal(figure_nearest("read_get"), "reads_get");
    assert_null(figure_nearest("zzzzzzzzzzzzzzzzzzzz"));
    assert_null(figure_nearest(""));
    assert_null(figure_nearest(NULL));
    char long_name[4096];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    assert_null(figure_nearest(long_name));
}

/* ---- every figure reaches every format ---- */

typedef void (*writer)(FILE *out, const sim_results *res);

/* The whole of f, from its start, in a NUL-terminated heap buffer. (Not
 * open_memstream: with its buffer's address handed to the stream, gcc 12
 * at -O3 takes the text for a pointer to a local and warns,
 * -Wdangling-pointer, wherever it inlines the helper.) */
static char *read_all(FILE *f)
{
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    return buf;
}

static char *render(writer w, const sim_results *res)
{
    FILE *out = tmpfile();
    assert_non_null(out);
    w(out, res);
    assert_int_equal(fflush(out), 0);
    char *buf = read_all(out);
    assert_int_equal(fclose(out), 0);
    return buf;
}

static void text_run_0(FILE *out, const sim_results *res)
{
    text_write_run(out, res, &res->runs[0], 40, 0);
}

static void text_run_1(FILE *out, const sim_results *res)
{
    text_write_run(out, res, &res->runs[1], 40, 0);
}

static void text_compare(FILE *out, const sim_results *res) { text_write_compare(out, res, 0); }

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    char *buf = read_all(f);
    fclose(f);
    return buf;
}

/* Whether `name` appears in text between the delimiters: before is one of
 * `pre`'s characters, after one of `post`'s. */
static int appears(const char *text, const char *name, const char *pre, const char *post)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name))
        if (p > text && strchr(pre, p[-1]) && p[n] && strchr(post, p[n]))
            return 1;
    return 0;
}

static void test_every_figure_reaches_every_format(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *run0 = render(text_run_0, &f.res), *run1 = render(text_run_1, &f.res);
    char *compare = render(text_compare, &f.res);
    char *json = render(json_write, &f.res);
    char *html = render(html_write, &f.res);

    char err[256] = "";
    csv_file files[CSV_FILES];
    if (csv_render(&f.res, files, err, sizeof err) != 0) fail_msg("csv_render: %s", err);
    char *csv = NULL, *server_csv = NULL;
    for (size_t i = 0; i < CSV_FILES; i++) {
        if (!strcmp(files[i].name, "figures.csv"))
            csv = strdup(files[i].text);
        else if (!strcmp(files[i].name, "server_figures.csv"))
            server_csv = strdup(files[i].text);
    }
    csv_files_free(files);
    assert_non_null(csv);
    assert_non_null(server_csv);

    json_object *root = json_tokener_parse(json), *runs;
    assert_non_null(root);
    assert_true(json_object_object_get_ex(root, "runs", &runs));
    for (size_t i = 0; i < figure_count(); i++) {
        const figure *fig = figure_get(i);
        const char *name = fig->name;
        if (!appears(run0, name, " ", " \n"))
            fail_msg("%s: not in the text run report", name);
        if (!appears(run1, name, " ", " \n"))
            fail_msg("%s: not in the text run report of an idle run", name);
        if (fig->scope == FIGURE_SCHEME && !appears(compare, name, " ", " \n"))
            fail_msg("%s: not in the text compare report", name);
        /* JSON: a member of every run's (or every server's) "figures" */
        for (size_t r = 0; r < f.res.nruns; r++) {
            json_object *run = json_object_array_get_idx(runs, r), *servers, *o;
            if (fig->scope == FIGURE_SCHEME) {
                assert_true(json_object_object_get_ex(run, "figures", &o));
                if (!json_object_object_get_ex(o, name, NULL))
                    fail_msg("%s: not in the JSON figures of run %zu", name, r);
                continue;
            }
            assert_true(json_object_object_get_ex(run, "servers", &servers));
            for (size_t s = 0; s < json_object_array_length(servers); s++) {
                assert_true(json_object_object_get_ex(json_object_array_get_idx(servers, s),
                                                      "figures", &o));
                if (!json_object_object_get_ex(o, name, NULL))
                    fail_msg("%s: not in the JSON figures of run %zu's server %zu", name, r, s);
            }
        }
        const char *csv_text = fig->scope == FIGURE_SCHEME ? csv : server_csv;
        if (!appears(csv_text, name, ",", ","))
            fail_msg("%s: not in %s", name,
                     fig->scope == FIGURE_SCHEME ? "figures.csv" : "server_figures.csv");
        if (!appears(html, name, ">", "<"))
            fail_msg("%s: not in the HTML", name);
    }
    json_object_put(root);
    free(run0);
    free(run1);
    free(compare);
    free(json);
    free(html);
    free(csv);
    free(server_csv);
}

/* The HTML panel shows each figure that is defined and not 0 by name and
 * value (the glossary names the rest). */
static void test_html_panel_shows_defined_figures(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    f.res.nruns = 1;
    char *html = render(html_write, &f.res);
    const char *glossary = strstr(html, "<summary>Every figure</summary>");
    assert_non_null(glossary);
    for (size_t i = 0; i < figure_count(); i++) {
        const figure *fig = figure_get(i);
        double v = figure_value(fig, &f.runs[0], 0);
        if (fig->scope != FIGURE_SCHEME || !isfinite(v) || v == 0) continue;
        char cell[128];
        snprintf(cell, sizeof cell, "<th>%s</th>", fig->name);
        const char *at = strstr(html, cell);
        if (!at || at > glossary) fail_msg("%s: not in the panel's figures table", fig->name);
    }
    assert_non_null(strstr(html, "<th>p99_latency_us</th><td>800</td><td>us</td>"));
    assert_non_null(strstr(html, "<th>rpcs_per_read</th><td>1.60</td><td></td>"));
    free(html);
}

/* `regionsim figures`, both forms, lists every figure once. */
static void test_figure_lists(void **state)
{
    (void)state;
    char *text = NULL, *json = NULL;
    size_t len;
    FILE *out = open_memstream(&text, &len);
    text_write_figure_list(out);
    fclose(out);
    out = open_memstream(&json, &len);
    json_write_figure_list(out);
    fclose(out);
    for (size_t i = 0; i < figure_count(); i++) {
        const figure *f = figure_get(i);
        char line[64], member[80];
        snprintf(line, sizeof line, "\n%s ", f->name);
        snprintf(member, sizeof member, "{\"name\": \"%s\",", f->name);
        if (!strstr(text, line)) fail_msg("%s: not in the text list", f->name);
        if (!strstr(json, member)) fail_msg("%s: not in the JSON list", f->name);
        assert_non_null(strstr(text, f->meaning));
    }
    free(text);
    free(json);
}

/* ---- the docs ---- */

/* docs/figures.md's row for f, as the registry describes it. */
static void doc_row(char *buf, size_t cap, const figure *f)
{
    snprintf(buf, cap, "| `%s` | %s | %s | %s | %s | %s |", f->name, f->unit[0] ? f->unit : "-",
             figure_scope_name(f->scope), figure_better_name(f->better),
             figure_seeds_name(figure_seed_class(f)), f->meaning);
}

static void test_docs_list_every_figure(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/docs/figures.md", source_root);
    char *doc = slurp(path);
    for (size_t i = 0; i < figure_count(); i++) {
        char row[512];
        doc_row(row, sizeof row, figure_get(i));
        if (!strstr(doc, row))
            fail_msg("docs/figures.md lacks this row (or has it otherwise); it should read\n%s",
                     row);
    }
    /* and no row names a figure the registry does not have */
    size_t rows = 0;
    for (const char *p = strstr(doc, "\n| `"); p; p = strstr(p + 1, "\n| `")) {
        char name[64];
        if (sscanf(p, "\n| `%63[^`]`", name) != 1) continue;
        rows++;
        if (!figure_find(name)) fail_msg("docs/figures.md lists '%s', not in the registry", name);
    }
    assert_int_equal(rows, figure_count());
    free(doc);

    /* docs/reports.md points there */
    snprintf(path, sizeof path, "%s/docs/reports.md", source_root);
    char *reports = slurp(path);
    assert_non_null(strstr(reports, "figures.md"));
    free(reports);
}

int main(int argc, char **argv)
{
    if (argc > 1) source_root = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_unique_snake_case_described),
        cmocka_unit_test(test_first_next_walk_one_scope),
        cmocka_unit_test(test_named_figures_exist),
        cmocka_unit_test(test_families_cover_every_read_kind),
        cmocka_unit_test(test_values_are_stats),
        cmocka_unit_test(test_nan_where_undefined),
        cmocka_unit_test(test_nearest),
        cmocka_unit_test(test_every_figure_reaches_every_format),
        cmocka_unit_test(test_html_panel_shows_defined_figures),
        cmocka_unit_test(test_figure_lists),
        cmocka_unit_test(test_docs_list_every_figure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
