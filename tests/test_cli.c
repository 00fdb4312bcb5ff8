/* test_cli.c -- the regionsim binary as a user runs it: commands and
 * exit statuses.
 *
 * argv[1] is the path of the built binary, argv[2] the source tree. Each
 * case runs it with its own arguments (tests/cli_support.h: in an
 * environment set there, not inherited), captures stdout and stderr, and
 * checks the exit status and what was printed: the commands, scenario
 * files, traces, CSV, YCSB, assertions, baselines and jobs.
 * test_cli_samples.c has the seeds; test_cli_usage.c help and bad usage;
 * test_cli_files.c the terminal
 * and what -o and --write-trace do to files; they run side by side.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "scenario/scenario.h" /* SCENARIO_DEFAULT_SAMPLES */
#include "tests/cli_support.h"

static void test_run_prints_every_server(void **state)
{
    (void)state;
    output o = run("run", "--scheme", "monotonic", "--duration", "3m", "--servers", "5", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.err, "");
    for (int s = 0; s < 5; s++) {
        char name[8];
        snprintf(name, sizeof name, "rs%d", s);
        assert_non_null(strstr(o.out, name));
    }
    assert_null(strstr(o.out, "rs5"));
    output_free(&o);
}

static void test_keys_prints_n_keys_and_regions(void **state)
{
    (void)state;
    output o = run("keys", "--scheme", "salted", "-n", "8", "--duration", "1m", NULL);
    assert_int_equal(o.status, 0);
    assert_int_equal(count_lines_with(o.out, " on rs"), 8);
    assert_non_null(strstr(o.out, "\\x")); /* the salt byte in shell form */
    output_free(&o);
}

static void test_compare_json_is_deterministic(void **state)
{
    (void)state;
    output a = run("compare", "--format", "json", "--duration", "2m", NULL);
    output b = run("compare", "--format=json", "--duration=2m", NULL);
    assert_int_equal(a.status, 0);
    assert_int_equal(b.status, 0);
    assert_true(a.out[0] == '{');
    assert_non_null(strstr(a.out, "\"regionsim\": 4"));
    assert_string_equal(a.out, b.out);
    output_free(&a);
    output_free(&b);
}


/* --measure-from: half of a run twice its length is counted; the JSON
 * says from when; a start at or after the end is refused. */
static void test_measure_from_halves_the_writes(void **state)
{
    (void)state;
    output whole = run("run", "--scheme", "salted", "--duration", "10m", "--format", "json", NULL);
    output half = run("run", "--scheme", "salted", "--duration", "10m", "--measure-from", "5m",
                      "--format", "json", NULL);
    assert_int_equal(whole.status, 0);
    assert_int_equal(half.status, 0);
    json_object *a = json_tokener_parse(whole.out), *b = json_tokener_parse(half.out);
    assert_non_null(a);
    assert_non_null(b);
    json_object *ra = json_object_array_get_idx(member(a, "runs"), 0);
    json_object *rb = json_object_array_get_idx(member(b, "runs"), 0);
    int64_t wa = json_object_get_int64(member(ra, "writes"));
    int64_t wb = json_object_get_int64(member(rb, "writes"));
    assert_true(wa > 0);
    assert_int_equal(wb * 2, wa);
    assert_int_equal(json_object_get_int64(member(a, "measure_from_us")), 0);
    assert_int_equal(json_object_get_int64(member(b, "measure_from_us")), 300000000);
    json_object_put(a);
    json_object_put(b);
    output_free(&whole);
    output_free(&half);
    assert_usage_error(run("run", "--scheme", "salted", "--duration", "10m", "--measure-from",
                           "10m", NULL), "measure_from", "not before the end of the run");
}

static void test_scenario_file_equals_the_builtin_default(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/default.ini", source_root);
    output a = run("compare", "--format", "json", "--duration", "3m", NULL);
    output b = run("compare", path, "--format", "json", "--duration", "3m", NULL);
    assert_int_equal(a.status, 0);
    assert_int_equal(b.status, 0);
    assert_string_equal(a.out, b.out);
    output_free(&a);
    output_free(&b);
    /* Options override the file wherever they stand. */
    output c = run("run", "--servers", "3", path, "--scheme", "salted", "--duration", "1m", NULL);
    assert_int_equal(c.status, 0);
    assert_non_null(strstr(c.out, "3 servers"));
    assert_non_null(strstr(c.out, "salt(3) ts"));
    output_free(&c);
}

