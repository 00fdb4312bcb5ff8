/* test_csv.c -- the CSV report parses back (with a strict RFC 4180 reader
 * below) to what it was given. csv_render only renders (the files are
 * written into -o DIR as one set by cli/output_set.c, whose rules
 * tests/test_output.c and tests/test_cli_files.c check: all or none, a
 * full disk, the directory removed again); here the rendered files are
 * written plainly into a fresh directory and read back. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "reports/figures.h"
#include "reports/report.h"
#include "reports/samples.h"
#include "tests/support.h"

/* A scheme name with every character that forces quoting. */
#define NFILES 8 /* the files csv_render renders */
#define NASTY "salt(8) \"ts\",\r\nv2 \"\""
/* A key in shell form with a comma and quotes. */
#define COMMA_KEY "\\x01,\"a\""

/* Run 0 (NASTY): 3 servers, 2 windows of 2 s, 4 key buckets, 4 regions
 * (one split into two), 7 events (the last a stochastic balancer run with
 * two cost functions); 100 writes, 21 read RPCs.
 * Run 1 ("plain"): 2 servers, 3 windows of 1 s, 2 buckets, 1 region, no
 * events, 12 writes and no reads. */
typedef struct fixture {
    server_result sv0[3], sv1[2];
    uint64_t ww0[6], wr0[6], ww1[6], wr1[6];
    char *bstart0[4], *bstart1[2];
    uint64_t kw0[8], kr0[8], kw1[6], kr1[6];
    region_result hist0[4], hist1[1];
    timeline_event ev0[7];
    balancer_report bal0[1];
    run_result runs[2];
    sim_results res;
} fixture;

