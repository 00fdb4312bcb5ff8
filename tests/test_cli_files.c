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

#include "sim/scenario.h"
#include "tests/cli_support.h"

/* The bar shows once a run has taken 1 s of wall time (sim/progress.c):
 * 20 minutes of the default compare on one thread take over 2 s here,
 * with less CPU than the same run on every core. */
static void test_progress_bar_only_on_a_terminal(void **state)
{
    (void)state;
    const char *args[] = { "compare", "--duration", "20m", "--jobs", "1", NULL };
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
        test_remove_tree(dir.s);
        skip();
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
    assert_int_equal(entries(dir.s), 1);
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
    assert_int_equal(entries(dir.s), 2);
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
    assert_int_equal(entries(dir.s), 0);
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
    assert_int_equal(entries(dir.s), 2);
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
    assert_int_equal(entries(dir.s), 0);
    /* -o FILE likewise: no file, no temporary. */
    o = run_env(&full, "compare", "--scheme", "salted", "--duration", "30m", "-o", out.s, NULL);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "File too large"));
    output_free(&o);
    assert_int_equal(entries(dir.s), 0);
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_cli_files PATH-TO-REGIONSIM [SOURCE-ROOT]\n");
        return 2;
    }
    binary = argv[1];
    source_root = argc > 2 ? argv[2] : ".";
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
