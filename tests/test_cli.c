/* test_cli.c -- the regionsim binary as a user runs it.
 *
 * argv[1] is the path of the built binary. Each case runs it with its own
 * arguments, captures stdout and stderr, and checks the exit status and
 * what was printed: help, the three commands, and bad usage (exit 2, a
 * message naming the option and the token, nothing on stdout).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

static const char *binary;
static const char *source_root; /* for examples/ */

typedef struct output {
    int status;
    char *out, *err;
} output;

static char *slurp(FILE *f)
{
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* Runs the binary with a NULL-terminated argument list. */
static output run(const char *first, ...)
{
    const char *argv[32] = { binary, first };
    size_t n = 1;
    if (first) {
        va_list ap;
        va_start(ap, first);
        n = 2;
        while (n < 31 && (argv[n] = va_arg(ap, const char *)) != NULL)
            n++;
        va_end(ap);
    }
    argv[n] = NULL;

    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fileno(out), 1);
        dup2(fileno(err), 2);
        execv(binary, (char *const *)argv);
        _exit(127);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    output o = { WIFEXITED(status) ? WEXITSTATUS(status) : 128, slurp(out), slurp(err) };
    return o;
}

static void output_free(output *o)
{
    free(o->out);
    free(o->err);
}

static size_t count_lines_with(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *line = text; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char buf[1024];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < 1023 ? len : 1023), line);
        n += strstr(buf, needle) != NULL;
        line = nl ? nl + 1 : NULL;
    }
    return n;
}

static void assert_usage_error(output o, const char *want1, const char *want2)
{
    assert_int_equal(o.status, 2);
    assert_string_equal(o.out, "");
    assert_non_null(strstr(o.err, want1));
    if (want2)
        assert_non_null(strstr(o.err, want2));
    output_free(&o);
}

static void test_help(void **state)
{
    (void)state;
    output o = run("--help", NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "compare"));
    assert_non_null(strstr(o.out, "keys"));
    output_free(&o);
    o = run("compare", "--help", NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "--servers"));
    output_free(&o);
    o = run("keys", "-h", NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "-n N"));
    output_free(&o);
}

static void test_bad_usage_exits_2_with_a_named_error(void **state)
{
    (void)state;
    assert_usage_error(run(NULL), "usage", NULL);
    assert_usage_error(run("frobnicate", NULL), "frobnicate", "compare");
    assert_usage_error(run("compare", "--servers", "abc", NULL), "--servers", "'abc'");
    assert_usage_error(run("compare", "--servers", "0", NULL), "--servers", "1 to 100000");
    assert_usage_error(run("compare", "--servers=100001", NULL), "--servers", "100001");
    assert_usage_error(run("compare", "--seed", "18446744073709551616", NULL), "--seed", NULL);
    assert_usage_error(run("compare", "--duration", "5", NULL), "--duration", "unit");
    assert_usage_error(run("compare", "--region-size", "4XB", NULL), "--region-size", "'4XB'");
    assert_usage_error(run("compare", "--bogus", "1", NULL), "unknown option", "--bogus");
    assert_usage_error(run("compare", "--servers", NULL), "--servers", "value");
    assert_usage_error(run("run", NULL), "--scheme", NULL);
    assert_usage_error(run("compare", "--scheme", "salt(0) ts", NULL), "column", NULL);
    assert_usage_error(run("keys", "--scheme", "nosuchfield", NULL), "nosuchfield", NULL);
    assert_usage_error(run("keys", "--scheme", "ts", "-n", "0", NULL), "-n", NULL);
}

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
    assert_non_null(strstr(a.out, "\"regionsim\": 1"));
    assert_string_equal(a.out, b.out);
    output_free(&a);
    output_free(&b);
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_cli PATH-TO-REGIONSIM [SOURCE-ROOT]\n");
        return 2;
    }
    binary = argv[1];
    source_root = argc > 2 ? argv[2] : ".";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_bad_usage_exits_2_with_a_named_error),
        cmocka_unit_test(test_run_prints_every_server),
        cmocka_unit_test(test_keys_prints_n_keys_and_regions),
        cmocka_unit_test(test_compare_json_is_deterministic),
        cmocka_unit_test(test_scenario_file_equals_the_builtin_default),
        cmocka_unit_test(test_scenario_file_errors_name_file_and_line),
        cmocka_unit_test(test_chapter_salting_example),
        cmocka_unit_test(test_preset_is_its_expression),
        cmocka_unit_test(test_write_trace_round_trip),
        cmocka_unit_test(test_bad_trace_exits_2_with_file_and_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