static void fixture_init(fixture *f)
{
    memset(f, 0, sizeof *f);
    const uint64_t sw[3] = { 40, 20, 40 }, sr[3] = { 5, 7, 9 };
    for (int s = 0; s < 3; s++) {
        snprintf(f->sv0[s].name, sizeof f->sv0[s].name, "rs%d", s);
        f->sv0[s].writes = sw[s], f->sv0[s].reads = sr[s], f->sv0[s].bytes = 100 * sw[s];
        f->sv0[s].rpcs = sw[s] + sr[s], f->sv0[s].regions = 1;
    }
    f->sv0[1].busy = 0.25, f->sv0[1].longest_queue = 3;
    f->sv0[1].latency = (latency_summary){ 27, 80.0, 51, 98, 110, 111 };
    f->sv0[2].latency = (latency_summary){ 49, 70.0, 40, 90, 100, 101 };
    for (int s = 0; s < 2; s++) {
        snprintf(f->sv1[s].name, sizeof f->sv1[s].name, "rs%d", s);
        f->sv1[s].writes = s ? 2 : 10;
    }

    const uint64_t ww0[6] = { 10, 20, 0, 30, 0, 40 }, wr0[6] = { 1, 2, 3, 4, 5, 6 };
    const uint64_t ww1[6] = { 1, 2, 3, 0, 6, 0 };
    memcpy(f->ww0, ww0, sizeof ww0);
    memcpy(f->wr0, wr0, sizeof wr0);
    memcpy(f->ww1, ww1, sizeof ww1);

    const uint64_t kw0[8] = { 5, 10, 15, 0, 0, 20, 30, 20 }, kr0[8] = { 1, 2, 3, 0, 4, 5, 6, 0 };
    const uint64_t kw1[6] = { 3, 0, 1, 2, 6, 0 };
    memcpy(f->kw0, kw0, sizeof kw0);
    memcpy(f->kr0, kr0, sizeof kr0);
    memcpy(f->kw1, kw1, sizeof kw1);
    f->bstart0[0] = "", f->bstart0[1] = COMMA_KEY, f->bstart0[2] = "b\"c", f->bstart0[3] = "m";
    f->bstart1[0] = "", f->bstart1[1] = "k";

    f->hist0[0] = (region_result){ .start = "", .end = "m", .id = 0, .server = 0, .split = 1,
        .opened_us = 0, .closed_us = 1500000, .writes = 30, .reads = 5, .rows = 30, .bytes = 3000 };
    f->hist0[1] = (region_result){ .start = "", .end = COMMA_KEY, .id = 1, .server = 1,
        .opened_us = 1500000, .closed_us = 4000000, .writes = 20, .reads = 6, .rows = 35 };
    f->hist0[2] = (region_result){ .start = COMMA_KEY, .end = "m", .id = 1, .server = 2,
        .opened_us = 1500000, .closed_us = 4000000, .writes = 25, .reads = 4, .rows = 20 };
    f->hist0[3] = (region_result){ .start = "m", .end = "", .id = 0, .server = 2,
        .opened_us = 0, .closed_us = 4000000, .writes = 25, .reads = 6, .rows = 25 };
    f->hist1[0] = (region_result){ .start = "", .end = "", .server = 1, .closed_us = 3000000,
        .writes = 12, .rows = 12 };

    f->ev0[0] = (timeline_event){ .t_us = 1500000, .kind = TIMELINE_SPLIT, .from = 0, .to = 0, .key = COMMA_KEY,
        .split = { .size_bytes = 4300000, .threshold_bytes = 4194304, .regions_on_server = 1 } };
    f->ev0[1] = (timeline_event){ .t_us = 2000001, .kind = TIMELINE_MOVE, .from = 0, .to = 2, .key = COMMA_KEY };
    f->ev0[2] = (timeline_event){ .t_us = 2500000, .kind = TIMELINE_SERVERS_ADDED, .from = 3, .to = 4, .key = NULL };
    f->ev0[3] = (timeline_event){ .t_us = 3000000, .kind = TIMELINE_REASSIGN, .from = 1, .to = 2, .key = "" };
    f->ev0[4] = (timeline_event){ .t_us = 3500000, .kind = TIMELINE_DECOMMISSION, .from = 1, .to = 0, .key = NULL };
    f->ev0[5] = (timeline_event){ .t_us = 3999999, .kind = TIMELINE_FAILURE, .from = 2, .to = 0, .key = NULL };
    f->ev0[6] = (timeline_event){ .t_us = 3999999, .kind = TIMELINE_BALANCER, .balancer = 0 };
    f->bal0[0] = (balancer_report){ .kind = BALANCER_STOCHASTIC, .ran = 1,
        .reason = BALANCER_COST_HIGH, .moves = 3, .least = 1, .most = 5, .average = 3,
        .floor = 2, .ceiling = 4, .cost_before = 0.5, .cost_after = 0.125, .ncosts = 2,
        .costs = { { "RegionCountSkewCostFunction", 500, 0.5, 0.125 },
                   { "MoveCostFunction", 7, 0, 0.25 } } };

    f->runs[0] = (run_result){ .scheme_name = NASTY, .scheme_expr = "salt(8) ts",
        .nservers = 3, .servers = f->sv0, .writes = 100, .reads = 15, .duration_us = 4000000,
        .window_us = 2000000, .nwindows = 2, .window_writes = f->ww0, .window_reads = f->wr0,
        .keyspace = { .nbuckets = 4, .bucket_start = f->bstart0, .writes = f->kw0,
                      .reads = f->kr0, .sample = 1000, .exact = 1 },
        .nhistory = 4, .history = f->hist0, .nevents = 7, .events = f->ev0,
        .balancer_log = f->bal0, .balancer_runs = 1 };
    f->runs[1] = (run_result){ .scheme_name = "plain", .scheme_expr = "ts",
        .nservers = 2, .servers = f->sv1, .writes = 12, .duration_us = 3000000,
        .window_us = 1000000, .nwindows = 3, .window_writes = f->ww1, .window_reads = f->wr1,
        .keyspace = { .nbuckets = 2, .bucket_start = f->bstart1, .writes = f->kw1,
                      .reads = f->kr1, .sample = 1000, .exact = 1 },
        .nhistory = 1, .history = f->hist1 };
    f->res = (sim_results){ .scenario = "test", .seed = 1, .servers = 3, .window_us = 2000000,
        .nruns = 2, .runs = f->runs };
}

