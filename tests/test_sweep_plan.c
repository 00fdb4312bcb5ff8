/* test_sweep_plan.c -- a sweep written out as jobs (planners/sweep_plan.h,
 * `regionsim sweep FILE --plan DIR [--slurm]`), called in-process: the
 * directory's rules and their messages, the point files read back by the
 * sweep reader, jobs.txt run line by line through /bin/sh with a stub
 * binary that records its arguments (hostile paths and values included),
 * and sweep.sbatch run by sh as Slurm would run a task, its #SBATCH lines
 * parsed as sbatch parses them, and split when the points exceed one
 * array; directories others can write, or that belong to someone else
 * (as root: chown to nobody), refused untouched; a full disk (files
 * limited by RLIMIT_FSIZE) or an interrupt leaving nothing; relative
 * paths made absolute and read from another directory; the binary
 * copied. Nothing here runs the simulation.
 *
 * The temporary directories go under $TMPDIR (or /tmp) and are removed;
 * the directories above it must be yours or root's, writable by no one
 * else unless sticky (as /tmp is), as the plan's own rules want.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dirent.h>
#include <json-c/json.h>
#include <limits.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support.h"

#include "cli/interrupts.h"
#include "scenario/sweep.h"
#include "planners/sweep_plan.h"

static char work[PATH_MAX]; /* this run's temporary directory */

/* ---- helpers ---- */

static void assert_starts(const char *text, const char *prefix)
{
    if (strncmp(text, prefix, strlen(prefix)))
        fail_msg("'%s' does not start with '%s'", text, prefix);
}

/* work/name into out (PATH_MAX). */
static const char *in_work(char *out, const char *name)
{
    int n = snprintf(out, PATH_MAX, "%s/%s", work, name);
    assert_true(n > 0 && n < PATH_MAX);
    return out;
}

static void spit(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, mode), 0);
}



/* A sweep from text, named path (which anchors nothing here). */
static void load(sweep *sw, const char *path, const char *text)
{
    char err[1024];
    if (sweep_load_text(sw, path, text, strlen(text), err, sizeof err) < 0)
        fail_msg("sweep_load_text: %s", err);
}

static const char small_text[] =
    "name = plan-test\n"
    "[sweep]\n"
    "b = 1, 2, 4\n"
    "servers = 4, 8\n"
    "[workload]\n"
    "metrics = 10\n"
    "hosts = 20\n"
    "interval = 5s\n"
    "duration = 2m\n"
    "[scheme tsdb]\n"
    "key = osalt($b) uid(metric, 3) hour(ts) tags\n";

/* Writes the plan of text into dir with options (KEY, VALUE pairs) and the
 * binary given; returns sweep_plan_write's result, err filled. */
static int write_plan(const char *text, const char *dir, const char *binary, int slurm,
                const char *const *args, size_t nargs, char *err, size_t errcap)
{
    sweep sw;
    load(&sw, "/nowhere/sweep.ini", text);
    sweep_plan_options po = { dir, "plan-test", binary, slurm, args, nargs };
    err[0] = '\0';
    int rc = sweep_plan_write(&sw, &po, err, errcap);
    sweep_release(&sw);
    return rc;
}

/* Line n (from 0) of text into out, without its newline; -1 if none. */
static int line_of(const char *text, size_t n, char *out, size_t cap)
{
    const char *s = text;
    for (size_t i = 0; i < n; i++) {
        s = strchr(s, '\n');
        if (!s)
            return -1;
        s++;
    }
    if (!*s)
        return -1;
    size_t len = strcspn(s, "\n");
    assert_true(len < cap);
    memcpy(out, s, len);
    out[len] = '\0';
    return 0;
}

static size_t count_lines(const char *text)
{
    size_t n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* The stub binary: records its arguments, one NUL-terminated each, into
 * the file $STUB_ARGS. Installed at path (which may be hostile). */
static void install_stub(const char *path)
{
    spit(path, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\000' \"$a\"; done >\"$STUB_ARGS\"\n",
         0755);
}

/* Runs command through /bin/sh -c (env: STUB_ARGS=argsfile, and the extra
 * NAME=VALUE pairs in env, NULL-ended) and returns the arguments the stub
 * got, as one string with each followed by '|' (NUL in an argument would
 * not survive a process boundary, '|' is not used in any expected one). */
static char *run_sh(const char *command, const char *script, const char *const *env)
{
    char argsfile[PATH_MAX];
    in_work(argsfile, "stub-args");
    remove(argsfile);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv("STUB_ARGS", argsfile, 1);
        for (size_t i = 0; env && env[i]; i += 2)
            setenv(env[i], env[i + 1], 1);
        if (script)
            execl("/bin/sh", "sh", script, (char *)NULL);
        else
            execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("sh exited %d running: %s", WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                 script ? script : command);
    size_t len;
    char *args = test_read_file(argsfile, &len);
    if (!args)
        fail_msg("the stub did not run: %s", script ? script : command);
    for (size_t i = 0; i < len; i++)
        if (!args[i])
            args[i] = '|';
    return args;
}

/* ---- the directory ---- */

static void test_creates_a_missing_directory_with_its_layout(void **state)
{
    (void)state;
    char dir[PATH_MAX], path[PATH_MAX + 64], err[2048];
    in_work(dir, "new");
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, NULL, 0, err, sizeof err), 0);
    assert_int_equal(test_entries(dir), 5); /* points, results, logs, jobs.txt, plan.json */
    snprintf(path, sizeof path, "%s/points", dir);
    assert_int_equal(test_entries(path), 6);
    snprintf(path, sizeof path, "%s/results", dir);
    assert_int_equal(test_entries(path), 0);
    snprintf(path, sizeof path, "%s/logs", dir);
    assert_int_equal(test_entries(path), 0);
    snprintf(path, sizeof path, "%s/sweep.sbatch", dir);
    assert_false(test_exists(path)); /* only with slurm */
    for (int p = 0; p < 6; p++) {
        snprintf(path, sizeof path, "%s/points/%04d.ini", dir, p);
        assert_true(test_exists(path));
    }
    test_remove_tree(dir);
}

