/* test_cli.c -- the regionsim binary as a user runs it.
 *
 * argv[1] is the path of the built binary. Each case runs it with its own
 * arguments, captures stdout and stderr, and checks the exit status and
 * what was printed: help, the three commands, and bad usage (exit 2, a
 * message naming the option and the token, nothing on stdout); what -o
 * and --write-trace do to devices, FIFOs, symlinks, directories and
 * existing files; interrupts; a full disk.
 *
 * Every child runs with the environment set here (child_env: TERM,
 * NO_COLOR, LC_ALL, TZ, default signal dispositions, an empty signal
 * mask), never the one the tests were started with, so TERM=dumb or
 * NO_COLOR in the caller's shell changes nothing.
 */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */
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

#include "sim/scenario.h"

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

/* What a child runs with: every variable the binary reads (TERM, NO_COLOR)
 * and the ones that could change the C library's output (LC_ALL, TZ) are
 * set, not inherited; signals are at their defaults and unblocked. */
typedef struct child_env {
    const char *term;     /* TERM; NULL unsets it */
    const char *no_color; /* NO_COLOR; NULL unsets it */
    long fsize_limit;     /* RLIMIT_FSIZE in bytes, SIGXFSZ ignored (a full disk); -1: none */
} child_env;

static const child_env plain_env = { "xterm-256color", NULL, -1 };

/* In the child, before exec. */
static void child_setup(const child_env *e)
{
    if (e->term)
        setenv("TERM", e->term, 1);
    else
        unsetenv("TERM");
    if (e->no_color)
        setenv("NO_COLOR", e->no_color, 1);
    else
        unsetenv("NO_COLOR");
    setenv("LC_ALL", "C", 1);
    setenv("TZ", "UTC0", 1);
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (e->fsize_limit >= 0) {
        struct rlimit rl = { (rlim_t)e->fsize_limit, (rlim_t)e->fsize_limit };
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(125);
    }
}

/* Starts the binary (argv[0] is set here) with stdout and stderr to the
 * given files. */
static pid_t spawn(const child_env *env, const char **argv, FILE *out, FILE *err)
{
    argv[0] = binary;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fileno(out), 1);
        dup2(fileno(err), 2);
        child_setup(env);
        execv(binary, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* argv[1..] from a NULL-terminated list of arguments. */
static void collect_args(const char *argv[32], const char *first, va_list ap)
{
    size_t n = 1;
    argv[1] = first;
    if (first)
        while (++n < 31 && (argv[n] = va_arg(ap, const char *)) != NULL)
            ;
    argv[n < 31 ? n : 31] = NULL;
}

static output run_argv(const child_env *env, const char **argv)
{
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    pid_t pid = spawn(env, argv, out, err);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    output o = { WIFEXITED(status) ? WEXITSTATUS(status) : 128, slurp(out), slurp(err) };
    return o;
}

/* Runs the binary with a NULL-terminated argument list, in plain_env. */
static output run(const char *first, ...)
{
    const char *argv[32];
    va_list ap;
    va_start(ap, first);
    collect_args(argv, first, ap);
    va_end(ap);
    return run_argv(&plain_env, argv);
}

/* The same in the environment env. */
static output run_env(const child_env *env, const char *first, ...)
{
    const char *argv[32];
    va_list ap;
    va_start(ap, first);
    collect_args(argv, first, ap);
    va_end(ap);
    return run_argv(env, argv);
}

/* Runs the binary with `tty_fd` (1 or 2) on a pseudo-terminal and the
 * other stream in a file; what the terminal showed goes to o.out or o.err.
 * argv is NULL-terminated, without the binary. */
static output run_on_tty(int tty_fd, const child_env *env, const char *const *args)
{
    const char *argv[32] = { binary };
    size_t n = 1;
    while (n < 31 && args[n - 1]) {
        argv[n] = args[n - 1];
        n++;
    }
    argv[n] = NULL;
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    assert_true(master >= 0);
    assert_int_equal(grantpt(master), 0);
    assert_int_equal(unlockpt(master), 0);
    const char *slave_name = ptsname(master);
    assert_non_null(slave_name);
    FILE *file = tmpfile();
    assert_non_null(file);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int slave = open(slave_name, O_RDWR | O_NOCTTY);
        if (slave < 0)
            _exit(126);
        dup2(slave, tty_fd);
        dup2(fileno(file), tty_fd == 1 ? 2 : 1);
        close(slave);
        close(master);
        child_setup(env);
        execv(binary, (char *const *)argv);
        _exit(127);
    }
    /* Drain the terminal while the child runs (it would block on a full
     * one); read fails with EIO once the child has closed its end. */
    size_t cap = 1 << 16, len = 0;
    char *seen = malloc(cap);
    assert_non_null(seen);
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap *= 2;
            seen = realloc(seen, cap);
            assert_non_null(seen);
        }
        ssize_t got = read(master, seen + len, 4096);
        if (got > 0)
            len += (size_t)got;
        else if (got < 0 && errno == EINTR)
            continue;
        else
            break;
    }
    seen[len] = '\0';
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    close(master);
    output o = { WIFEXITED(status) ? WEXITSTATUS(status) : 128, NULL, NULL };
    if (tty_fd == 1) {
        o.out = seen;
        o.err = slurp(file);
    } else {
        o.err = seen;
        o.out = slurp(file);
    }
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