/* ---- a strict RFC 4180 reader: every record ends in LF ---- */

enum { MAXCOLS = 20 };

typedef struct row {
    int ncols;
    char *col[MAXCOLS];
} row;

typedef struct table {
    size_t nrows;  /* rows[0] is the header */
    row *rows;
} table;

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    for (size_t got; (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            buf = realloc(buf, cap *= 2);
            assert_non_null(buf);
        }
    }
    assert_int_equal(fclose(f), 0);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* One field at text[*i]; leaves *i at the comma or LF after it. */
static char *parse_field(const char *text, size_t len, size_t *i)
{
    char *out = malloc(len - *i + 1), *o = out;
    assert_non_null(out);
    if (*i < len && text[*i] == '"') {
        for (++*i;; ++*i) {
            if (*i >= len) fail_msg("unterminated quoted field");
            if (text[*i] == '"') {
                if (*i + 1 < len && text[*i + 1] == '"') ++*i;
                else break;
            }
            *o++ = text[*i];
        }
        ++*i; /* the closing quote */
        if (*i < len && text[*i] != ',' && text[*i] != '\n')
            fail_msg("'%c' after a closing quote at byte %zu", text[*i], *i);
    } else {
        for (; *i < len && text[*i] != ',' && text[*i] != '\n'; ++*i) {
            if (text[*i] == '"' || text[*i] == '\r')
                fail_msg("unquoted field holds a quote or CR at byte %zu", *i);
            *o++ = text[*i];
        }
    }
    *o = '\0';
    return out;
}

static table parse_csv(const char *path)
{
    size_t len, i = 0;
    char *text = slurp(path, &len);
    table t = { 0, NULL };
    while (i < len) {
        row r = { 0, { NULL } };
        for (;;) {
            if (r.ncols == MAXCOLS) fail_msg("%s: too many columns", path);
            r.col[r.ncols++] = parse_field(text, len, &i);
            if (i >= len) fail_msg("%s: last line has no LF", path);
            if (text[i++] == '\n') break;
        }
        t.rows = realloc(t.rows, (t.nrows + 1) * sizeof *t.rows);
        assert_non_null(t.rows);
        t.rows[t.nrows++] = r;
    }
    free(text);
    return t;
}

static void table_free(table *t)
{
    for (size_t r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->rows[r].ncols; c++) free(t->rows[r].col[c]);
    free(t->rows);
}

/* ---- directories ---- */

typedef struct path {
    char s[512];
} path;

static path path_of(const char *dir, const char *name)
{
    path p;
    int n = snprintf(p.s, sizeof p.s, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= sizeof p.s) fail_msg("path too long: %s/%s", dir, name);
    return p;
}

/* A new empty directory /tmp/csv-XXXXXX. */
static path fresh_dir(void)
{
    path p;
    snprintf(p.s, sizeof p.s, "/tmp/csv-XXXXXX");
    assert_non_null(mkdtemp(p.s));
    return p;
}

/* Removes dir, its files and its empty subdirectories. */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            remove(path_of(dir, e->d_name).s);
    closedir(d);
    rmdir(dir);
}

/* Entries of dir other than . and .., and how many look like temporaries
 * (a leading dot and a .tmp suffix) and are not directories. */
static int count_entries(const char *dir, int *temps)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    *temps = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        n++;
        size_t len = strlen(e->d_name);
        struct stat st;
        if (e->d_name[0] == '.' && len > 4 && !strcmp(e->d_name + len - 4, ".tmp") &&
            stat(path_of(dir, e->d_name).s, &st) == 0 && !S_ISDIR(st.st_mode))
            ++*temps;
    }
    closedir(d);
    return n;
}