static void test_plan_json_is_the_manifest(void **state)
{
    (void)state;
    char dir[PATH_MAX], path[PATH_MAX + 64], err[2048];
    in_work(dir, "manifest");
    assert_int_equal(write_plan(small_text, dir, "/opt/regionsim", 0, NULL, 0, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/plan.json", dir);
    char *text = test_read_file(path, NULL);
    assert_non_null(text);
    json_object *doc = json_tokener_parse(text);
    assert_non_null(doc);
    json_object *pl, *o;
    assert_true(json_object_object_get_ex(doc, "plan", &pl));
    assert_true(json_object_object_get_ex(pl, "version", &o));
    assert_int_equal(json_object_get_int(o), SWEEP_PLAN_VERSION);
    assert_true(json_object_object_get_ex(pl, "file", &o));
    assert_string_equal(json_object_get_string(o), "/nowhere/sweep.ini");
    assert_true(json_object_object_get_ex(pl, "scenario", &o));
    assert_string_equal(json_object_get_string(o), "plan-test");
    assert_true(json_object_object_get_ex(pl, "binary", &o));
    assert_string_equal(json_object_get_string(o), "/opt/regionsim");
    assert_true(json_object_object_get_ex(pl, "variables", &o));
    assert_int_equal(json_object_array_length(o), 2);
    json_object *points;
    assert_true(json_object_object_get_ex(pl, "points", &points));
    assert_int_equal(json_object_array_length(points), 6);
    static const char *const b[] = { "1", "1", "2", "2", "4", "4" };
    static const char *const servers[] = { "4", "8", "4", "8", "4", "8" };
    for (size_t p = 0; p < 6; p++) {
        json_object *pt = json_object_array_get_idx(points, p), *values;
        assert_true(json_object_object_get_ex(pt, "index", &o));
        assert_int_equal(json_object_get_int(o), p);
        assert_true(json_object_object_get_ex(pt, "values", &values));
        assert_true(json_object_object_get_ex(values, "b", &o));
        assert_string_equal(json_object_get_string(o), b[p]);
        assert_true(json_object_object_get_ex(values, "servers", &o));
        assert_string_equal(json_object_get_string(o), servers[p]);
        char want[64];
        assert_true(json_object_object_get_ex(pt, "scenario", &o));
        snprintf(want, sizeof want, "points/%04zu.ini", p);
        assert_string_equal(json_object_get_string(o), want);
        assert_true(json_object_object_get_ex(pt, "result", &o));
        snprintf(want, sizeof want, "results/%04zu.json", p);
        assert_string_equal(json_object_get_string(o), want);
    }
    json_object_put(doc);
    free(text);
    test_remove_tree(dir);
}

static void test_an_empty_directory_is_taken(void **state)
{
    (void)state;
    char dir[PATH_MAX], err[2048];
    in_work(dir, "empty");
    assert_int_equal(mkdir(dir, 0777), 0);
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, NULL, 0, err, sizeof err), 0);
    assert_int_equal(test_entries(dir), 5);
    test_remove_tree(dir);
}

static void test_a_directory_with_something_in_it_is_refused_untouched(void **state)
{
    (void)state;
    char dir[PATH_MAX], path[PATH_MAX + 64], err[2048], want[PATH_MAX + 200];
    in_work(dir, "full");
    assert_int_equal(mkdir(dir, 0777), 0);
    snprintf(path, sizeof path, "%s/.hidden", dir); /* even a dot file */
    spit(path, "x", 0644);
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, NULL, 0, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: exists and is not empty (a plan goes into a new or empty "
             "directory; remove the old plan first)", dir);
    assert_string_equal(err, want);
    assert_int_equal(test_entries(dir), 1);
    test_remove_tree(dir);

    /* a file, and a link to an empty directory, are not directories to use */
    in_work(dir, "file");
    spit(dir, "x", 0644);
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, NULL, 0, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: exists and is not a directory (a plan goes into a new or "
             "empty directory)", dir);
    assert_string_equal(err, want);
    remove(dir);
    char target[PATH_MAX];
    in_work(target, "link-target");
    assert_int_equal(mkdir(target, 0777), 0);
    in_work(dir, "link");
    assert_int_equal(symlink(target, dir), 0);
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, NULL, 0, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: is a symbolic link (a plan goes into a new or empty "
             "directory of yours, named by its own path: a link's owner could point it "
             "elsewhere after you plan)", dir);
    assert_string_equal(err, want);
    assert_int_equal(test_entries(target), 0);
    remove(dir);
    test_remove_tree(target);
}

static void test_the_parent_must_exist(void **state)
{
    (void)state;
    char dir[PATH_MAX], parent[PATH_MAX], err[2048], want[PATH_MAX + 100];
    in_work(parent, "no-parent");
    in_work(dir, "no-parent/plan");
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, NULL, 0, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: cannot create the directory: No such file or directory", dir);
    assert_string_equal(err, want);
    assert_false(test_exists(parent));
}

/* Refusals that come before anything is written: nothing is created. A
 * [sweep] variable that sets a file's setting is applied as its option,
 * relative to where the job starts: a relative value is refused. */