/* Every scenario setting is an option and every command's --help lists
 * it; every option --help lists with a default takes that default. */
static void test_help_lists_every_setting(void **state)
{
    (void)state;
    static const char *const commands[] = { "compare", "run", "keys", "watch" };
    for (size_t c = 0; c < 4; c++) {
        output o = run(commands[c], "--help", NULL);
        assert_int_equal(o.status, 0);
        for (size_t i = 0; i < scenario_setting_count(); i++) {
            setting_doc d = scenario_setting_doc(i);
            if (!strcmp(d.key, "name"))
                continue; /* a file names itself: not an option */
            char option[80];
            int n = snprintf(option, sizeof option, "\n  --");
            for (const char *k = d.key; *k; k++)
                option[n++] = *k == '_' ? '-' : *k;
            snprintf(option + n, sizeof option - (size_t)n, " %s", d.arg);
            if (!strstr(o.out, option))
                fail_msg("%s --help does not list '%s'", commands[c], option + 3);
        }
        output_free(&o);
    }
    /* The defaults it shows are values the options take. */
    output o = run("keys", "--help", NULL);
    for (const char *p = strstr(o.out, "\n  --"); p; p = strstr(p + 1, "\n  --")) {
        char name[64], value[64];
        if (sscanf(p, "\n  %63s", name) != 1)
            continue;
        const char *end = strstr(p + 1, "\n  -"), *blank = strstr(p + 1, "\n\n");
        if (!end || (blank && blank < end))
            end = blank;
        const char *close = end ? end : p + strlen(p);
        const char *open = NULL;
        for (const char *q = p; q < close; q++) /* the last "(...)" of the entry */
            if (*q == '(')
                open = q;
        if (!open || sscanf(open, "(%63[^)])", value) != 1 || strchr(value, ' ') ||
            !strcmp(name, "--scheme") || !strcmp(name, "--format") || !strcmp(name, "--color"))
            continue;
        output r = run("keys", "--scheme", "salted", name, value, "-n", "1", NULL);
        if (r.status != 0)
            fail_msg("keys %s %s: exit %d: %s", name, value, r.status, r.err);
        output_free(&r);
    }
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
    assert_non_null(strstr(a.out, "\"regionsim\": 4"));
    assert_string_equal(a.out, b.out);
    output_free(&a);
    output_free(&b);
}