static void write_ok(const fixture *f, const char *dir)
{
    char err[512] = "";
    csv_file out[CSV_FILES];
    if (csv_render(&f->res, out, err, sizeof err) != 0) fail_msg("csv_render: %s", err);
    for (size_t i = 0; i < CSV_FILES; i++) {
        assert_string_equal(out[i].name, csv_file_name(i));
        FILE *fp = fopen(path_of(dir, out[i].name).s, "w");
        assert_non_null(fp);
        assert_int_equal(fwrite(out[i].text, 1, out[i].len, fp), out[i].len);
        assert_int_equal(fclose(fp), 0);
    }
    csv_files_free(out);
}
/* ---- the files ---- */

static const struct {
    const char *name, *header;
} files[NFILES] = {
    { "servers.csv", "scheme,server,writes,reads,rows_scanned,bytes,regions,rpcs,busy,"
                     "longest_queue,latency_p50_us,latency_p99_us,latency_max_us,"
                     "write_share,read_share,store" },
    { "windows.csv", "scheme,window,start_s,end_s,server,writes,reads" },
    { "regions.csv", "scheme,region_id,start_key,end_key,server,opened_s,closed_s,state,"
                     "writes,reads,rows,bytes,write_share,read_share,store" },
    { "keyspace.csv", "scheme,window,start_s,bucket,bucket_start_key,writes,reads" },
    { "events.csv", "scheme,time_s,kind,from_server,to_server,key,reason,size_bytes,"
                    "threshold_bytes,ran,moves,regions_least,regions_most,average,floor,"
                    "ceiling,cost_before,cost_after" },
    { "balancer_costs.csv", "scheme,time_s,function,multiplier,before,after,weighted_before,"
                            "weighted_after" },
    { "figures.csv", "scheme,figure,value,unit,samples,min,median,max,store" },
    { "server_figures.csv", "scheme,server,figure,value,unit,store" },
};

/* Registry figures of one scope: the lines figures.csv (server_figures.csv)
 * has per run (per server). */
static size_t figures_of(figure_scope scope)
{
    size_t n = 0;
    for (size_t i = 0; i < figure_count(); i++) n += figure_get(i)->scope == scope;
    return n;
}

/* The parsed file, checked for its header, its row count (excluding the
 * header) and the column count of every row. */
static table load(const char *dir, int file, size_t rows)
{
    path p = path_of(dir, files[file].name);
    table t = parse_csv(p.s);
    assert_true(t.nrows >= 1);
    size_t len;
    char *text = slurp(p.s, &len);
    assert_true(strncmp(text, files[file].header, strlen(files[file].header)) == 0);
    assert_int_equal(text[strlen(files[file].header)], '\n');
    free(text);
    if (t.nrows - 1 != rows)
        fail_msg("%s: %zu rows, expected %zu", files[file].name, t.nrows - 1, rows);
    for (size_t r = 1; r < t.nrows; r++)
        if (t.rows[r].ncols != t.rows[0].ncols)
            fail_msg("%s row %zu: %d columns, header has %d", files[file].name, r,
                     t.rows[r].ncols, t.rows[0].ncols);
    return t;
}

/* The index of the named column of t's header. */
static int column(const table *t, const char *name)
{
    for (int c = 0; c < t->rows[0].ncols; c++)
        if (!strcmp(t->rows[0].col[c], name)) return c;
    fail_msg("no column %s", name);
    return -1;
}

/* The value of column `name` in data row r (1-based, as rows[0] is the header). */
static const char *val(const table *t, size_t r, const char *name)
{
    return t->rows[r].col[column(t, name)];
}

/* Sum of column `name` over the rows whose scheme is `scheme` (and, when
 * window >= 0, whose window is `window`). */
static uint64_t sum_of(const table *t, const char *name, const char *scheme, long window)
{
    uint64_t sum = 0;
    for (size_t r = 1; r < t->nrows; r++) {
        if (strcmp(val(t, r, "scheme"), scheme)) continue;
        if (window >= 0 && strtol(val(t, r, "window"), NULL, 10) != window) continue;
        sum += strtoull(val(t, r, name), NULL, 10);
    }
    return sum;
}