static void test_refusals_write_nothing(void **state)
{
    (void)state;
    char dir[PATH_MAX], err[2048], want[PATH_MAX + 600];
    in_work(dir, "refused");
    assert_int_equal(write_plan("[sweep]\nservers = 4, 8\ntrace = /a.csv, b.csv\n"
                                "[scheme s]\nkey = salt(2) ts\n",
                                dir, "/bin/true", 0, NULL, 0, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: /nowhere/sweep.ini:3: [sweep] trace: 'b.csv' is a relative "
             "path, which a planned job would look for in the directory it starts in: name the "
             "files by absolute paths, or sweep a variable of another name (f = b.csv, ...) and "
             "write trace = $f in the file, where a relative path is the file's", dir);
    assert_string_equal(err, want);
    assert_false(test_exists(dir));
    assert_int_equal(write_plan("[sweep]\nservers = 4, 8\nsplit_keys_file = k.txt\n"
                                "[scheme s]\nkey = salt(2) ts\n",
                                dir, "/bin/true", 0, NULL, 0, err, sizeof err), -1);
    assert_contains(err, "/nowhere/sweep.ini:3: [sweep] split_keys_file: 'k.txt' is a relative");
    assert_false(test_exists(dir));
}

/* A directory whose name holds a line break would split jobs.txt's lines:
 * refused, and no directory left behind. */
static void test_a_line_break_in_the_directory_is_refused_leaving_nothing(void **state)
{
    (void)state;
    char dir[PATH_MAX], err[2048], want[PATH_MAX + 100];
    in_work(dir, "line\nbreak");
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, NULL, 0, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: a plan's directory name must not hold a line break", dir);
    assert_string_equal(err, want);
    assert_false(test_exists(dir));
}

/* ---- a directory that is yours alone ---- */

/* A directory others can write is refused, whoever made it, untouched:
 * they could change jobs.txt after the plan is written. */
static void test_a_directory_others_can_write_is_refused_untouched(void **state)
{
    (void)state;
    static const mode_t modes[] = { 0777, 0775, 0757, 01777 };
    static const char *const who[] = { "its group and everyone", "its group", "everyone",
                                       "its group and everyone" };
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        char dir[PATH_MAX], err[2048], want[PATH_MAX + 400];
        in_work(dir, "open");
        assert_int_equal(mkdir(dir, 0700), 0);
        assert_int_equal(chmod(dir, modes[i]), 0);
        assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, NULL, 0, err, sizeof err), -1);
        snprintf(want, sizeof want, "%s: is writable by %s (mode %04o): a plan's directory must be "
                 "writable by you alone, as ssh wants of its files, since whoever can write in it "
                 "could change the jobs you then run; chmod go-w it, or plan into a new directory",
                 dir, who[i], (unsigned)modes[i]);
        assert_string_equal(err, want);
        assert_int_equal(test_entries(dir), 0);
        struct stat st;
        assert_int_equal(stat(dir, &st), 0);
        assert_int_equal(st.st_mode & 07777, modes[i]); /* as it was */
        test_remove_tree(dir);
    }
}

/* As root: a directory of another user's (nobody's) is refused, and so is
 * one below a directory of theirs, which they could rename away. */
static void test_another_user_s_directory_is_refused(void **state)
{
    (void)state;
    char dir[PATH_MAX], err[2048];
    in_work(dir, "theirs");
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_int_equal(chown(dir, 65534, 65534), 0);
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, NULL, 0, err, sizeof err), -1);
    assert_starts(err, dir);
    assert_contains(err, ": belongs to ");
    assert_contains(err, "uid 65534), not to you (");
    assert_contains(err, "a plan's directory must be yours");
    assert_int_equal(test_entries(dir), 0);
    char below[PATH_MAX];
    in_work(below, "theirs/plan");
    assert_int_equal(write_plan(small_text, below, "/bin/true", 0, NULL, 0, err, sizeof err), -1);
    assert_starts(err, below);
    char want[PATH_MAX + 100];
    snprintf(want, sizeof want, ": the directory %s above it belongs to ", dir);
    assert_contains(err, want);
    assert_contains(err, "not to you or root");
    assert_false(test_exists(below)); /* made, then removed again */
    test_remove_tree(dir);
}

/* A directory above DIR that others can write (not sticky) is refused:
 * they could rename DIR away and put a plan of their own at its path. A
 * sticky one (/tmp) is fine: there only an entry's owner renames it. */
static void test_a_parent_others_can_write_is_refused(void **state)
{
    (void)state;
    char parent[PATH_MAX], dir[PATH_MAX], err[2048], want[PATH_MAX * 2 + 400];
    in_work(parent, "shared");
    assert_int_equal(mkdir(parent, 0700), 0);
    assert_int_equal(chmod(parent, 0777), 0);
    in_work(dir, "shared/plan");
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, NULL, 0, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: the directory %s above it is writable by its group and "
             "everyone (mode 0777, not sticky): they could put a plan of their own in this one's "
             "place after you plan; plan into a directory whose every parent only you or root can "
             "change (as ssh wants of the path to its files)", dir, parent);
    assert_string_equal(err, want);
    assert_false(test_exists(dir));
    assert_int_equal(mkdir(dir, 0755), 0); /* an existing one: the same, and left as it was */
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, NULL, 0, err, sizeof err), -1);
    assert_string_equal(err, want);
    assert_int_equal(test_entries(dir), 0);
    rmdir(dir);
    /* further up, and named through a link: the directory above it as it is */
    char deep[PATH_MAX], link[PATH_MAX];
    in_work(deep, "shared/a");
    assert_int_equal(mkdir(deep, 0755), 0);
    in_work(link, "to-a");
    assert_int_equal(symlink(deep, link), 0);
    in_work(dir, "to-a/plan");
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, NULL, 0, err, sizeof err), -1);
    snprintf(want, sizeof want, ": the directory %s above it is writable", parent);
    assert_contains(err, want);
    assert_int_equal(test_entries(deep), 0);
    unlink(link);
    /* sticky: taken */
    assert_int_equal(chmod(parent, 01777), 0);
    in_work(dir, "shared/plan");
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, NULL, 0, err, sizeof err), 0);
    test_remove_tree(parent);
}

/* Everything the plan makes is writable by its owner alone, whatever the
 * umask: nothing can be planted in results/ (a link a job's --result would
 * follow) or swapped in points/. */
