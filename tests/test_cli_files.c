/* test_cli_files.c -- the regionsim binary as a user runs it: on a
 * terminal, and writing files.
 *
 * argv[1] is the path of the built binary. The progress bar and colour on
 * a terminal (a pseudo-terminal) and off it; what -o and --write-trace do
 * to devices, FIFOs, symlinks, directories and existing files;
 * interrupts; a full disk. Children run in the environment
 * tests/cli_support.h sets. test_cli.c has the commands and exit statuses.
 */
#define _XOPEN_SOURCE 700
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

#include "tests/support.h"
#include <json-c/json.h>

#include "scenario/scenario.h"
#include "tests/cli_support.h"

/* The bar shows once a run has taken 1 s of wall time (cli/progress.c):
 * 20 minutes of the default compare on one thread take over 2 s here,
 * with less CPU than the same run on every core. */
static void test_progress_bar_only_on_a_terminal(void **state)
{
    (void)state;
    const char *args[] = { "compare", "--duration", "20m", "--jobs", "1", NULL };
    output o = run_on_tty(2, &plain_env, args);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.err, "regionsim: ["));
    /* the first seed scheme by scheme, then the other seeds' runs side by side */
    char first[64];
    snprintf(first, sizeof first, "%%  sample 1/%d scheme ", SCENARIO_DEFAULT_SAMPLES);
    assert_non_null(strstr(o.err, first));
    assert_non_null(strstr(o.err, "%  runs "));
    size_t n = strlen(o.err);
    assert_true(n >= 4);
    assert_string_equal(o.err + n - 4, "\r\x1b[K"); /* the bar erased at the end */
    assert_null(strchr(o.out, '\r'));
    assert_null(strchr(o.out, '\x1b'));
    output_free(&o);
    /* stderr not a terminal: not a byte */
    output p = run("compare", "--duration", "20m", "--jobs", "1", NULL);
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
    assert_well_formed_xml(path);
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
            if (i == 1) /* a trace is one run: it says it ran seed 42 alone */
                assert_non_null(strstr(o.err, "--write-trace records one run: seed 42 alone"));
            else
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
        assert_int_equal(test_entries(dir.s), 2);
    } else if (geteuid() != 0 && access("/dev/full", W_OK) == 0) {
        output o = run("run", "--scheme", "salted", "--duration", "1m", "-o", "/dev/full", NULL);
        assert_int_equal(o.status, 2);
        assert_non_null(strstr(o.err, "/dev/full"));
        assert_non_null(strstr(o.err, "No space left on device"));
        output_free(&o);
    } else {
        test_remove_tree(dir.s);
        fail_msg("%s", geteuid() == 0 ? "mknod failed as root (private device nodes)"
                                     : "/dev/full is missing or not writable");
    }
    test_remove_tree(dir.s);
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
    assert_int_equal(test_entries(dir.s), 1);
    test_remove_tree(dir.s);
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
    assert_int_equal(test_entries(dir.s), 2);
    test_remove_tree(dir.s);
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
    assert_int_equal(test_entries(dir.s), 0);
    test_remove_tree(dir.s);
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
    assert_int_equal(test_entries(dir.s), 2);
    test_remove_tree(dir.s);
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
        int before = test_entries(dir.s);
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
        for (int i = 0; i < 4000 && test_entries(dir.s) == before && !done; i++) {
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
        assert_int_equal(test_entries(dir.s), before);
        if (cases[c].existing) {
            char *text = file_text(trace.s);
            assert_string_equal(text, "precious\n");
            free(text);
        }
        test_remove_tree(dir.s);
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
    assert_int_equal(test_entries(dir.s), 0);
    /* -o FILE likewise: no file, no temporary. */
    o = run_env(&full, "compare", "--scheme", "salted", "--duration", "30m", "-o", out.s, NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "File too large"));
    output_free(&o);
    assert_int_equal(test_entries(dir.s), 0);
    test_remove_tree(dir.s);
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
    test_remove_tree(dir.s);
}

/* The issue's own command: `run --ycsb c -p recordcount=100000 -p
 * operationcount=200000 --scheme key --write-trace t.csv` writes the
 * load's 100,000 keys in YCSB's order and names ("user" + FNV-64 of 0, 1,
 * 2, ...), then 200,000 gets whose key popularity is a real YCSB run's:
 * the KS distance of their key numbers to each of five real runs of
 * workload C (tests/data/ycsb_runs.tsv, the CDF at every 500th key) is
 * below 0.005. The same key can be fetched by name because the load wrote
 * them in order. */

/* ---- issue 27: one output module with the kernel's semantics -------- */

/* Runs argv (argv[0] left for spawn) with stdout and stderr on the given
 * files; returns the wait status. */