static void test_files_parse_back(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    path top = fresh_dir(), dir = path_of(top.s, "out");
    assert_int_equal(mkdir(dir.s, 0700), 0);
    write_ok(&f, dir.s);

    size_t expect[NFILES] = { 0 };
    for (int r = 0; r < 2; r++) {
        const run_result *run = &f.runs[r];
        expect[0] += run->nservers;
        expect[1] += (size_t)run->nwindows * run->nservers;
        expect[2] += run->nhistory;
        expect[3] += (size_t)run->nwindows * run->keyspace.nbuckets;
        expect[4] += run->nevents;
        for (size_t b = 0; b < run->balancer_runs; b++)
            expect[5] += run->balancer_log[b].ncosts;
        expect[6] += figures_of(FIGURE_SCHEME);
        expect[7] += run->nservers * figures_of(FIGURE_SERVER);
    }
    for (int i = 0; i < NFILES; i++) {
        table t = load(dir.s, i, expect[i]);
        /* Every row names its run, the nasty name exactly. */
        for (size_t r = 1; r < t.nrows; r++) {
            const char *s = t.rows[r].col[0];
            assert_true(!strcmp(s, NASTY) || !strcmp(s, "plain"));
        }
        if (expect[i]) assert_string_equal(t.rows[1].col[0], NASTY);
        table_free(&t);
    }
    int temps;
    assert_int_equal(count_entries(dir.s, &temps), NFILES);
    assert_int_equal(temps, 0);
    remove_dir(dir.s);
    remove_dir(top.s);
}

static void test_servers_and_windows(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    path dir = fresh_dir();
    write_ok(&f, dir.s);

    table t = load(dir.s, 0, 5);
    assert_string_equal(val(&t, 1, "server"), "rs0");
    assert_string_equal(val(&t, 1, "writes"), "40");
    assert_string_equal(val(&t, 1, "latency_p50_us"), ""); /* timed nothing */
    assert_string_equal(val(&t, 1, "latency_max_us"), "");
    assert_string_equal(val(&t, 1, "write_share"), "0.400000");
    assert_string_equal(val(&t, 2, "busy"), "0.250000");
    assert_string_equal(val(&t, 2, "longest_queue"), "3");
    assert_string_equal(val(&t, 2, "latency_p50_us"), "51");
    assert_string_equal(val(&t, 2, "latency_p99_us"), "98");
    assert_string_equal(val(&t, 2, "latency_max_us"), "111");
    assert_string_equal(val(&t, 3, "read_share"), "0.428571"); /* 9 of 21 RPCs */
    assert_string_equal(val(&t, 4, "scheme"), "plain");
    assert_string_equal(val(&t, 4, "write_share"), "0.833333");
    assert_string_equal(val(&t, 4, "read_share"), ""); /* no reads: no share */
    assert_int_equal(sum_of(&t, "writes", NASTY, -1), f.runs[0].writes);
    assert_int_equal(sum_of(&t, "writes", "plain", -1), f.runs[1].writes);
    table_free(&t);

    t = load(dir.s, 1, 12);
    for (int r = 0; r < 2; r++) {
        assert_int_equal(sum_of(&t, "writes", f.runs[r].scheme_name, -1), f.runs[r].writes);
    }
    assert_int_equal(sum_of(&t, "reads", NASTY, -1), 21);
    /* Run 0, window 1, server 2: row 6. */
    assert_string_equal(val(&t, 6, "window"), "1");
    assert_string_equal(val(&t, 6, "start_s"), "2.000000");
    assert_string_equal(val(&t, 6, "end_s"), "4.000000");
    assert_string_equal(val(&t, 6, "server"), "rs2");
    assert_string_equal(val(&t, 6, "writes"), "40");
    assert_string_equal(val(&t, 6, "reads"), "6");
    assert_string_equal(val(&t, 12, "start_s"), "2.000000"); /* run 1: 1 s windows */
    table_free(&t);
    remove_dir(dir.s);
}