static json_object *member(json_object *o, const char *name);

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
static void test_progress_bar_only_on_a_terminal(void **state)
{
    (void)state;
    const char *args[] = { "compare", "--duration", "40m", NULL };
    output o = run_on_tty(2, &plain_env, args);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.err, "regionsim: ["));
    assert_non_null(strstr(o.err, "%  scheme "));
    size_t n = strlen(o.err);
    assert_true(n >= 4);
    assert_string_equal(o.err + n - 4, "\r\x1b[K"); /* the bar erased at the end */
    assert_null(strchr(o.out, '\r'));
    assert_null(strchr(o.out, '\x1b'));
    output_free(&o);
    /* stderr not a terminal: not a byte */
    output p = run("compare", "--duration", "40m", NULL);
    assert_int_equal(p.status, 0);
    assert_string_equal(p.err, "");
    output_free(&p);
}

/* Colour on a terminal unless NO_COLOR; --color decides over both. */
static void test_color_follows_the_terminal_and_no_color(void **state)
{
    (void)state;
    const char *args[] = { "run", "--scheme", "monotonic", "--duration", "5m", NULL };
    output tty = run_on_tty(1, &plain_env, args);
    assert_int_equal(tty.status, 0);
    assert_non_null(strstr(tty.out, "\x1b[38;5;"));
    output_free(&tty);
    const child_env no_color = { "xterm-256color", "1", -1 };
    output no = run_on_tty(1, &no_color, args);
    assert_int_equal(no.status, 0);
    assert_null(strchr(no.out, '\x1b'));
    output_free(&no);
    output forced = run_env(&no_color, "run", "--scheme", "monotonic", "--duration", "5m",
                            "--color", "always", NULL);
    assert_non_null(strstr(forced.out, "\x1b[38;5;")); /* the option wins */
    output_free(&forced);
    const char *never_args[] = { "run", "--scheme", "monotonic", "--duration", "5m", "--color",
                                 "never", NULL };
    output never = run_on_tty(1, &plain_env, never_args);
    assert_null(strchr(never.out, '\x1b'));
    output_free(&never);
    output plain = run("run", "--scheme", "monotonic", "--duration", "5m", NULL);
    assert_null(strchr(plain.out, '\x1b')); /* a file: no colour */
    output_free(&plain);
    assert_usage_error(run("run", "--scheme", "salted", "--color", "sometimes", NULL),
                       "--color", "'sometimes'");
}

/* TERM=dumb: --color auto gives no colour even on a terminal (and no
 * progress bar); --color always still does. */
static void test_color_auto_on_a_dumb_terminal(void **state)
{
    (void)state;
    const child_env dumb = { "dumb", NULL, -1 };
    const char *args[] = { "run", "--scheme", "monotonic", "--duration", "5m", "--color", "auto",
                           NULL };
    output o = run_on_tty(1, &dumb, args);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "rs0"));
    assert_null(strchr(o.out, '\x1b'));
    output_free(&o);
    const char *always[] = { "run", "--scheme", "monotonic", "--duration", "5m", "--color",
                             "always", NULL };
    o = run_on_tty(1, &dumb, always);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "\x1b[38;5;"));
    output_free(&o);
}

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