static void test_scenario_file_errors_name_file_and_line(void **state)
{
    (void)state;
    char path[] = "/tmp/regionsim-cli-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char text[] = "seed = 1\n[workload]\nduration = 10\n";
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    output o = run("compare", path, NULL);
    char want[128];
    snprintf(want, sizeof want, "%s:3: [workload] duration", path);
    assert_usage_error(o, want, "unit");
    assert_usage_error(run("compare", "/nonexistent.ini", NULL), "cannot open", NULL);
    assert_usage_error(run("compare", path, "other.ini", NULL), "unexpected argument", NULL);
    unlink(path);
}

/* The HBase Reference Guide's salting example: foo0001..foo0004 under
 * prefixes a, b, c, d on a table split by letter land in four regions;
 * unsalted they share one. */
static void test_chapter_salting_example(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/chapter-salting.ini", source_root);
    output o = run("keys", path, "--scheme", "letters", "-n", "4", NULL);
    assert_int_equal(o.status, 0);
    assert_int_equal(count_lines_with(o.out, " on rs"), 4);
    const char *want[] = { "-foo0001", "-foo0002", "-foo0003", "-foo0004" };
    char seen_prefix[4] = { 0 };
    int regions_seen[4] = { 0 };
    for (int i = 0; i < 4; i++) {
        const char *at = strstr(o.out, want[i]);
        assert_non_null(at);
        char prefix = at[-1];
        assert_true(prefix >= 'a' && prefix <= 'd');
        for (int j = 0; j < i; j++)
            assert_int_not_equal(seen_prefix[j], prefix); /* four different salts */
        seen_prefix[i] = prefix;
        const char *region = strstr(at, "region ");
        assert_non_null(region);
        int r = region[7] - '0';
        assert_true(r >= 0 && r < 4);
        regions_seen[r]++;
    }
    for (int r = 0; r < 4; r++)
        assert_int_equal(regions_seen[r], 1); /* four different regions */
    output_free(&o);

    o = run("keys", path, "--scheme", "plain", "-n", "4", NULL);
    assert_int_equal(o.status, 0);
    assert_int_equal(count_lines_with(o.out, "region 0 [-inf, +inf)"), 4);
    output_free(&o);
}

/* A preset is its expression: the same keys, the same regions. */
static void test_preset_is_its_expression(void **state)
{
    (void)state;
    output a = run("keys", "--scheme", "salted", "-n", "50", "--duration", "1m", NULL);
    output b = run("keys", "--scheme", "salt(8) ts", "-n", "50", "--duration", "1m", NULL);
    assert_int_equal(a.status, 0);
    assert_int_equal(b.status, 0);
    const char *ka = strchr(a.out, '\n'), *kb = strchr(b.out, '\n'); /* past the header */
    assert_non_null(ka);
    assert_non_null(kb);
    assert_int_equal(count_lines_with(ka, " on rs"), 50);
    assert_string_equal(ka, kb);
    output_free(&a);
    output_free(&b);
}

/* The "servers" block of a JSON report, per-server counts only: each
 * server's object up to its "rpcs" (busy and latency depend on the run's
 * length, which a replay knows only to its last operation). */
static char *servers_block(const char *json)
{
    const char *a = strstr(json, "\"servers\": [");
    assert_non_null(a);
    const char *b = strchr(a, ']');
    assert_non_null(b);
    char *s = malloc((size_t)(b - a) + 1);
    size_t n = 0;
    for (const char *p = a; p < b;) {
        const char *cut = strstr(p, ", \"rpcs\"");
        const char *line_end = strchr(p, '\n');
        if (!line_end || line_end > b)
            line_end = b;
        const char *stop = cut && cut < line_end ? cut : line_end;
        memcpy(s + n, p, (size_t)(stop - p));
        n += (size_t)(stop - p);
        p = line_end < b ? line_end + 1 : b;
    }
    s[n] = '\0';
    return s;
}

/* A run can write the trace of what it generated; replaying that trace
 * gives the same per-server counts, splits and moves. */