static int run_with(const char **argv, FILE *out, FILE *err)
{
    fflush(out);
    fflush(err);
    pid_t pid = spawn(&plain_env, argv, out, err);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

/* Whether file p starts with `head`. */
static int starts_with(const char *p, const char *head)
{
    char *text = file_text(p);
    int yes = strncmp(text, head, strlen(head)) == 0;
    free(text);
    return yes;
}

/* The reproductions: `run -o /dev/stdout >> log.txt` (and
 * /dev/fd/1, /proc/self/fd/1; sweep's and advise's -o) keeps log.txt's
 * first line, the report after it; `--junit /dev/stderr 2>> ci.log` keeps
 * ci.log's. The earlier code renamed the output over the file behind the
 * descriptor: the log held only the report. */
static void test_dev_stdout_appends_to_the_shells_file(void **state)
{
    (void)state;
    path dir = private_dir();
    path log = in_dir(&dir, "log.txt"), ci = in_dir(&dir, "ci.log");
    char sweep_file[600];
    snprintf(sweep_file, sizeof sweep_file, "%s/tests/data/sweep-small.ini", source_root);
    static const char *const names[] = { "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1" };
    for (size_t i = 0; i < 5; i++) {
        const char *run_argv[] = { NULL, "run", "--scheme", "salted", "--duration", "1m", "-o",
                                   names[i < 3 ? i : 0], NULL };
        const char *sweep_argv[] = { NULL, "sweep", sweep_file, "-o", "/dev/stdout", NULL };
        const char *advise_argv[] = { NULL, "advise", "--duration", "10m", "--budget", "2",
                                      "--no-check", "-o", "/dev/stdout", NULL };
        const char **argv = i < 3 ? run_argv : i == 3 ? sweep_argv : advise_argv;
        const char *head = i < 3 ? "first line\nscenario  default"
                           : i == 3 ? "first line\nsweep sweep-small" : "first line\n";
        put_file(log.s, "first line\n");
        FILE *out = fopen(log.s, "a"), *err = tmpfile();
        assert_non_null(out);
        assert_non_null(err);
        int status = run_with(argv, out, err);
        fclose(out);
        char *e = slurp(err);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fail_msg("%s -o %s >> log: status %#x: %s", argv[1], argv[i < 3 ? 7 : i == 3 ? 4 : 8],
                     (unsigned)status, e);
        free(e);
        if (!starts_with(log.s, head))
            fail_msg("%s -o /dev/stdout >> log.txt: the log's first line is gone", argv[1]);
        char *text = file_text(log.s);
        assert_true(strlen(text) > strlen(head) + 100); /* and the report is there */
        free(text);
    }
    put_file(ci.s, "first line\n");
    const char *argv[] = { NULL, "run", "--scheme", "salted", "--duration", "1m", "--assert",
                           "write_max_mean < 100", "--junit", "/dev/stderr", NULL };
    FILE *out = tmpfile(), *err = fopen(ci.s, "a");
    assert_non_null(out);
    assert_non_null(err);
    int status = run_with(argv, out, err);
    fclose(err);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char *o = slurp(out);
    assert_true(strncmp(o, "scenario  default", 17) == 0); /* the report on stdout */
    free(o);
    if (!starts_with(ci.s, "first line\n<?xml"))
        fail_msg("--junit /dev/stderr 2>> ci.log: the log's first line is gone");
    test_remove_tree(dir.s);
}

/* -o /proc/self/fd/1 and -o /dev/stdout through a pipe: the report goes
 * down the pipe (the earlier code exited 2: "cannot create a temporary
 * file in /proc/self/fd"). */
static void test_output_path_through_a_pipe(void **state)
{
    (void)state;
    static const char *const names[] = { "/proc/self/fd/1", "/dev/stdout" };
    for (size_t i = 0; i < 2; i++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        FILE *out = fdopen(fds[1], "w"), *err = tmpfile();
        assert_non_null(out);
        assert_non_null(err);
        const char *argv[] = { NULL, "run", "--scheme", "salted", "--duration", "1m", "-o",
                               names[i], NULL };
        pid_t pid = spawn(&plain_env, argv, out, err);
        fclose(out);
        FILE *in = fdopen(fds[0], "r");
        assert_non_null(in);
        char head[32] = "";
        size_t got = fread(head, 1, sizeof head - 1, in);
        while (fgetc(in) != EOF) {
        }
        fclose(in);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        char *e = slurp(err);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fail_msg("-o %s | ...: status %#x: %s", names[i], (unsigned)status, e);
        free(e);
        assert_true(got >= 17);
        assert_true(strncmp(head, "scenario  default", 17) == 0);
    }
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* An output path that cannot be written fails before anything runs: exit
 * 2 naming the option and the path, in well under a second, with runs
 * that would take tens of seconds (the earlier code said "cannot write"
 * only after the simulation). compare -o, --junit, --write-trace, sweep
 * -o and --junit, advise -o. */
static void test_unwritable_output_fails_before_the_run(void **state)
{
    (void)state;
    char sweep_file[600];
    snprintf(sweep_file, sizeof sweep_file, "%s/tests/data/sweep-small.ini", source_root);
    const char *bad = "/nonexistent-dir/out.txt";
    const char *cases[][12] = {
        { "compare", "--duration", "2h", "-o", bad, NULL },
        { "compare", "--duration", "2h", "--assert", "write_max_mean < 100", "--junit", bad,
          NULL },
        { "run", "--scheme", "salted", "--duration", "2h", "-o", "/dev/null", "--write-trace",
          bad, NULL },
        { "compare", "--duration", "2h", "--format", "csv", "-o", "/nonexistent-dir/csv", NULL },
        { "sweep", sweep_file, "--duration", "2h", "-o", bad, NULL },
        { "sweep", sweep_file, "--duration", "2h", "--junit", bad, NULL },
        { "advise", "--duration", "2h", "--budget", "64", "-o", bad, NULL },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *argv[14] = { NULL };
        for (size_t i = 0; cases[c][i]; i++)
            argv[i + 1] = cases[c][i];
        FILE *out = tmpfile(), *err = tmpfile();
        assert_non_null(out);
        assert_non_null(err);
        struct timespec t0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        int status = run_with(argv, out, err);
        double took = seconds_since(&t0);
        char *o = slurp(out), *e = slurp(err);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 2 || !strstr(e, "/nonexistent-dir/") ||
            !strstr(e, "No such file or directory") || o[0] || took >= 1.0)
            fail_msg("case %zu (%s ... %s): status %#x after %.2f s, stderr: %s", c, argv[1],
                     argv[4], (unsigned)status, took, e);
        free(o);
        free(e);
    }
}

/* The report and the JUnit file are written as a set: SIGINT during the
 * run leaves neither; SIGINT while the JUnit file (a FIFO) waits for its
 * reader, after the report was rendered, leaves no report either (the
 * earlier code had renamed it into place by then). */
static int sleeping(pid_t pid, unsigned long *cpu)
{
    char name[64], buf[1024];
    snprintf(name, sizeof name, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(name, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    char state = 0;
    unsigned long utime = 0, stime = 0;
    if (!p || sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &state, &utime,
                     &stime) != 3)
        return 0;
    int still = state == 'S' && utime + stime == *cpu;
    *cpu = utime + stime;
    return still;
}

static void test_interrupt_leaves_neither_report_nor_junit(void **state)
{
    (void)state;
    for (int fifo = 0; fifo < 2; fifo++) {
        path dir = private_dir();
        path report = in_dir(&dir, "report.txt"), junit = in_dir(&dir, "junit.xml");
        if (fifo)
            assert_int_equal(mkfifo(junit.s, 0600), 0);
        const char *argv[] = { NULL, "compare", "--duration", fifo ? "5m" : "1h", "-o", report.s,
                               "--assert", "write_max_mean < 100", "--junit", junit.s, NULL };
        FILE *out = tmpfile(), *err = tmpfile();
        assert_non_null(out);
        assert_non_null(err);
        pid_t pid = spawn(&plain_env, argv, out, err);
        struct timespec tick = { 0, 50 * 1000 * 1000 };
        unsigned long cpu = (unsigned long)-1;
        int quiet = 0, status = 0;
        pid_t done = 0;
        /* the run: under way for a while; the FIFO: asleep in its open */
        for (int i = 0; i < 1200 && !done && quiet < (fifo ? 6 : 1); i++) {
            nanosleep(&tick, NULL);
            done = waitpid(pid, &status, WNOHANG);
            quiet = fifo ? (sleeping(pid, &cpu) ? quiet + 1 : 0) : i >= 6;
        }
        assert_int_equal(done, 0); /* still running */
        assert_int_equal(kill(pid, SIGINT), 0);
        assert_int_equal(waitpid(pid, &status, 0), pid);
        char *o = slurp(out), *e = slurp(err);
        if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGINT)
            fail_msg("expected death by SIGINT, status %#x, stderr: %s", (unsigned)status, e);
        free(o);
        free(e);
        if (access(report.s, F_OK) == 0)
            fail_msg("%s: the report was written without its JUnit file",
                     fifo ? "^C while the JUnit FIFO waited" : "^C during the run");
        assert_int_equal(test_entries(dir.s), fifo); /* the FIFO, nothing else */
        test_remove_tree(dir.s);
    }
}

/* A failure writing the JUnit file leaves no report (and an old report
 * as it was): compare and sweep with --junit /dev/full. The earlier code
 * had written the report first. */
static void test_junit_failure_leaves_no_report(void **state)
{
    (void)state;
    assert_int_equal(access("/dev/full", W_OK), 0); /* every Linux has it */
    char sweep_file[600];
    snprintf(sweep_file, sizeof sweep_file, "%s/tests/data/sweep-small.ini", source_root);
    for (int old = 0; old < 2; old++) {
        path dir = private_dir();
        path report = in_dir(&dir, "report.txt");
        if (old)
            put_file(report.s, "old report\n");
        output o = old ? run("sweep", sweep_file, "-o", report.s, "--junit", "/dev/full", NULL)
                       : run("compare", "--duration", "5m", "-o", report.s, "--assert",
                             "write_max_mean < 100", "--junit", "/dev/full", NULL);
        assert_int_equal(o.status, 2);
        assert_non_null(strstr(o.err, "--junit /dev/full"));
        assert_non_null(strstr(o.err, "No space left on device"));
        output_free(&o);
        if (old) {
            char *text = file_text(report.s);
            assert_string_equal(text, "old report\n");
            free(text);
        } else if (access(report.s, F_OK) == 0) {
            fail_msg("the report was written although its JUnit file failed");
        }
        assert_int_equal(test_entries(dir.s), old);
        test_remove_tree(dir.s);
    }
}

/* Runs argv with stdout closed (`>&-`) and stderr to err; the status. */
static int run_stdout_closed(const char **argv, FILE *err)
{
    argv[0] = binary;
    fflush(err);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fileno(err), 2);
        close(1);
        setenv("LC_ALL", "C", 1);
        setenv("TZ", "UTC0", 1);
        setenv("TERM", "dumb", 1);
        signal(SIGPIPE, SIG_DFL);
        execv(binary, (char *const *)argv);
        _exit(127);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

/* stdout closed: -o /dev/stdout fails naming it (no file of the program's
 * own is taken for stdout), and a report due on stdout fails the set: the
 * JUnit file is not written without it, one message, exit 2. */
static void test_closed_stdout(void **state)
{
    (void)state;
    path dir = private_dir();
    path junit = in_dir(&dir, "junit.xml");
    const char *to_stdout[] = { NULL, "run", "--scheme", "salted", "--duration", "1m", "-o",
                                "/dev/stdout", NULL };
    const char *with_junit[] = { NULL, "run", "--scheme", "salted", "--duration", "1m",
                                 "--assert", "write_max_mean < 100", "--junit", junit.s, NULL };
    for (int c = 0; c < 2; c++) {
        FILE *err = tmpfile();
        assert_non_null(err);
        int status = run_stdout_closed(c ? with_junit : to_stdout, err);
        char *e = slurp(err);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 2 ||
            !strstr(e, c ? "stdout: write failed: Bad file descriptor"
                         : "-o /dev/stdout: cannot open: No such file or directory") ||
            count_lines_with(e, "regionsim") != 1)
            fail_msg("case %d: status %#x, stderr: %s", c, (unsigned)status, e);
        free(e);
    }
    assert_int_equal(test_entries(dir.s), 0); /* no JUnit without its report */
    test_remove_tree(dir.s);
}