static json_object *member(json_object *o, const char *name)
{
    json_object *m = NULL;
    assert_true(json_object_object_get_ex(o, name, &m));
    return m;
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
    output o = run("run", "--scheme", "monotonic", "--servers", "2", "--format", "csv", "-o",
                   dir, NULL);
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
static void test_html_report_to_a_file(void **state)
{
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/tmp/regionsim-%d.html", (int)getpid());
    output o = run("compare", "--scheme", "monotonic", "--scheme", "salted", "--duration", "5m",
                   "--format", "html", "-o", path, NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "");
    output_free(&o);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *page = slurp(f);
    assert_non_null(strstr(page, "<svg"));
    assert_non_null(strstr(page, "monotonic"));
    assert_non_null(strstr(page, "salted"));
    assert_null(strstr(page, "<script src")); /* the one script is inline */
    assert_null(strstr(page, "src=\"http")); /* self-contained: nothing fetched */
    assert_null(strstr(page, "href=\"http"));
    free(page);
    if (system("command -v xmllint >/dev/null 2>&1") == 0) {
        char cmd[160];
        snprintf(cmd, sizeof cmd, "xmllint --noout %s", path);
        assert_int_equal(system(cmd), 0);
    } else {
        fprintf(stderr, "note: xmllint not installed; well-formedness not checked here\n");
    }
    unlink(path);
    char tmp[80];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    assert_int_equal(access(tmp, F_OK), -1); /* no temporary left */
    assert_usage_error(run("compare", "--duration", "1m", "--format", "html", "-o",
                           "/nonexistent-dir/report.html", NULL),
                       "/nonexistent-dir/report.html", NULL);
}

/* ---- where -o and --write-trace write ---------------------------------- */

typedef struct path {
    char s[512];
} path;

/* A new empty private directory. */
static path private_dir(void)
{
    path p;
    snprintf(p.s, sizeof p.s, "/tmp/regionsim-cli-XXXXXX");
    assert_non_null(mkdtemp(p.s));
    return p;
}

static path in_dir(const path *dir, const char *name)
{
    path p;
    int n = snprintf(p.s, sizeof p.s, "%s/%s", dir->s, name);
    assert_true(n > 0 && (size_t)n < sizeof p.s);
    return p;
}

/* Removes dir and everything below it (no symlink followed). */
static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(p);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

/* How many names dir holds, other than . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void put_file(const char *p, const char *text)
{
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

static char *file_text(const char *p)
{
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    return slurp(f);
}

static mode_t kind_of(const char *p)
{
    struct stat st;
    assert_int_equal(lstat(p, &st), 0);
    return st.st_mode & S_IFMT;
}

/* A private character device (major, minor); 0, or -1 when mknod is not
 * allowed (not root): the caller skips. */
static int make_node(const char *p, unsigned major_no, unsigned minor_no)
{
    if (mknod(p, S_IFCHR | 0666, makedev(major_no, minor_no)) != 0)
        return -1;
    int fd = open(p, O_WRONLY);
    if (fd < 0) {
        unlink(p);
        return -1;
    }
    close(fd);
    return 0;
}

/* -o and --write-trace onto device nodes: they stay devices; a full one
 * (1,7, what /dev/full is) makes the run exit 2 naming it. Private nodes,
 * so a broken binary can never replace the system's /dev/null or
 * /dev/full; without mknod (not root) the real /dev/full is used, which a
 * user cannot replace. */
static void test_output_onto_devices(void **state)
{
    (void)state;
    path dir = private_dir();
    path null_node = in_dir(&dir, "null"), full_node = in_dir(&dir, "full");
    if (make_node(null_node.s, 1, 3) == 0 && make_node(full_node.s, 1, 7) == 0) {
        const char *opts[] = { "-o", "--write-trace" };
        for (int i = 0; i < 2; i++) {
            output o = run("run", "--scheme", "salted", "--duration", "1m", opts[i], null_node.s,
                           NULL);
            assert_int_equal(o.status, 0);
            assert_string_equal(o.err, "");
            output_free(&o);
            assert_int_equal(kind_of(null_node.s), S_IFCHR);
            o = run("run", "--scheme", "salted", "--duration", "1m", opts[i], full_node.s, NULL);
            assert_int_equal(o.status, 2);
            assert_non_null(strstr(o.err, opts[i]));
            assert_non_null(strstr(o.err, full_node.s));
            assert_non_null(strstr(o.err, "No space left on device"));
            output_free(&o);
            assert_int_equal(kind_of(full_node.s), S_IFCHR);
        }
        assert_int_equal(entries(dir.s), 2);
    } else if (geteuid() != 0 && access("/dev/full", W_OK) == 0) {
        output o = run("run", "--scheme", "salted", "--duration", "1m", "-o", "/dev/full", NULL);
        assert_int_equal(o.status, 2);
        assert_non_null(strstr(o.err, "/dev/full"));
        assert_non_null(strstr(o.err, "No space left on device"));
        output_free(&o);
    } else {
        remove_tree(dir.s);
        skip();
    }
    remove_tree(dir.s);
}

/* A child that reads the FIFO at p to its end and exits 0 if what it read
 * starts with `want`. */
static pid_t fifo_reader(const char *p, const char *want)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(60); /* never hang the suite */
        int fd = open(p, O_RDONLY);
        if (fd < 0)
            _exit(2);
        char head[256];
        size_t n = 0, total = 0;
        ssize_t got;
        char buf[65536];
        while ((got = read(fd, buf, sizeof buf)) > 0) {
            for (ssize_t i = 0; i < got && n < sizeof head; i++)
                head[n++] = buf[i];
            total += (size_t)got;
        }
        _exit(total >= strlen(want) && memcmp(head, want, strlen(want)) == 0 ? 0 : 1);
    }
    return pid;
}