static void test_regions_keyspace_events(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    path dir = fresh_dir();
    write_ok(&f, dir.s);

    table t = load(dir.s, 2, 5);
    assert_string_equal(val(&t, 1, "start_key"), ""); /* unbounded */
    assert_string_equal(val(&t, 1, "end_key"), "m");
    assert_string_equal(val(&t, 1, "state"), "split");
    assert_string_equal(val(&t, 1, "closed_s"), "1.500000");
    assert_string_equal(val(&t, 1, "write_share"), "0.300000");
    assert_string_equal(val(&t, 2, "end_key"), COMMA_KEY);
    assert_string_equal(val(&t, 2, "state"), "live");
    assert_string_equal(val(&t, 2, "server"), "rs1");
    assert_string_equal(val(&t, 2, "read_share"), "0.285714"); /* 6 of 21 */
    assert_string_equal(val(&t, 3, "start_key"), COMMA_KEY);
    assert_string_equal(val(&t, 3, "region_id"), "1");
    assert_string_equal(val(&t, 4, "end_key"), "");
    assert_string_equal(val(&t, 5, "read_share"), "");
    assert_int_equal(sum_of(&t, "writes", NASTY, -1), f.runs[0].writes);
    assert_int_equal(sum_of(&t, "writes", "plain", -1), f.runs[1].writes);
    table_free(&t);

    /* Each window's buckets sum to the window's writes over servers. */
    t = load(dir.s, 3, 14);
    for (int r = 0; r < 2; r++) {
        const run_result *run = &f.runs[r];
        for (uint32_t w = 0; w < run->nwindows; w++) {
            uint64_t writes = 0;
            for (uint32_t s = 0; s < run->nservers; s++)
                writes += run->window_writes[w * run->nservers + s];
            assert_int_equal(sum_of(&t, "writes", run->scheme_name, w), writes);
        }
    }
    assert_int_equal(sum_of(&t, "reads", NASTY, 1), 15);
    assert_string_equal(val(&t, 1, "bucket_start_key"), "");
    assert_string_equal(val(&t, 2, "bucket_start_key"), COMMA_KEY);
    assert_string_equal(val(&t, 3, "bucket_start_key"), "b\"c");
    assert_string_equal(val(&t, 7, "start_s"), "2.000000");
    assert_string_equal(val(&t, 7, "bucket"), "2");
    assert_string_equal(val(&t, 7, "writes"), "30");
    table_free(&t);

    t = load(dir.s, 4, 7);
    static const char *const want[6][5] = {
        { "1.500000", "split", "rs0", "", COMMA_KEY },
        { "2.000001", "move", "rs0", "rs2", COMMA_KEY },
        { "2.500000", "servers_added", "rs3", "rs4", "" },
        { "3.000000", "reassign", "rs1", "rs2", "" },
        { "3.500000", "decommission", "rs1", "", "" },
        { "3.999999", "failure", "rs2", "", "" },
    };
    for (size_t r = 1; r <= 6; r++)
        for (int c = 0; c < 5; c++) assert_string_equal(t.rows[r].col[c + 1], want[r - 1][c]);
    /* the split's policy figures, the balancer run's decision */
    assert_string_equal(val(&t, 1, "reason"), "size");
    assert_string_equal(val(&t, 1, "size_bytes"), "4300000");
    assert_string_equal(val(&t, 1, "threshold_bytes"), "4194304");
    assert_string_equal(val(&t, 1, "ran"), "");
    assert_string_equal(val(&t, 2, "reason"), "");
    assert_string_equal(val(&t, 7, "kind"), "balancer");
    assert_string_equal(val(&t, 7, "reason"), "cost above minCostNeedBalance");
    assert_string_equal(val(&t, 7, "ran"), "1");
    assert_string_equal(val(&t, 7, "moves"), "3");
    assert_string_equal(val(&t, 7, "regions_most"), "5");
    assert_string_equal(val(&t, 7, "ceiling"), "4");
    assert_string_equal(val(&t, 7, "cost_after"), "0.125000");
    table_free(&t);
    t = load(dir.s, 5, 2);
    assert_string_equal(val(&t, 2, "function"), "MoveCostFunction");
    assert_string_equal(val(&t, 2, "multiplier"), "7.000000");
    assert_string_equal(val(&t, 2, "after"), "0.250000");
    assert_string_equal(val(&t, 2, "weighted_after"), "1.750000"); /* 7 x 0.25 */
    table_free(&t);
    remove_dir(dir.s);
}