int main(int argc, char **argv)
{
    cli_args(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_progress_bar_only_on_a_terminal),
        cmocka_unit_test(test_color_follows_the_terminal_and_no_color),
        cmocka_unit_test(test_color_auto_on_a_dumb_terminal),
        cmocka_unit_test(test_html_report_to_a_file),
        cmocka_unit_test(test_output_onto_devices),
        cmocka_unit_test(test_output_onto_a_fifo),
        cmocka_unit_test(test_output_through_a_symlink),
        cmocka_unit_test(test_output_onto_a_directory),
        cmocka_unit_test(test_failed_run_keeps_the_trace_file),
        cmocka_unit_test(test_interrupt_leaves_no_partial_trace),
        cmocka_unit_test(test_csv_on_a_full_disk_leaves_no_directory),
        cmocka_unit_test(test_trace_time_past_the_engine_refused),
        cmocka_unit_test(test_dev_stdout_appends_to_the_shells_file),
        cmocka_unit_test(test_output_path_through_a_pipe),
        cmocka_unit_test(test_unwritable_output_fails_before_the_run),
        cmocka_unit_test(test_interrupt_leaves_neither_report_nor_junit),
        cmocka_unit_test(test_junit_failure_leaves_no_report),
        cmocka_unit_test(test_closed_stdout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