/* The reader's verdict; killed first if the FIFO is gone (a broken binary
 * replaced it, and the reader would wait for ever). */
static void expect_reader_done(pid_t reader, const char *fifo)
{
    struct stat st;
    if (lstat(fifo, &st) != 0 || !S_ISFIFO(st.st_mode))
        kill(reader, SIGKILL);
    int status;
    assert_int_equal(waitpid(reader, &status, 0), reader);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* -o and --write-trace onto a FIFO: written through to its reader; it
 * stays a FIFO. */
static void test_output_onto_a_fifo(void **state)
{
    (void)state;
    path dir = private_dir();
    path fifo = in_dir(&dir, "pipe");
    assert_int_equal(mkfifo(fifo.s, 0600), 0);
    pid_t reader = fifo_reader(fifo.s, "scenario  default");
    output o = run("run", "--scheme", "salted", "--duration", "1m", "-o", fifo.s, NULL);
    expect_reader_done(reader, fifo.s);
    assert_int_equal(o.status, 0);
    output_free(&o);
    assert_int_equal(kind_of(fifo.s), S_IFIFO);
    reader = fifo_reader(fifo.s, "time,op,key,bytes\n0,put,");
    o = run("run", "--scheme", "salted", "--duration", "1m", "--write-trace", fifo.s, NULL);
    expect_reader_done(reader, fifo.s);
    assert_int_equal(o.status, 0);
    output_free(&o);
    assert_int_equal(kind_of(fifo.s), S_IFIFO);
    assert_int_equal(entries(dir.s), 1);
    remove_tree(dir.s);
}

/* -o through a symlink writes the file it names; the link stays a link. */
static void test_output_through_a_symlink(void **state)
{
    (void)state;
    path dir = private_dir();
    path target = in_dir(&dir, "target.txt"), link = in_dir(&dir, "link.txt");
    put_file(target.s, "old\n");
    assert_int_equal(symlink("target.txt", link.s), 0);
    output o = run("run", "--scheme", "salted", "--duration", "1m", "-o", link.s, NULL);
    assert_int_equal(o.status, 0);
    output_free(&o);
    assert_int_equal(kind_of(link.s), S_IFLNK);
    char *text = file_text(target.s);
    assert_true(strncmp(text, "scenario  default", 17) == 0);
    free(text);
    assert_int_equal(entries(dir.s), 2);
    remove_tree(dir.s);
}

/* -o onto a directory: exit 2 naming it; the directory is untouched. */
static void test_output_onto_a_directory(void **state)
{
    (void)state;
    path dir = private_dir();
    output o = run("run", "--scheme", "salted", "--duration", "1m", "-o", dir.s, NULL);
    assert_int_equal(o.status, 2);
    assert_string_equal(o.out, "");
    assert_non_null(strstr(o.err, dir.s));
    assert_non_null(strstr(o.err, "Is a directory"));
    output_free(&o);
    assert_int_equal(kind_of(dir.s), S_IFDIR);
    assert_int_equal(entries(dir.s), 0);
    remove_tree(dir.s);
}

/* A run that fails (a bad line in the trace it replays) leaves an existing
 * --write-trace file as it was, and a new name absent: no temporaries. */
static void test_failed_run_keeps_the_trace_file(void **state)
{
    (void)state;
    path dir = private_dir();
    path bad = in_dir(&dir, "bad.csv"), kept = in_dir(&dir, "kept.csv");
    path fresh = in_dir(&dir, "fresh.csv");
    put_file(bad.s, "time,op,key\n0,put,a\n10,put,b\\xZZ\n");
    put_file(kept.s, "precious\n");
    char want[600];
    snprintf(want, sizeof want, "%s:3:", bad.s);
    assert_usage_error(run("run", "--trace", bad.s, "--scheme", "key", "--write-trace", kept.s,
                           NULL), want, NULL);
    char *text = file_text(kept.s);
    assert_string_equal(text, "precious\n");
    free(text);
    assert_usage_error(run("run", "--trace", bad.s, "--scheme", "key", "--write-trace", fresh.s,
                           NULL), want, NULL);
    assert_int_equal(access(fresh.s, F_OK), -1);
    assert_int_equal(entries(dir.s), 2);
    remove_tree(dir.s);
}

/* SIGINT, SIGTERM or SIGHUP during a run with --write-trace: the program
 * says "interrupted" and dies of the signal; no trace and no temporary is
 * left, and a trace file that was there is as it was. */
static void test_interrupt_leaves_no_partial_trace(void **state)
{
    (void)state;
    static const struct { int sig; int existing; } cases[] = {
        { SIGINT, 0 }, { SIGTERM, 1 }, { SIGHUP, 0 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        path dir = private_dir();
        path trace = in_dir(&dir, "trace.csv");
        if (cases[c].existing)
            put_file(trace.s, "precious\n");
        int before = entries(dir.s);
        const char *argv[] = { NULL, "run", "--scheme", "salted", "--duration", "1h",
                               "--write-trace", trace.s, NULL };
        FILE *out = tmpfile(), *err = tmpfile();
        assert_non_null(out);
        assert_non_null(err);
        pid_t pid = spawn(&plain_env, argv, out, err);
        /* Wait until the run is writing (a new name in the directory). */
        struct timespec tick = { 0, 5 * 1000 * 1000 };
        int status = 0;
        pid_t done = 0;
        for (int i = 0; i < 4000 && entries(dir.s) == before && !done; i++) {
            nanosleep(&tick, NULL);
            done = waitpid(pid, &status, WNOHANG);
        }
        assert_int_equal(done, 0); /* still running */
        nanosleep(&tick, NULL);
        assert_int_equal(kill(pid, cases[c].sig), 0);
        assert_int_equal(waitpid(pid, &status, 0), pid);
        char *o = slurp(out), *e = slurp(err);
        if (!WIFSIGNALED(status) || WTERMSIG(status) != cases[c].sig)
            fail_msg("signal %d: expected death by it, status %#x, stderr: %s", cases[c].sig,
                     (unsigned)status, e);
        assert_non_null(strstr(e, "interrupted"));
        assert_string_equal(o, "");
        free(o);
        free(e);
        assert_int_equal(entries(dir.s), before);
        if (cases[c].existing) {
            char *text = file_text(trace.s);
            assert_string_equal(text, "precious\n");
            free(text);
        }
        remove_tree(dir.s);
    }
}

/* --format csv -o DIR on a full disk (a file size limit of 2 KiB: room
 * for the message on stderr, a file too, and not for keyspace.csv's 600
 * lines): exit 2 naming the file, and the directory it created is gone
 * again, with the files it had put there. */
static void test_csv_on_a_full_disk_leaves_no_directory(void **state)
{
    (void)state;
    path dir = private_dir();
    path out = in_dir(&dir, "report");
    const child_env full = { "xterm-256color", NULL, 2048 };
    output o = run_env(&full, "compare", "--scheme", "salted", "--duration", "30m", "--format",
                       "csv", "-o", out.s, NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, out.s));
    assert_non_null(strstr(o.err, "File too large"));
    output_free(&o);
    assert_int_equal(access(out.s, F_OK), -1);
    assert_int_equal(entries(dir.s), 0);
    /* -o FILE likewise: no file, no temporary. */
    o = run_env(&full, "compare", "--scheme", "salted", "--duration", "30m", "-o", out.s, NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "File too large"));
    output_free(&o);
    assert_int_equal(entries(dir.s), 0);
    remove_tree(dir.s);
}