static void test_write_trace_round_trip(void **state)
{
    (void)state;
    const char *exts[] = { ".csv", ".tsv" };
    for (int e = 0; e < 2; e++) {
        char path[64];
        snprintf(path, sizeof path, "/tmp/regionsim-rt-%d%s", (int)getpid(), exts[e]);
        output a = run("run", "--scheme", "salted", "--duration", "4m", "--balancer-period", "1m",
                       "--presplit", "none", "--format", "json", "--write-trace", path, NULL);
        assert_int_equal(a.status, 0);
        output b = run("run", "--trace", path, "--scheme", "key", "--balancer-period", "1m",
                       "--presplit", "none", "--format", "json", NULL);
        assert_int_equal(b.status, 0);
        char *sa = servers_block(a.out), *sb = servers_block(b.out);
        assert_string_equal(sa, sb);
        assert_non_null(strstr(a.out, "\"writes\": 240000"));
        const char *moves = strstr(a.out, "\"moves\":");
        assert_non_null(moves);
        assert_non_null(strstr(b.out, "\"regions\": {"));
        free(sa);
        free(sb);
        output_free(&a);
        output_free(&b);
        unlink(path);
    }
}

static void test_bad_trace_exits_2_with_file_and_line(void **state)
{
    (void)state;
    char path[] = "/tmp/regionsim-badtrace-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char text[] = "time,op,key\n0,put,a\n10,put,b\\xZZ\n";
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    char want[128];
    snprintf(want, sizeof want, "%s:3:", path);
    assert_usage_error(run("compare", "--trace", path, "--scheme", "key", NULL), want, NULL);
    assert_usage_error(run("run", "--trace", "/nonexistent.csv", "--scheme", "key", NULL),
                       "/nonexistent.csv", NULL);
    unlink(path);
}


/* A run longer than a second shows a progress bar on a terminal's stderr,
 * and erases it; the report on stdout (a file) is plain. */
/* Lines in a file, not counting the header. */
static size_t data_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *text = slurp(f);
    size_t n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    free(text);
    return n - 1;
}

/* The sum of column `col` (0-based) of a CSV with no quoted fields. */
static uint64_t column_sum(const char *path, int col)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[4096];
    uint64_t sum = 0;
    assert_non_null(fgets(line, sizeof line, f)); /* header */
    while (fgets(line, sizeof line, f)) {
        char *field = line;
        for (int c = 0; c < col; c++) {
            field = strchr(field, ',');
            assert_non_null(field);
            field++;
        }
        sum += strtoull(field, NULL, 10);
    }
    fclose(f);
    return sum;
}

/* A CSV file read whole (RFC 4180 quoting): rows of fields, row 0 the
 * header. Small files only. */
#define CSV_COLS 24
typedef struct csv_file {
    size_t nrows;
    char *(*row)[CSV_COLS];
} csv_file;

static csv_file csv_read(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *text = slurp(f);
    csv_file t = { 0, NULL };
    size_t cap = 0;
    char *p = text;
    while (*p) {
        if (t.nrows == cap) {
            cap = cap ? 2 * cap : 64;
            t.row = realloc(t.row, cap * sizeof *t.row);
            assert_non_null(t.row);
        }
        memset(t.row[t.nrows], 0, sizeof t.row[t.nrows]);
        for (int c = 0;; c++) {
            assert_true(c < CSV_COLS);
            size_t n = 0;
            char field[4096];
            if (*p == '"') {
                for (p++; !(*p == '"' && p[1] != '"'); p++) {
                    assert_true(*p != '\0');
                    if (*p == '"') p++; /* a doubled quote */
                    field[n++] = *p;
                }
                p++;
            } else {
                while (*p && *p != ',' && *p != '\n') field[n++] = *p++;
            }
            field[n] = '\0';
            t.row[t.nrows][c] = strdup(field);
            if (*p == ',') { p++; continue; }
            if (*p == '\n') p++;
            break;
        }
        t.nrows++;
    }
    free(text);
    return t;
}

static void csv_free(csv_file *t)
{
    for (size_t r = 0; r < t->nrows; r++)
        for (int c = 0; c < CSV_COLS; c++) free(t->row[r][c]);
    free(t->row);
}

/* The index of column `name` in the header. */
static int csv_col(const csv_file *t, const char *name)
{
    for (int c = 0; c < CSV_COLS && t->row[0][c]; c++)
        if (!strcmp(t->row[0][c], name)) return c;
    fail_msg("no column %s", name);
    return -1;
}


/* --format csv -o DIR: the files hold the run's figures, line for line
 * (checked against the JSON of the same run). */