/* figures.csv and server_figures.csv: the registry's values, exact
 * integers, an empty value where undefined, the unit beside; with one
 * sample, samples is 1 and min, median and max are the value. */
static void test_figures_files(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    path dir = fresh_dir();
    write_ok(&f, dir.s);
    size_t per_run = figures_of(FIGURE_SCHEME);
    table t = load(dir.s, 6, 2 * per_run);
    for (size_t r = 1; r < t.nrows; r++) {
        const run_result *run = &f.runs[(r - 1) / per_run];
        const figure *fig = figure_find(val(&t, r, "figure"));
        assert_non_null(fig);
        assert_string_equal(val(&t, r, "scheme"), run->scheme_name);
        assert_string_equal(val(&t, r, "unit"), fig->unit);
        double v = figure_value(fig, run, 0);
        const char *text = val(&t, r, "value");
        if (isnan(v)) assert_string_equal(text, "");
        else assert_true(fabs(strtod(text, NULL) - v) <= 1e-5 * fabs(v));
        assert_string_equal(val(&t, r, "samples"), "1");
        assert_string_equal(val(&t, r, "min"), text);
        assert_string_equal(val(&t, r, "median"), text);
        assert_string_equal(val(&t, r, "max"), text);
        if (!strcmp(fig->name, "writes")) {
            char want[32];
            snprintf(want, sizeof want, "%" PRIu64, run->writes);
            assert_string_equal(text, want);
        }
    }
    table_free(&t);
    t = load(dir.s, 7, (f.runs[0].nservers + f.runs[1].nservers) * figures_of(FIGURE_SERVER));
    assert_string_equal(val(&t, 1, "server"), f.runs[0].servers[0].name);
    assert_non_null(figure_find(val(&t, 1, "figure")));
    assert_int_equal(figure_find(val(&t, 1, "figure"))->scope, FIGURE_SERVER);
    table_free(&t);
    remove_dir(dir.s);
}

/* The store column: "exact" on every line of the four files that hold
 * rows, rows scanned or read costs, and "sampled" on every line when the
 * results came from the sampled store (its numbers are estimates). */
static void assert_store_column(const char *dir, const char *want)
{
    static const int marked[] = { 0, 2, 6, 7 }; /* servers, regions, figures, server_figures */
    static const size_t nmarked = sizeof marked / sizeof marked[0];
    for (size_t i = 0; i < nmarked; i++) {
        path p = path_of(dir, files[marked[i]].name);
        table t = parse_csv(p.s);
        int c = column(&t, "store");
        assert_int_equal(c, t.rows[0].ncols - 1);
        assert_true(t.nrows > 1);
        for (size_t r = 1; r < t.nrows; r++) assert_string_equal(t.rows[r].col[c], want);
        table_free(&t);
    }
}

static void test_store_column(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    path dir = fresh_dir();
    write_ok(&f, dir.s);
    assert_store_column(dir.s, "exact");
    f.res.store_sampled = 1;
    write_ok(&f, dir.s);
    assert_store_column(dir.s, "sampled");
    remove_dir(dir.s);
}

/* A spread column's text is samples_spread's number: empty when no sample
 * defines the figure, else within %.6g of it. */
static void assert_spread_field(const char *text, double want)
{
    if (isnan(want)) assert_string_equal(text, "");
    else assert_true(text[0] && fabs(strtod(text, NULL) - want) <= 1e-5 * fabs(want));
}

/* figures.csv of a result with three samples: samples is 3, min, median
 * and max are the spread across them (reports/samples.h) while value
 * stays the first sample's. Samples 1 and 2 are the fixture with other
 * writes: run 0's servers {60, 20, 20} (130 writes) and {34, 33, 33} (90
 * writes) beside the fixture's {40, 20, 40} (100 writes). */