/* A trace operation at 2^64 - 1 microseconds, the engine's "never", is
 * refused with FILE:LINE, not silently dropped. */
static void test_trace_time_past_the_engine_refused(void **state)
{
    (void)state;
    path dir = private_dir();
    path trace = in_dir(&dir, "late.csv");
    put_file(trace.s, "time,op,key\n0,put,a\n18446744073709551615,put,b\n");
    char want[600];
    snprintf(want, sizeof want, "%s:3: time out of range", trace.s);
    /* Periods long enough that the memory budget lets the run start. */
    assert_usage_error(run("run", "--trace", trace.s, "--scheme", "key", "--balancer-period",
                           "1000000000h", "--window", "1000000000h", NULL), want,
                       "18446744073709551614");
    remove_tree(dir.s);
}

/* The issue's own command: `run --ycsb c -p recordcount=100000 -p
 * operationcount=200000 --scheme key --write-trace t.csv` writes the
 * load's 100,000 keys in YCSB's order and names ("user" + FNV-64 of 0, 1,
 * 2, ...), then 200,000 gets whose key popularity is a real YCSB run's:
 * the KS distance of their key numbers to each of five real runs of
 * workload C (tests/data/ycsb_runs.tsv, the CDF at every 500th key) is
 * below 0.005. The same key can be fetched by name because the load wrote
 * them in order. */
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
 * name exits 1 and names the regression; another scenario exits 2. */
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
    assert_non_null(strstr(o.err, "0 regressions"));
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
    o = run("run", ini, "--metrics", "7", "--baseline", base, NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "another scenario"));
    output_free(&o);
    unlink(ini);
    unlink(base);
}