static void test_the_plan_is_writable_by_you_alone(void **state)
{
    (void)state;
    char dir[PATH_MAX], path[PATH_MAX + 64], err[2048];
    in_work(dir, "umask0");
    mode_t old = umask(0);
    int rc = write_plan(small_text, dir, NULL, 1, NULL, 0, err, sizeof err);
    umask(old);
    if (rc < 0)
        fail_msg("%s", err);
    static const char *const names[] = { "", "/points", "/results", "/logs", "/bin",
                                         "/bin/regionsim", "/jobs.txt", "/plan.json",
                                         "/sweep.sbatch", "/points/0000.ini" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s%s", dir, names[i]);
        struct stat st;
        assert_int_equal(lstat(path, &st), 0);
        if (st.st_mode & 022)
            fail_msg("%s: mode %04o", path, (unsigned)(st.st_mode & 07777));
        assert_int_equal(st.st_uid, geteuid());
    }
    test_remove_tree(dir);
}

/* ---- complete or absent ---- */

/* sweep_plan_write with every file limited to limit bytes (RLIMIT_FSIZE,
 * SIGXFSZ ignored: a write past it fails with EFBIG, as on a full disk). */
static int write_plan_limited(rlim_t limit, const char *dir, const char *binary, char *err,
                              size_t errcap)
{
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = limit;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    int rc = write_plan(small_text, dir, binary, 1, NULL, 0, err, errcap);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
    return rc;
}

static size_t file_size(const char *dir, const char *name)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return (size_t)st.st_size;
}

/* A full disk at any file: no jobs.txt, plan.json or sweep.sbatch (none cut
 * short), nothing else of the plan either, and a message that says the
 * plan is incomplete and why. */
static void test_a_full_disk_leaves_no_plan(void **state)
{
    (void)state;
    char ref[PATH_MAX], dir[PATH_MAX], err[2048], want[PATH_MAX + 200];
    in_work(ref, "whole");
    assert_int_equal(write_plan(small_text, ref, "/bin/true", 1, NULL, 0, err, sizeof err), 0);
    size_t point = 0;
    for (int p = 0; p < 6; p++) {
        char name[32];
        snprintf(name, sizeof name, "points/%04d.ini", p);
        size_t n = file_size(ref, name);
        point = n > point ? n : point;
    }
    size_t jobs = file_size(ref, "jobs.txt"), plan = file_size(ref, "plan.json"),
           sb = file_size(ref, "sweep.sbatch");
    test_remove_tree(ref);
    assert_true(jobs > point && plan > point && sb > point);
    /* the first point; the first file past the points; each of the three cut */
    const rlim_t limits[] = { 16, point, jobs - 1, plan - 1, sb - 1, jobs / 2 };
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++)
        for (int existing = 0; existing < 2; existing++) {
            in_work(dir, "full disk");
            if (existing)
                assert_int_equal(mkdir(dir, 0755), 0);
            assert_int_equal(write_plan_limited(limits[i], dir, "/bin/true", err, sizeof err), -1);
            snprintf(want, sizeof want, "%s: the plan is incomplete: ", dir);
            assert_starts(err, want);
            assert_contains(err, ": write failed: File too large; nothing of it was kept (");
            if (existing) {
                assert_contains(err, "(the directory is empty again)");
                assert_int_equal(test_entries(dir), 0);
                rmdir(dir);
            } else {
                assert_contains(err, "(the directory, which this run made, is removed)");
                assert_false(test_exists(dir));
            }
        }
    /* copying the binary */
    in_work(dir, "full disk");
    assert_int_equal(write_plan_limited(4096, dir, NULL, err, sizeof err), -1);
    assert_contains(err, "the plan is incomplete: bin/regionsim: write failed: File too large");
    assert_false(test_exists(dir));
}

/* An interrupt while the plan is written (SIGTERM pending when the first
 * point is polled) removes what was written and hands the signal back. */
static void test_an_interrupt_leaves_no_plan(void **state)
{
    (void)state;
    char dir[PATH_MAX], err[2048], want[PATH_MAX + 200];
    in_work(dir, "interrupted");
    sigset_t term, old;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    assert_int_equal(sigprocmask(SIG_BLOCK, &term, &old), 0);
    interrupts ints;
    interrupts_init(&ints);
    assert_int_equal(raise(SIGTERM), 0); /* pending: blocked */
    sweep sw;
    load(&sw, "/nowhere/sweep.ini", small_text);
    sweep_plan_options po = { dir, "plan-test", "/bin/true", 1, NULL, 0 };
    int rc = sweep_plan_write_held(&sw, &po, &ints, err, sizeof err);
    sweep_release(&sw);
    signal(SIGTERM, SIG_IGN); /* the pending one is dropped */
    interrupts_release(&ints);
    assert_int_equal(sigprocmask(SIG_SETMASK, &old, NULL), 0);
    signal(SIGTERM, SIG_DFL);
    assert_int_equal(rc, SIGTERM);
    snprintf(want, sizeof want, "%s: the plan is incomplete: interrupted; nothing of it was kept "
             "(the directory, which this run made, is removed)", dir);
    assert_string_equal(err, want);
    assert_false(test_exists(dir));
}

/* ---- every path absolute, the binary the one that planned ---- */

/* The binary: this program, copied into DIR/bin (what /proc/self/exe
 * reads, even once the file was replaced or deleted), named by jobs.txt
 * and plan.json. */