static void test_csv_files_match_the_run(void **state)
{
    (void)state;
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/regionsim-csv-%d", (int)getpid());
    output c = run("compare", "--scheme", "monotonic", "--scheme", "salted", "--duration", "6m",
                   "--read-fraction", "0.05", "--format", "csv", "-o", dir, NULL);
    assert_int_equal(c.status, 0);
    assert_string_equal(c.out, "");
    assert_string_equal(c.err, "");
    output_free(&c);
    output j = run("compare", "--scheme", "monotonic", "--scheme", "salted", "--duration", "6m",
                   "--read-fraction", "0.05", "--format", "json", NULL);
    assert_int_equal(j.status, 0);
    json_object *root = json_tokener_parse(j.out);
    assert_non_null(root);
    json_object *runs = member(root, "runs");
    size_t servers = 0, windows = 0, regions = 0, cells = 0, events = 0;
    uint64_t writes = 0;
    for (size_t r = 0; r < json_object_array_length(runs); r++) {
        json_object *run = json_object_array_get_idx(runs, r);
        size_t ns = json_object_array_length(member(run, "servers"));
        size_t nw = json_object_array_length(member(run, "windows"));
        json_object *ks = member(run, "keyspace");
        servers += ns;
        windows += nw * ns;
        cells += nw * json_object_array_length(member(ks, "buckets"));
        regions += json_object_array_length(member(run, "region_log"));
        events += json_object_array_length(member(run, "timeline"));
        writes += (uint64_t)json_object_get_int64(member(run, "writes"));
    }
    assert_true(events > 0 && regions > 2);
    char path[128];
    snprintf(path, sizeof path, "%s/servers.csv", dir);
    assert_int_equal(data_lines(path), servers);
    assert_true(column_sum(path, 2) == writes);
    snprintf(path, sizeof path, "%s/windows.csv", dir);
    assert_int_equal(data_lines(path), windows);
    assert_true(column_sum(path, 5) == writes);
    snprintf(path, sizeof path, "%s/keyspace.csv", dir);
    assert_int_equal(data_lines(path), cells);
    snprintf(path, sizeof path, "%s/regions.csv", dir);
    assert_int_equal(data_lines(path), regions);
    snprintf(path, sizeof path, "%s/events.csv", dir);
    assert_int_equal(data_lines(path), events);
    json_object_put(root);
    output_free(&j);
    const char *names[] = { "servers", "windows", "keyspace", "regions", "events",
                            "balancer_costs" };
    for (int i = 0; i < 6; i++) {
        snprintf(path, sizeof path, "%s/%s.csv", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
    assert_usage_error(run("compare", "--format", "csv", NULL), "--format csv", "-o DIR");
}

/* HBase's SimpleLoadBalancer offloads an overloaded server's newest
 * regions: in the CSV of a monotonic run on 2 servers, no region left on
 * a move's source server is younger (a larger region id) than the moved
 * one. Each region's server at a balancer run is rebuilt from the CSV:
 * it opens where it split (or on rs0), then follows its moves. */
static void test_balancer_moves_the_newest_regions(void **state)
{
    (void)state;
    char dir[64], path[128];
    snprintf(dir, sizeof dir, "/tmp/regionsim-newest-%d", (int)getpid());
    output o = run("run", "--scheme", "monotonic", "--servers", "2", "--balancer", "simple",
                   "--format", "csv", "-o", dir, NULL);
    assert_int_equal(o.status, 0);
    output_free(&o);
    snprintf(path, sizeof path, "%s/events.csv", dir);
    csv_file ev = csv_read(path);
    snprintf(path, sizeof path, "%s/regions.csv", dir);
    csv_file rg = csv_read(path);
    int ek = csv_col(&ev, "kind"), et = csv_col(&ev, "time_s"), ekey = csv_col(&ev, "key");
    int efrom = csv_col(&ev, "from_server"), eto = csv_col(&ev, "to_server");
    int rid = csv_col(&rg, "region_id"), rstart = csv_col(&rg, "start_key");
    int ropen = csv_col(&rg, "opened_s"), rclose = csv_col(&rg, "closed_s");
    size_t moves = 0;
    for (size_t b = 1; b < ev.nrows; b++) {
        if (strcmp(ev.row[b][ek], "balancer") != 0) continue;
        double T = atof(ev.row[b][et]);
        for (size_t m = 1; m < ev.nrows; m++) {
            if (strcmp(ev.row[m][ek], "move") != 0 || atof(ev.row[m][et]) != T) continue;
            moves++;
            const char *src = ev.row[m][efrom];
            long long moved_id = -1;
            for (size_t r = 1; r < rg.nrows; r++)
                if (!strcmp(rg.row[r][rstart], ev.row[m][ekey]) &&
                    atof(rg.row[r][ropen]) <= T && T < atof(rg.row[r][rclose]))
                    moved_id = atoll(rg.row[r][rid]);
            assert_true(moved_id >= 0);
            for (size_t r = 1; r < rg.nrows; r++) {
                double opened = atof(rg.row[r][ropen]);
                if (opened > T || T >= atof(rg.row[r][rclose])) continue;
                const char *server = "rs0"; /* the table's first region */
                for (size_t e = 1; e < ev.nrows; e++) {
                    double te = atof(ev.row[e][et]);
                    if (!strcmp(ev.row[e][ek], "split") && te == opened)
                        server = ev.row[e][efrom];
                    if (!strcmp(ev.row[e][ek], "move") && te >= opened && te < T &&
                        !strcmp(ev.row[e][ekey], rg.row[r][rstart]))
                        server = ev.row[e][eto];
                }
                int moved_now = 0; /* moved off in the same run */
                for (size_t e = 1; e < ev.nrows; e++)
                    moved_now |= !strcmp(ev.row[e][ek], "move") && atof(ev.row[e][et]) == T &&
                                 !strcmp(ev.row[e][ekey], rg.row[r][rstart]);
                if (!strcmp(server, src) && !moved_now && atoll(rg.row[r][rid]) > moved_id)
                    fail_msg("at %.0f s %s kept region %s (id %s), younger than the moved %s",
                             T, src, rg.row[r][rstart], rg.row[r][rid], ev.row[m][ekey]);
            }
        }
    }
    assert_true(moves >= 4);
    csv_free(&ev);
    csv_free(&rg);
    const char *names[] = { "servers", "windows", "keyspace", "regions", "events",
                            "balancer_costs" };
    for (int i = 0; i < 6; i++) {
        snprintf(path, sizeof path, "%s/%s.csv", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* --format html -o FILE: one well-formed page; a bad path fails cleanly. */
static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_ycsb_c_command(void **state)
{
    (void)state;
    char trace[] = "/tmp/regionsim-ycsb-c-XXXXXX", ref_path[1024], line[512];
    int fd = mkstemp(trace);
    assert_true(fd >= 0);
    close(fd);
    output o = run("run", "--ycsb", "c", "-p", "recordcount=100000", "-p",
                   "operationcount=200000", "--scheme", "key", "--write-trace", trace, NULL);
    if (o.status != 0)
        fail_msg("exit %d: %s", o.status, o.err);
    output_free(&o);
    FILE *f = fopen(trace, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f)); /* the header */
    /* the load: "T,put,userNNN,1000,10" in key-number order */
    enum { RECORDS = 100000 };
    char **names = calloc(RECORDS, sizeof *names);
    assert_non_null(names);
    for (uint64_t k = 0; k < RECORDS; k++) {
        assert_non_null(fgets(line, sizeof line, f));
        char op[16], key[64];
        unsigned long long t, bytes, cells;
        assert_int_equal(sscanf(line, "%llu,%15[^,],%63[^,],%llu,%llu", &t, op, key, &bytes,
                                &cells), 5);
        assert_string_equal(op, "put");
        assert_int_equal(cells, 10);
        /* YCSB's Utils.fnvhash64(k): FNV-1a over k's 8 bytes, low first,
         * then Math.abs */
        uint64_t h = 0xCBF29CE484222325ull, v = k;
        for (int i = 0; i < 8; i++, v >>= 8) {
            h ^= v & 0xff;
            h *= 1099511628211ull;
        }
        int64_t sh = (int64_t)h;
        char want[64];
        snprintf(want, sizeof want, "user%llu",
                 (unsigned long long)(sh < 0 && sh != INT64_MIN ? -sh : sh));
        assert_string_equal(key, want);
        names[k] = strdup(key);
    }
    /* the run: 200,000 gets, their key numbers by name (names sorted, with
     * the key number of each, for a binary search) */
    char **sorted = malloc(RECORDS * sizeof *sorted);
    uint32_t *keynum_of = malloc(RECORDS * sizeof *keynum_of);
    assert_true(sorted && keynum_of);
    memcpy(sorted, names, RECORDS * sizeof *sorted);
    qsort(sorted, RECORDS, sizeof *sorted, by_name);
    for (uint64_t i = 0; i < RECORDS; i++) /* names are user + a distinct number */
        keynum_of[(char **)bsearch(&names[i], sorted, RECORDS, sizeof *sorted, by_name) -
                  sorted] = (uint32_t)i;
    static uint64_t per_grid[240];
    uint64_t gets = 0;
    while (fgets(line, sizeof line, f)) {
        char op[16], key[64];
        unsigned long long t;
        assert_int_equal(sscanf(line, "%llu,%15[^,],%63[^,\n]", &t, op, key), 3);
        assert_string_equal(op, "get");
        char *wanted = key;
        char **hit = bsearch(&wanted, sorted, RECORDS, sizeof *sorted, by_name);
        assert_non_null(hit);
        uint64_t k = (uint64_t)(hit - sorted);
        per_grid[keynum_of[k] / 500]++;
        gets++;
    }
    fclose(f);
    unlink(trace);
    assert_int_equal(gets, 200000);
    for (uint64_t k = 0; k < RECORDS; k++)
        free(names[k]);
    free(names);
    free(sorted);
    free(keynum_of);
    snprintf(ref_path, sizeof ref_path, "%s/tests/data/ycsb_runs.tsv", source_root);
    FILE *ref = fopen(ref_path, "r");
    assert_non_null(ref);
    double cdf[5][240] = { { 0 } };
    while (fgets(line, sizeof line, ref)) {
        int runno;
        long x;
        double v;
        if (sscanf(line, "cdf\tc\t%d\t%ld\t%lf", &runno, &x, &v) == 3 && runno >= 1 &&
            runno <= 5 && x >= 500 && x <= 120000)
            cdf[runno - 1][x / 500 - 1] = v;
    }
    fclose(ref);
    for (int r = 0; r < 5; r++) {
        double ks = 0, ours = 0;
        for (int g = 0; g < 200; g++) { /* keys below 100,000: the load's */
            ours += (double)per_grid[g] / 200000.0;
            double d = ours > cdf[r][g] ? ours - cdf[r][g] : cdf[r][g] - ours;
            ks = d > ks ? d : ks;
        }
        print_message("KS to real YCSB run %d of workload C: %.4f\n", r + 1, ks);
        assert_true(ks < 0.005);
    }
}

/* Counts the non-overlapping occurrences of part in text. */
static size_t count_of(const char *text, const char *part)
{
    size_t n = 0;
    for (const char *p = strstr(text, part); p; p = strstr(p + strlen(part), part))
        n++;
    return n;
}

/* CI assertions (issue 14): exit 1 naming the schemes that fail, 0 when
 * they hold, 2 for a malformed one; JUnit's failures are the failed
 * assertions; the JSON holds every result. */
static void test_assertions_exit_status(void **state)
{
    (void)state;
    output o = run("compare", "--duration", "5m", "--assert", "write_max_mean <= 1.2", NULL);
    assert_int_equal(o.status, 1);
    assert_non_null(strstr(o.err, "FAILED write_max_mean <= 1.2 for monotonic"));
    assert_null(strstr(o.err, "for salted"));
    assert_null(strstr(o.err, "for hashed"));
    assert_non_null(strstr(o.out, "where the writes land")); /* the report is still there */
    size_t failed = count_of(o.err, "FAILED ");
    assert_true(failed >= 2);
    output_free(&o);

    o = run("compare", "--duration", "5m", "--assert", "write_max_mean <= 1.2", "--scheme",
            "salted", "--scheme", "hashed", NULL);
    assert_int_equal(o.status, 0);
    assert_null(strstr(o.err, "FAILED"));
    output_free(&o);

    static const char *const bad[][2] = {
        { "write_max_men <= 1.2", "did you mean 'write_max_mean'" },
        { "write_max_mean <=", "expected a number" },
        { "write_max_mean <= 1.2 for nosuch", "nosuch" },
        { "write_max_mean ~ 1.2", "~" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        o = run("compare", "--duration", "1m", "--assert", bad[i][0], NULL);
        assert_int_equal(o.status, 2);
        assert_string_equal(o.out, "");
        if (!strstr(o.err, bad[i][1]))
            fail_msg("--assert '%s': '%s' does not name '%s'", bad[i][0], o.err, bad[i][1]);
        output_free(&o);
    }

    char junit[] = "/tmp/regionsim-junit-XXXXXX";
    int fd = mkstemp(junit);
    assert_true(fd >= 0);
    close(fd);
    o = run("compare", "--duration", "5m", "--format", "json", "--assert",
            "write_max_mean <= 1.2", "--assert", "steady over last 2 windows", "--junit", junit,
            NULL);
    assert_int_equal(o.status, 1);
    failed = count_of(o.err, "FAILED ");
    assert_int_equal(count_of(o.out, "\"passed\": false"), failed);
    assert_int_equal(count_of(o.out, "\"expression\": "), 2 * 12); /* every scheme, twice */
    output_free(&o);
    FILE *f = fopen(junit, "r");
    assert_non_null(f);
    char *xml = slurp(f); /* closes f */
    unlink(junit);
    char attr[64];
    snprintf(attr, sizeof attr, "failures=\"%zu\"", failed);
    assert_non_null(strstr(xml, attr));
    assert_int_equal(count_of(xml, "<failure "), failed);
    assert_int_equal(count_of(xml, "<testcase "), 24);
    free(xml);
}

/* --baseline: an identical run exits 0; a worse key under the same scheme
 * name exits 1 and names the regression; another scenario exits 2 with
 * no report; a file that is no baseline exits 2 before the run. */
/* The case, shortened: 5% of the default scenario's operations
 * dashboard reads, whole-hour metric scans, on a salted key for 5 minutes.
 * Its busiest server is over 100% busy; the JSON says so (busiest_busy
 * over 1 and the figure overloaded 1 agree, the note and latency_note
 * say why), the text names it overloaded before any table and explains a
 * p99 past the run, and an assertion on the figure fails. */
static void test_a_server_over_100_percent_is_overloaded(void **state)
{
    (void)state;
    output j = run("compare", "--scheme", "salted", "--read-fraction", "0.05", "--duration",
                   "5m", "--format", "json", NULL);
    assert_int_equal(j.status, 0);
    json_object *root = json_tokener_parse(j.out);
    assert_non_null(root);
    json_object *r = json_object_array_get_idx(member(root, "runs"), 0);
    json_object *figs = member(r, "figures");
    double busy = json_object_get_double(member(figs, "busiest_busy"));
    double p99 = json_object_get_double(member(figs, "p99_latency_us"));
    double span = json_object_get_double(member(figs, "duration_us")) -
                  json_object_get_double(member(figs, "measure_from_us"));
    assert_true(busy > 1);
    assert_int_equal(json_object_get_int(member(figs, "overloaded")), 1);
    assert_true(json_object_get_boolean(member(member(r, "overload"), "overloaded")));
    assert_true(!strncmp(json_object_get_string(member(member(r, "overload"), "note")),
                         "overloaded: ", 12));
    json_object *drain = member(r, "latency_note");
    assert_int_equal(p99 > span, drain != NULL);
    if (drain)
        assert_true(strstr(json_object_get_string(drain), "drained after it") != NULL);
    json_object_put(root);
    output_free(&j);

    output o = run("compare", "--scheme", "salted", "--read-fraction", "0.05", "--duration", "5m",
                   "--assert", "overloaded == 0", NULL);
    assert_int_equal(o.status, 1);
    const char *over = strstr(o.out, "\n  salted: overloaded: ");
    assert_non_null(over);
    assert_true(over < strstr(o.out, "where the writes land"));
    assert_non_null(strstr(o.err, "FAILED overloaded == 0 for salted: value 1"));
    output_free(&o);
}

static void test_baseline_exit_status(void **state)
{
    (void)state;
    char base[] = "/tmp/regionsim-baseline-XXXXXX";
    int fd = mkstemp(base);
    assert_true(fd >= 0);
    close(fd);
    char scheme_good[] = "--scheme=salt(8) ts";
    output o = run("run", "--duration", "5m", scheme_good, "--format", "json", "-o", base, NULL);
    assert_int_equal(o.status, 0);
    output_free(&o);
    o = run("run", "--duration", "5m", scheme_good, "--baseline", base, NULL);
    assert_int_equal(o.status, 0);
    /* a pass is one line */
    char line[256];
    snprintf(line, sizeof line, "regionsim run: %d figures within baseline %s\n", 6, base);
    /* the 6 headline figures a run without reads defines (the 3 of reads
     * undefined): write_max_mean, write_window_max_mean, hottest_share,
     * achieved_ops_per_s, busiest_busy, p99_latency_us */
    assert_string_equal(o.err, line);
    output_free(&o);
    /* the same label, a worse key: a scenario file names it */
    char ini[] = "/tmp/regionsim-baseline-ini-XXXXXX";
    fd = mkstemp(ini);
    assert_true(fd >= 0);
    const char *text = "[workload]\nduration = 5m\n[scheme mine]\nkey = salt(8) ts\n";
    assert_true(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    o = run("run", ini, "--format", "json", "-o", base, NULL);
    assert_int_equal(o.status, 0);
    output_free(&o);
    fd = open(ini, O_WRONLY | O_TRUNC);
    text = "[workload]\nduration = 5m\n[scheme mine]\nkey = ts\n";
    assert_true(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    o = run("run", ini, "--baseline", base, NULL);
    assert_int_equal(o.status, 1);
    assert_non_null(strstr(o.err, "write_max_mean"));
    assert_non_null(strstr(o.err, "REGRESSION"));
    output_free(&o);
    o = run("run", ini, "--baseline", base, "--tolerance", "1000000", NULL);
    assert_int_equal(o.status, 0);
    output_free(&o);
    /* a tolerance alone would be silently unused: refused, as sweep does */
    assert_usage_error(run("run", ini, "--tolerance", "0.1", NULL), "--tolerance",
                       "only with --baseline");
    o = run("run", ini, "--metrics", "7", "--baseline", base, NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "another scenario"));
    assert_string_equal(o.out, ""); /* compared before the report is written */
    output_free(&o);
    /* a file that is no baseline: refused before the run, nothing on stdout */
    static const char *const not_baselines[][2] = {
        { "{\"regionsim\": ", "not JSON (the file ends inside the document)" },
        { "{\"runs\": []}", "not a regionsim JSON report" },
    };
    for (size_t i = 0; i < 2; i++) {
        fd = open(base, O_WRONLY | O_TRUNC);
        text = not_baselines[i][0];
        assert_true(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
        close(fd);
        o = run("run", ini, "--baseline", base, NULL);
        assert_int_equal(o.status, 2);
        assert_non_null(strstr(o.err, not_baselines[i][1]));
        assert_string_equal(o.out, "");
        output_free(&o);
    }
    unlink(ini);
    unlink(base);
}

/* --jobs: schemes in threads give the same bytes as one at a time, in
 * every format that holds everything (text, JSON), with samples too;
 * a bad count is a usage error. */
static void test_jobs_do_not_change_the_output(void **state)
{
    (void)state;
    /* JSON holds every figure, the text report draws the rest; each
     * format against one other count of jobs (5: more jobs than cores;
     * 0: the cores available) keeps the test short. */
    const char *formats[] = { "text", "json" };
    const char *jobs[] = { "5", "0" };
    for (size_t f = 0; f < 2; f++) {
        output one = run("compare", "--duration", "1m", "--read-fraction", "0.1", "--format",
                         formats[f], "--jobs", "1", NULL);
        assert_int_equal(one.status, 0);
        output many = run("compare", "--duration", "1m", "--read-fraction", "0.1", "--format",
                          formats[f], "--jobs", jobs[f], NULL);
        assert_int_equal(many.status, 0);
        if (strcmp(one.out, many.out) != 0)
            fail_msg("--format %s --jobs %s differs from --jobs 1", formats[f], jobs[f]);
        output_free(&many);
        output_free(&one);
    }
    output a = run("compare", "--duration", "2m", "--samples", "2", "--jobs", "1", "--assert",
                   "write_max_mean <= 1.2", "--format", "json", NULL);
    output b = run("compare", "--duration", "2m", "--samples", "2", "--jobs", "3", "--assert",
                   "write_max_mean <= 1.2", "--format", "json", NULL);
    assert_int_equal(a.status, 1);
    assert_int_equal(b.status, 1);
    assert_string_equal(a.out, b.out);
    assert_string_equal(a.err, b.err);
    output_free(&a);
    output_free(&b);
    assert_usage_error(run("compare", "--jobs", "1025", NULL), "--jobs", "1025");
    assert_usage_error(run("compare", "--jobs", "-1", NULL), "--jobs", "-1");
}

int main(int argc, char **argv)
{
    cli_args(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_prints_every_server),
        cmocka_unit_test(test_keys_prints_n_keys_and_regions),
        cmocka_unit_test(test_compare_json_is_deterministic),
        cmocka_unit_test(test_measure_from_halves_the_writes),
        cmocka_unit_test(test_balancer_moves_the_newest_regions),
        cmocka_unit_test(test_scenario_file_equals_the_builtin_default),
        cmocka_unit_test(test_scenario_file_errors_name_file_and_line),
        cmocka_unit_test(test_chapter_salting_example),
        cmocka_unit_test(test_preset_is_its_expression),
        cmocka_unit_test(test_write_trace_round_trip),
        cmocka_unit_test(test_bad_trace_exits_2_with_file_and_line),
        cmocka_unit_test(test_csv_files_match_the_run),
        cmocka_unit_test(test_ycsb_c_command),
        cmocka_unit_test(test_assertions_exit_status),
        cmocka_unit_test(test_a_server_over_100_percent_is_overloaded),
        cmocka_unit_test(test_baseline_exit_status),
        cmocka_unit_test(test_jobs_do_not_change_the_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