/* --jobs: schemes in threads give the same bytes as one at a time, in
 * every format that holds everything (text, JSON), with samples too;
 * a bad count is a usage error. */
static void test_jobs_do_not_change_the_output(void **state)
{
    (void)state;
    const char *formats[] = { "text", "json" };
    for (size_t f = 0; f < 2; f++) {
        output one = run("compare", "--duration", "2m", "--read-fraction", "0.1", "--format",
                         formats[f], "--jobs", "1", NULL);
        assert_int_equal(one.status, 0);
        const char *jobs[] = { "5", "0" };
        for (size_t j = 0; j < 2; j++) {
            output many = run("compare", "--duration", "2m", "--read-fraction", "0.1", "--format",
                              formats[f], "--jobs", jobs[j], NULL);
            assert_int_equal(many.status, 0);
            if (strcmp(one.out, many.out) != 0)
                fail_msg("--format %s --jobs %s differs from --jobs 1", formats[f], jobs[j]);
            output_free(&many);
        }
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

/* The number at runs[0].PATH... of a JSON report (spread entries nest). */
static double run_number(json_object *root, const char *a, const char *b, const char *c)
{
    json_object *v = member(json_object_array_get_idx(member(root, "runs"), 0), a);
    if (b) v = member(v, b);
    if (c) v = member(v, c);
    return json_object_get_double(v);
}

/* --samples N: the same output twice; every figure's spread brackets the
 * first sample's value; an assertion the seed's own run passes but another
 * sample fails fails the job (exit 1), naming the worst seed; a baseline of
 * another number of samples is refused; bad counts are usage errors. */
static void test_samples_exit_status(void **state)
{
    (void)state;
    char scheme[] = "--scheme=salt(4) ts";
    output a = run("run", "--duration", "3m", scheme, "--samples", "3", "--format", "json", NULL);
    output b = run("run", "--duration", "3m", scheme, "--samples", "3", "--format", "json", NULL);
    assert_int_equal(a.status, 0);
    assert_string_equal(a.out, b.out);
    output_free(&b);
    json_object *root = json_tokener_parse(a.out);
    assert_non_null(root);
    assert_int_equal(json_object_get_int64(member(root, "samples")), 3);
    double value = run_number(root, "figures", "write_max_mean", NULL);
    double lo = run_number(root, "spread", "write_max_mean", "min");
    double mid = run_number(root, "spread", "write_max_mean", "median");
    double hi = run_number(root, "spread", "write_max_mean", "max");
    assert_true(lo <= value && value <= hi);
    assert_true(lo <= mid && mid <= hi);
    assert_true(lo < hi); /* three seeds, three salts: not all alike */
    json_object_put(root);
    output_free(&a);

    /* a bound the seed's run meets exactly; another sample is beyond it */
    char expr[96];
    if (value < hi)
        snprintf(expr, sizeof expr, "write_max_mean <= %.17g", value);
    else
        snprintf(expr, sizeof expr, "write_max_mean >= %.17g", value);
    output one = run("run", "--duration", "3m", scheme, "--assert", expr, NULL);
    assert_int_equal(one.status, 0);
    output_free(&one);
    output three = run("run", "--duration", "3m", scheme, "--samples", "3", "--assert", expr,
                       NULL);
    assert_int_equal(three.status, 1);
    assert_non_null(strstr(three.err, "FAILED write_max_mean"));
    assert_non_null(strstr(three.err, "the worst of 3 samples"));
    assert_null(strstr(three.err, "(seed 42,")); /* the seed's own run passed */
    output_free(&three);

    char base[] = "/tmp/regionsim-samples-XXXXXX";
    int fd = mkstemp(base);
    assert_true(fd >= 0);
    close(fd);
    output o = run("run", "--duration", "3m", scheme, "--samples", "2", "--format", "json", "-o",
                   base, NULL);
    assert_int_equal(o.status, 0);
    output_free(&o);
    o = run("run", "--duration", "3m", scheme, "--samples", "2", "--baseline", base, NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.err, "medians of 2 samples"));
    output_free(&o);
    o = run("run", "--duration", "3m", scheme, "--baseline", base, NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "--samples 1"));
    output_free(&o);
    unlink(base);

    assert_usage_error(run("run", "--duration", "1m", "--samples", "0", NULL), "samples", "0");
    assert_usage_error(run("run", "--duration", "1m", "--samples", "1001", NULL), "samples",
                       "1001");
    assert_usage_error(run("run", "--duration", "1m", "--scheme", "ts", "--seed",
                           "18446744073709551615", "--samples", "2", NULL), "samples", "2^64-1");
    output last = run("run", "--duration", "1m", "--scheme", "ts", "--seed",
                      "18446744073709551614", "--samples", "2", NULL);
    assert_int_equal(last.status, 0); /* the last seed there is */
    output_free(&last);
    assert_usage_error(run("run", "--duration", "1m", "--scheme", "ts", "--samples", "2",
                           "--write-trace", "/tmp/regionsim-never-written", NULL),
                       "--write-trace", "samples");
    assert_int_equal(access("/tmp/regionsim-never-written", F_OK), -1);
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
        cmocka_unit_test(test_help_lists_every_setting),
        cmocka_unit_test(test_bad_usage_exits_2_with_a_named_error),
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
        cmocka_unit_test(test_progress_bar_only_on_a_terminal),
        cmocka_unit_test(test_color_follows_the_terminal_and_no_color),
        cmocka_unit_test(test_color_auto_on_a_dumb_terminal),
        cmocka_unit_test(test_csv_files_match_the_run),
        cmocka_unit_test(test_html_report_to_a_file),
        cmocka_unit_test(test_output_onto_devices),
        cmocka_unit_test(test_output_onto_a_fifo),
        cmocka_unit_test(test_output_through_a_symlink),
        cmocka_unit_test(test_output_onto_a_directory),
        cmocka_unit_test(test_failed_run_keeps_the_trace_file),
        cmocka_unit_test(test_interrupt_leaves_no_partial_trace),
        cmocka_unit_test(test_csv_on_a_full_disk_leaves_no_directory),
        cmocka_unit_test(test_trace_time_past_the_engine_refused),
        cmocka_unit_test(test_ycsb_c_command),
        cmocka_unit_test(test_assertions_exit_status),
        cmocka_unit_test(test_baseline_exit_status),
        cmocka_unit_test(test_samples_exit_status),
        cmocka_unit_test(test_jobs_do_not_change_the_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