static void test_the_binary_is_a_copy_of_this_program(void **state)
{
    (void)state;
    char dir[PATH_MAX], path[PATH_MAX + 64], err[2048], want[PATH_MAX * 2 + 64];
    in_work(dir, "copied");
    if (write_plan(small_text, dir, NULL, 0, NULL, 0, err, sizeof err) < 0)
        fail_msg("%s", err);
    snprintf(path, sizeof path, "%s/bin/regionsim", dir);
    size_t len, self_len;
    char *copy = test_read_file(path, &len), *self = test_read_file("/proc/self/exe", &self_len);
    assert_non_null(copy);
    assert_non_null(self);
    assert_int_equal(len, self_len);
    assert_memory_equal(copy, self, len);
    free(copy);
    free(self);
    assert_int_equal(access(path, X_OK), 0);
    snprintf(path, sizeof path, "%s/jobs.txt", dir);
    char *jobs = test_read_file(path, NULL);
    snprintf(want, sizeof want, "'%s/bin/regionsim' sweep '%s/points/0000.ini' --result", dir, dir);
    assert_starts(jobs, want);
    free(jobs);
    snprintf(path, sizeof path, "%s/plan.json", dir);
    char *plan = test_read_file(path, NULL);
    snprintf(want, sizeof want, "\"binary\": \"%s/bin/regionsim\"", dir);
    assert_contains(plan, want);
    free(plan);
    test_remove_tree(dir);
}

/* Relative paths: DIR, --binary and a file an option names, against the
 * working directory; a trace or split keys file the scenario names,
 * against the scenario's directory (even through a variable, and with
 * '$' and blanks in that directory's name). The jobs then run from any
 * directory: the point's file read from / names the very files. */
static void test_relative_paths_become_absolute(void **state)
{
    (void)state;
    char cwd[PATH_MAX], path[PATH_MAX + 64], err[2048], want[PATH_MAX * 4 + 256];
    in_work(cwd, "cwd");
    assert_int_equal(mkdir(cwd, 0755), 0);
    char old[PATH_MAX];
    assert_non_null(getcwd(old, sizeof old));
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(mkdir("sc n$x", 0755), 0);
    assert_int_equal(mkdir("sc n$x/data", 0755), 0);
    spit("sc n$x/data/a.csv", "0,put,a1,100\n1000,put,b2,100\n", 0644);
    spit("sc n$x/data/b.csv", "0,put,c1,100\n", 0644);
    spit("keys.txt", "b\n", 0644);
    static const char text[] = "[sweep]\nt = a, b\nservers = 2, 4\n"
                               "[workload]\ntrace = data/$t.csv ; the trace\n"
                               "[scheme k]\nkey = key\n";
    sweep sw;
    char *scn_text = strdup(text);
    assert_non_null(scn_text);
    assert_int_equal(sweep_load_text(&sw, "sc n$x/sweep.ini", scn_text, strlen(scn_text), err,
                                     sizeof err), 0);
    free(scn_text);
    const char *const args[] = { "split_keys_file", "keys.txt", "ycsb", "a" };
    sweep_plan_options po = { "plan", "rel", "bin/regionsim", 0, args, 4 };
    int rc = sweep_plan_write(&sw, &po, err, sizeof err);
    if (rc < 0)
        fail_msg("%s", err);
    char *jobs = test_read_file("plan/jobs.txt", NULL);
    assert_non_null(jobs);
    snprintf(want, sizeof want, "'%s/bin/regionsim' sweep '%s/plan/points/0000.ini' "
             "--'split_keys_file' '%s/keys.txt' --'ycsb' 'a' --result '%s/plan/results/0000.json'\n",
             cwd, cwd, cwd, cwd);
    assert_starts(jobs, want);
    free(jobs);
    /* from elsewhere, each point's file as its job reads it */
    assert_int_equal(chdir("/"), 0);
    for (size_t p = 0; p < sw.npoints; p++) {
        snprintf(path, sizeof path, "%s/plan/points/%04zu.ini", cwd, p);
        sweep one;
        if (sweep_load(&one, path, err, sizeof err) < 0)
            fail_msg("%s", err);
        char keys[PATH_MAX + 16];
        snprintf(keys, sizeof keys, "%s/keys.txt", cwd);
        const char *k[] = { "split_keys_file" }, *v[] = { keys };
        scenario sc;
        if (sweep_point_scenario(&one, 0, k, v, 1, &sc, err, sizeof err) < 0)
            fail_msg("%s", err);
        snprintf(want, sizeof want, "%s/sc n$x/data/%s.csv", cwd, sweep_value(&sw, p, 0));
        assert_string_equal(sc.workload.pattern.trace_path, want);
        assert_int_equal(access(sc.workload.pattern.trace_path, R_OK), 0);
        assert_string_equal(sc.split_keys_file, keys);
        scenario_release(&sc);
        sweep_release(&one);
    }
    assert_int_equal(chdir(cwd), 0);
    test_remove_tree("plan");
    /* a directory whose name would end the value as an inline comment: the
     * point's file would name another file, which reading it back finds */
    assert_int_equal(rename("sc n$x", "sc ;n"), 0);
    sweep_release(&sw);
    static const char plain[] = "[sweep]\nservers = 2, 4\n[workload]\ntrace = data/a.csv\n"
                                "[scheme k]\nkey = key\n";
    assert_int_equal(sweep_load_text(&sw, "sc ;n/sweep.ini", plain, strlen(plain), err,
                                     sizeof err), 0);
    po.nargs = 0;
    assert_int_equal(sweep_plan_write(&sw, &po, err, sizeof err), -1);
    snprintf(want, sizeof want, "plan: sc ;n/sweep.ini: at servers=2: trace: a planned job would "
             "read '%s/sc', not '%s/sc ;n/data/a.csv' (name the file by an absolute path)",
             cwd, cwd);
    assert_string_equal(err, want);
    assert_false(test_exists("plan"));
    sweep_release(&sw);
    /* with a variable in the value, the comment takes its use away */
    scn_text = strdup(text);
    assert_int_equal(sweep_load_text(&sw, "sc ;n/sweep.ini", scn_text, strlen(scn_text), err,
                                     sizeof err), 0);
    free(scn_text);
    assert_int_equal(sweep_plan_write(&sw, &po, err, sizeof err), -1);
    assert_contains(err, "plan: at t=a servers=2: point 0's file does not read back as the point: ");
    assert_false(test_exists("plan"));
    sweep_release(&sw);
    assert_int_equal(chdir(old), 0);
    test_remove_tree(cwd);
}