static void test_figures_across_samples(void **state)
{
    (void)state;
    fixture f, more[2];
    fixture_init(&f);
    const uint64_t writes[2][3] = { { 60, 20, 20 }, { 34, 33, 33 } }, totals[2] = { 130, 90 };
    assert_int_equal(samples_begin(&f.res, 3), 0);
    for (int k = 0; k < 2; k++) {
        fixture_init(&more[k]);
        for (int s = 0; s < 3; s++) more[k].sv0[s].writes = writes[k][s];
        more[k].runs[0].writes = totals[k];
        samples_record(&f.res, (uint32_t)k + 1, &more[k].res);
    }
    path dir = fresh_dir();
    write_ok(&f, dir.s);
    size_t per_run = figures_of(FIGURE_SCHEME);
    table t = load(dir.s, 6, 2 * per_run);
    int checked = 0;
    for (size_t r = 1; r < t.nrows; r++) {
        size_t run = (r - 1) / per_run;
        const figure *fig = figure_find(val(&t, r, "figure"));
        assert_non_null(fig);
        assert_string_equal(val(&t, r, "samples"), "3");
        figure_spread s = samples_spread(fig, &f.res, run);
        assert_spread_field(val(&t, r, "min"), s.min);
        assert_spread_field(val(&t, r, "median"), s.median);
        assert_spread_field(val(&t, r, "max"), s.max);
        assert_spread_field(val(&t, r, "value"), figure_value(fig, &f.runs[run], 0));
        if (run != 0) continue;
        if (!strcmp(fig->name, "writes")) { /* 100, 130, 90 */
            assert_string_equal(val(&t, r, "value"), "100");
            assert_string_equal(val(&t, r, "min"), "90");
            assert_string_equal(val(&t, r, "median"), "100");
            assert_string_equal(val(&t, r, "max"), "130");
            checked++;
        } else if (!strcmp(fig->name, "write_max_mean")) { /* 40, 60, 34 over 33.3 */
            assert_string_equal(val(&t, r, "value"), "1.2");
            assert_string_equal(val(&t, r, "min"), "1.02");
            assert_string_equal(val(&t, r, "median"), "1.2");
            assert_string_equal(val(&t, r, "max"), "1.8");
            checked++;
        }
    }
    assert_int_equal(checked, 2);
    table_free(&t);
    /* The other files show the first sample only: servers.csv as before. */
    t = load(dir.s, 0, 5);
    assert_string_equal(val(&t, 1, "writes"), "40");
    table_free(&t);
    free(f.res.sample_values);
    remove_dir(dir.s);
}

/* The files' names, in the order csv_render fills them; none past the last. */
static void test_file_names(void **state)
{
    (void)state;
    for (size_t i = 0; i < NFILES; i++) assert_string_equal(csv_file_name(i), files[i].name);
    assert_null(csv_file_name(NFILES));
}

static void test_output_is_deterministic(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    path a = fresh_dir(), b = fresh_dir();
    path slash = path_of(b.s, ""); /* a trailing slash is fine */
    write_ok(&f, a.s);
    write_ok(&f, slash.s);
    for (int i = 0; i < 5; i++) {
        size_t la, lb;
        char *ta = slurp(path_of(a.s, files[i].name).s, &la);
        char *tb = slurp(path_of(b.s, files[i].name).s, &lb);
        assert_int_equal(la, lb);
        assert_memory_equal(ta, tb, la);
        free(ta);
        free(tb);
    }
    remove_dir(a.s);
    remove_dir(b.s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_files_parse_back),
        cmocka_unit_test(test_servers_and_windows),
        cmocka_unit_test(test_regions_keyspace_events),
        cmocka_unit_test(test_figures_files),
        cmocka_unit_test(test_figures_across_samples),
        cmocka_unit_test(test_store_column),
        cmocka_unit_test(test_file_names),
        cmocka_unit_test(test_output_is_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