/* ---- the point files ---- */

static void test_each_point_file_reads_back_as_its_point(void **state)
{
    (void)state;
    char dir[PATH_MAX], path[PATH_MAX + 64], err[2048];
    in_work(dir, "points");
    sweep whole;
    load(&whole, "/nowhere/sweep.ini", small_text);
    sweep_plan_options po = { dir, "plan-test", "/bin/true", 0, NULL, 0 };
    assert_int_equal(sweep_plan_write(&whole, &po, err, sizeof err), 0);
    for (size_t p = 0; p < whole.npoints; p++) {
        snprintf(path, sizeof path, "%s/points/%04zu.ini", dir, p);
        size_t len;
        char *text = test_read_file(path, &len);
        assert_non_null(text);
        /* the sweep's text first, line for line (the [sweep] lines blanked) */
        assert_true(len > whole.len);
        assert_memory_equal(text, whole.text, whole.len);
        /* then the point's values, and no other [sweep] */
        char tail[256];
        snprintf(tail, sizeof tail,
                 "\n[sweep]  ; regionsim sweep --plan: this point's values\nb = %s\nservers = %s\n",
                 sweep_value(&whole, p, 0), sweep_value(&whole, p, 1));
        assert_string_equal(text + whole.len, tail);
        assert_ptr_equal(strstr(text, "[sweep]"), text + whole.len + 1);

        /* read as a sweep: one point, the point's values, the same scenario */
        sweep one;
        if (sweep_load(&one, path, err, sizeof err) < 0)
            fail_msg("%s", err);
        assert_int_equal(one.npoints, 1);
        assert_int_equal(one.nvars, 2);
        assert_string_equal(sweep_value(&one, 0, 0), sweep_value(&whole, p, 0));
        assert_string_equal(sweep_value(&one, 0, 1), sweep_value(&whole, p, 1));
        char *a, *b;
        size_t alen, blen;
        assert_int_equal(sweep_substitute(&one, 0, &a, &alen, err, sizeof err), 0);
        assert_int_equal(sweep_substitute(&whole, p, &b, &blen, err, sizeof err), 0);
        assert_null(strchr(a, '$')); /* every variable filled in */
        /* the substituted text: the whole sweep's at p, then the [sweep] lines */
        assert_memory_equal(a, b, blen);
        scenario sa, sb;
        int ra = sweep_point_scenario(&one, 0, NULL, NULL, 0, &sa, err, sizeof err);
        if (ra < 0)
            fail_msg("point %zu: %s", p, err);
        assert_int_equal(sweep_point_scenario(&whole, p, NULL, NULL, 0, &sb, err, sizeof err), 0);
        assert_int_equal(sa.servers, sb.servers);
        assert_int_equal(sa.seed, sb.seed);
        assert_int_equal(sa.nschemes, 1);
        assert_string_equal(sa.schemes[0].text, sb.schemes[0].text);
        assert_string_equal(sa.name, "plan-test");
        char want[64];
        snprintf(want, sizeof want, "osalt(%s) uid(metric, 3) hour(ts) tags",
                 sweep_value(&whole, p, 0));
        assert_string_equal(sa.schemes[0].text, want);
        assert_int_equal(sa.servers, (unsigned)atoi(sweep_value(&whole, p, 1)));
        scenario_release(&sa);
        scenario_release(&sb);
        free(a);
        free(b);
        sweep_release(&one);
        free(text);
    }
    sweep_release(&whole);
    test_remove_tree(dir);
}

/* ---- jobs.txt ---- */

/* The arguments point p's job must pass, '|' after each. */
static void expected_args(char *out, size_t cap, const char *dir, size_t p,
                          const char *const *args, size_t nargs)
{
    size_t at = (size_t)snprintf(out, cap, "sweep|%s/points/%04zu.ini|", dir, p);
    for (size_t i = 0; i + 1 < nargs; i += 2)
        at += (size_t)snprintf(out + at, cap - at, "--%s|%s|", args[i], args[i + 1]);
    snprintf(out + at, cap - at, "--result|%s/results/%04zu.json|", dir, p);
}

static void test_jobs_run_through_sh_with_hostile_paths_and_values(void **state)
{
    (void)state;
    /* every character sh treats specially, in the directory, the binary's
     * path and the options' values */
    static const char hostile[] = "a b'c\"d$HOME`true`e\\f;g&h|i*j?k~l#m!n(o)p{q}r<s>t%u\tv";
    char dir[PATH_MAX], bindir[PATH_MAX], binary[PATH_MAX + 64], err[2048];
    char name[sizeof hostile + 16];
    snprintf(name, sizeof name, "plan %s", hostile);
    in_work(dir, name);
    snprintf(name, sizeof name, "bin %s", hostile);
    in_work(bindir, name);
    assert_int_equal(mkdir(bindir, 0777), 0);
    snprintf(binary, sizeof binary, "%s/regionsim", bindir);
    install_stub(binary);
    /* (an empty value as an assertion's: the plan builds every point with
     * the settings, as its job will, so a setting must be valid) */
    const char *const args[] = { "read_fraction", "0.08", "assert", hostile,
                                 "assert", "write_max_mean <= 2.5 for 'tsdb'", "assert", "" };
    assert_int_equal(write_plan(small_text, dir, binary, 0, args, 8, err, sizeof err), 0);
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/jobs.txt", dir);
    char *jobs = test_read_file(path, NULL);
    assert_non_null(jobs);
    assert_int_equal(count_lines(jobs), 6);
    for (size_t p = 0; p < 6; p++) {
        char line[8192], want[8192];
        assert_int_equal(line_of(jobs, p, line, sizeof line), 0);
        char *got = run_sh(line, NULL, NULL);
        expected_args(want, sizeof want, dir, p, args, 8);
        assert_string_equal(got, want);
        free(got);
    }
    free(jobs);
    test_remove_tree(dir);
    test_remove_tree(bindir);
}

/* jobs.txt is one job a line: a line break in the binary's path or an
 * option's value would cut a job in two, so it is refused, writing
 * nothing. */
static void test_a_line_break_in_a_job_is_refused(void **state)
{
    (void)state;
    char dir[PATH_MAX], err[2048];
    in_work(dir, "broken");
    assert_int_equal(write_plan(small_text, dir, "/opt/region\nsim", 0, NULL, 0, err, sizeof err), -1);
    assert_contains(err, dir);
    assert_contains(err, "line break");
    assert_false(test_exists(dir));
    const char *const args[] = { "assert", "write_max_mean <= 2\nfor tsdb" };
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, args, 2, err, sizeof err), -1);
    assert_contains(err, dir);
    assert_contains(err, "--assert");
    assert_contains(err, "line break");
    assert_false(test_exists(dir));
}

/* ---- sweep.sbatch ---- */

/* The arguments of a "#SBATCH" line as sbatch reads them (Slurm's
 * src/sbatch/opt.c, _get_argument: a backslash keeps the next character,
 * quotes ' or " group, an unescaped # ends the line), '|' after each. */
static void sbatch_args(const char *line, char *out, size_t cap)
{
    assert_starts(line, "#SBATCH");
    const char *s = line + 7;
    size_t at = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#')
            break;
        char quote = 0;
        while (*s && (quote || (*s != ' ' && *s != '\t'))) {
            if (*s == '\\' && s[1]) {
                s++;
            } else if (quote && *s == quote) {
                quote = 0;
                s++;
                continue;
            } else if (!quote && (*s == '"' || *s == '\'')) {
                quote = *s++;
                continue;
            } else if (!quote && *s == '#') {
                break;
            }
            assert_true(at + 2 < cap);
            out[at++] = *s++;
        }
        assert_int_equal(quote, 0);
        out[at++] = '|';
        if (*s == '#')
            break;
    }
    out[at] = '\0';
}

/* The line of text starting with prefix, into out. */
static int find_line(const char *text, const char *prefix, char *out, size_t cap)
{
    for (size_t n = 0; line_of(text, n, out, cap) == 0; n++)
        if (!strncmp(out, prefix, strlen(prefix)))
            return 0;
    return -1;
}

static void test_sbatch_runs_a_task_s_line(void **state)
{
    (void)state;
    char dir[PATH_MAX], binary[PATH_MAX], path[PATH_MAX + 64], err[2048];
    /* a space, a quote, a '#' and a '%' in the directory: all must reach
     * the job's lines and the logs' path as they are */
    in_work(dir, "slurm plan #1 it's 100%");
    in_work(binary, "stub-regionsim");
    install_stub(binary);
    const char *const args[] = { "assert", "write_max_mean <= 2.5 for tsdb" };
    assert_int_equal(write_plan(small_text, dir, binary, 1, args, 2, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/sweep.sbatch", dir);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(st.st_mode & S_IXUSR);
    char *sb = test_read_file(path, NULL);
    assert_non_null(sb);
    assert_starts(sb, "#!/bin/sh\n");
    char line[8192], parsed[8192], want[3 * PATH_MAX];
    assert_int_equal(find_line(sb, "#SBATCH --array", line, sizeof line), 0);
    sbatch_args(line, parsed, sizeof parsed);
    assert_string_equal(parsed, "--array=0-5|");
    assert_int_equal(find_line(sb, "#SBATCH --output", line, sizeof line), 0);
    sbatch_args(line, parsed, sizeof parsed);
    /* Slurm's file name patterns: %a is the task, %% a '%' */
    char pattern[PATH_MAX * 2];
    size_t at = 0;
    for (const char *c = dir; *c; c++) {
        if (*c == '%')
            pattern[at++] = '%';
        pattern[at++] = *c;
    }
    pattern[at] = '\0';
    /* %A: the array's job id, so each submission's logs are its own */
    snprintf(want, sizeof want, "--output=%s/logs/%%A_%%a.out|", pattern);
    assert_string_equal(parsed, want);
    assert_contains(sb, "SLURM_ARRAY_TASK_ID");
    assert_null(strstr(sb, "PLAN_OFFSET=")); /* no second array for 6 points */
    /* the script as Slurm runs task 3: point 3's line of jobs.txt */
    for (size_t task = 0; task < 6; task += 3) {
        char id[8];
        snprintf(id, sizeof id, "%zu", task);
        const char *const env[] = { "SLURM_ARRAY_TASK_ID", id, NULL };
        char *got = run_sh(NULL, path, env);
        char expect[8192];
        expected_args(expect, sizeof expect, dir, task, args, 2);
        assert_string_equal(got, expect);
        free(got);
    }
    free(sb);
    test_remove_tree(dir);
    remove(binary);
}

/* A backslash in a log's path turns Slurm's %a off: refused with --slurm. */
static void test_sbatch_refuses_a_backslash(void **state)
{
    (void)state;
    char dir[PATH_MAX], err[2048], want[PATH_MAX + 200];
    in_work(dir, "back\\slash");
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 1, NULL, 0, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: --slurm: a plan's directory name must not hold a backslash "
             "(Slurm reads no %%a in a log's path that has one)", dir);
    assert_string_equal(err, want);
    assert_false(test_exists(dir));
    assert_int_equal(write_plan(small_text, dir, "/bin/true", 0, NULL, 0, err, sizeof err), 0);
    test_remove_tree(dir);
}

/* More points than one array (SWEEP_PLAN_SLURM_MAX_ARRAY): the first
 * array, and the commands for the rest with PLAN_OFFSET, which the script
 * adds to the task's index. */
static void test_sbatch_splits_past_the_array_limit(void **state)
{
    (void)state;
    char dir[PATH_MAX], binary[PATH_MAX], path[PATH_MAX + 64], err[2048];
    in_work(binary, "stub-regionsim");
    install_stub(binary);
    char text[256];
    static const size_t counts[] = { SWEEP_PLAN_SLURM_MAX_ARRAY, SWEEP_PLAN_SLURM_MAX_ARRAY + 1 };
    for (size_t c = 0; c < 2; c++) {
        size_t n = counts[c];
        snprintf(text, sizeof text, "[sweep]\nseed = 1..%zu\n[scheme s]\nkey = salt(2) ts\n", n);
        in_work(dir, "big plan's");
        assert_int_equal(write_plan(text, dir, binary, 1, NULL, 0, err, sizeof err), 0);
        snprintf(path, sizeof path, "%s/sweep.sbatch", dir);
        char *sb = test_read_file(path, NULL);
        assert_non_null(sb);
        char line[8192], parsed[8192], want[PATH_MAX + 200];
        assert_int_equal(find_line(sb, "#SBATCH --array", line, sizeof line), 0);
        sbatch_args(line, parsed, sizeof parsed);
        snprintf(want, sizeof want, "--array=0-%d|", SWEEP_PLAN_SLURM_MAX_ARRAY - 1);
        assert_string_equal(parsed, want);
        if (n == SWEEP_PLAN_SLURM_MAX_ARRAY) {
            assert_null(strstr(sb, "PLAN_OFFSET="));
        } else {
            /* the rest: 1000-1000, and nothing more */
            snprintf(want, sizeof want, "#   sbatch --export=ALL,PLAN_OFFSET=%d --array=0-0 ",
                     SWEEP_PLAN_SLURM_MAX_ARRAY);
            assert_contains(sb, want);
            size_t rest = 0;
            for (const char *c = sb; (c = strstr(c, "#   sbatch ")); c++)
                rest++;
            assert_int_equal(rest, 1);
            /* the command as a user pastes it into sh (the stub as sbatch) */
            char cmd[3 * PATH_MAX];
            assert_int_equal(find_line(sb, want, line, sizeof line), 0);
            snprintf(cmd, sizeof cmd, "'%s' %s", binary, line + strlen("#   sbatch "));
            char *pasted = run_sh(cmd, NULL, NULL);
            snprintf(want, sizeof want, "--export=ALL,PLAN_OFFSET=%d|--array=0-0|%s/sweep.sbatch|",
                     SWEEP_PLAN_SLURM_MAX_ARRAY, dir);
            assert_string_equal(pasted, want);
            free(pasted);
            /* the last point, as the last array's only task runs it */
            char offset[16];
            snprintf(offset, sizeof offset, "%d", SWEEP_PLAN_SLURM_MAX_ARRAY);
            const char *const env[] = { "SLURM_ARRAY_TASK_ID", "0", "PLAN_OFFSET", offset, NULL };
            char *got = run_sh(NULL, path, env);
            expected_args(want, sizeof want, dir, n - 1, NULL, 0);
            assert_string_equal(got, want);
            free(got);
        }
        snprintf(path, sizeof path, "%s/jobs.txt", dir);
        char *jobs = test_read_file(path, NULL);
        assert_int_equal(count_lines(jobs), n);
        free(jobs);
        free(sb);
        test_remove_tree(dir);
    }
    remove(binary);
}

/* Two meson tests: `sweep_plan`, and `sweep_plan_root` (--as-root) for
 * the directory another user owns, which only root can make: without root
 * it exits 77, skipped, or fails under CI (tests/support.h). */
int main(int argc, char **argv)
{
    int as_root = test_has_arg(argc, argv, "--as-root");
    if (as_root && geteuid() != 0)
        return test_cannot_run("sweep_plan_root", "needs root (a directory of another user's)",
                               test_in_ci());
    test_plain_env();
    unsetenv("PLAN_OFFSET");
    unsetenv("SLURM_ARRAY_TASK_ID");
    umask(022); /* what the directories the tests make get */
    if (test_make_work_dir(work, "sweep-plan") < 0) /* by its real path, as the plan names it */
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_creates_a_missing_directory_with_its_layout),
        cmocka_unit_test(test_plan_json_is_the_manifest),
        cmocka_unit_test(test_an_empty_directory_is_taken),
        cmocka_unit_test(test_a_directory_with_something_in_it_is_refused_untouched),
        cmocka_unit_test(test_the_parent_must_exist),
        cmocka_unit_test(test_refusals_write_nothing),
        cmocka_unit_test(test_a_directory_others_can_write_is_refused_untouched),
        cmocka_unit_test(test_a_parent_others_can_write_is_refused),
        cmocka_unit_test(test_the_plan_is_writable_by_you_alone),
        cmocka_unit_test(test_a_full_disk_leaves_no_plan),
        cmocka_unit_test(test_an_interrupt_leaves_no_plan),
        cmocka_unit_test(test_the_binary_is_a_copy_of_this_program),
        cmocka_unit_test(test_relative_paths_become_absolute),
        cmocka_unit_test(test_a_line_break_in_the_directory_is_refused_leaving_nothing),
        cmocka_unit_test(test_each_point_file_reads_back_as_its_point),
        cmocka_unit_test(test_jobs_run_through_sh_with_hostile_paths_and_values),
        cmocka_unit_test(test_a_line_break_in_a_job_is_refused),
        cmocka_unit_test(test_sbatch_runs_a_task_s_line),
        cmocka_unit_test(test_sbatch_refuses_a_backslash),
        cmocka_unit_test(test_sbatch_splits_past_the_array_limit),
    };
    const struct CMUnitTest root_tests[] = {
        cmocka_unit_test(test_another_user_s_directory_is_refused),
    };
    int failed = as_root ? cmocka_run_group_tests(root_tests, NULL, NULL)
                         : cmocka_run_group_tests(tests, NULL, NULL);
    test_remove_tree(work);
    return failed;
}
