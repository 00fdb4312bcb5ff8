/* test_output.c -- sim/output.c: what -o and --write-trace do to the path
 * they are given.
 *
 * A new name and a regular file are replaced through a temporary (and an
 * abandoned or failed output leaves the old file and no temporary); a
 * symlink is written through and stays a link; a device node (mknod, when
 * running as root; skipped otherwise) and a FIFO (drained by a child) are
 * written in place and stay what they were; a full device reports ENOSPC
 * with the path; a file size limit (RLIMIT_FSIZE, in a child) reports
 * EFBIG and removes the temporary; a directory is refused; a file named
 * like a temporary is never touched; held signals are unblocked while a
 * FIFO's open waits for its reader. Every test works in its own mkdtemp
 * directory, removed by teardown.
 */
#define _XOPEN_SOURCE 700 /* mknod */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/support.h"

#include "sim/output.h"

typedef struct path {
    char s[512];
} path;

typedef struct fixture {
    char dir[64];
} fixture;

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    if (!fx)
        return -1;
    strcpy(fx->dir, "/tmp/test_output.XXXXXX");
    if (!mkdtemp(fx->dir)) {
        free(fx);
        return -1;
    }
    *state = fx;
    return 0;
}


static int teardown(void **state)
{
    fixture *fx = *state;
    test_remove_tree(fx->dir);
    free(fx);
    return 0;
}

static path in_dir(void **state, const char *name)
{
    fixture *fx = *state;
    path p;
    snprintf(p.s, sizeof p.s, "%s/%s", fx->dir, name);
    return p;
}

static void put_file(const char *p, const char *text)
{
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

static char *slurp(const char *p)
{
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    size_t cap = 4096, n = 0, got;
    char *s = malloc(cap + 1);
    assert_non_null(s);
    while ((got = fread(s + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            s = realloc(s, 2 * cap + 1);
            assert_non_null(s);
            cap *= 2;
        }
    }
    fclose(f);
    s[n] = '\0';
    return s;
}

static void assert_contents(const char *p, const char *want)
{
    char *text = slurp(p);
    assert_string_equal(text, want);
    free(text);
}

/* Entries of dir other than . and .. */
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

static output_file *open_ok(const char *p)
{
    char err[1024] = "";
    output_file *o = output_open(p, NULL, err, sizeof err);
    if (!o)
        fail_msg("output_open %s: %s", p, err);
    return o;
}

static void write_text(output_file *o, const char *text)
{
    assert_int_equal(output_write(o, text, strlen(text)), 0);
}

static void commit_ok(output_file *o)
{
    char err[1024] = "";
    if (output_commit(o, err, sizeof err) != 0)
        fail_msg("output_commit: %s", err);
}

/* A private device node (major, minor) at p; 0, or -1 when not allowed
 * (not root, no CAP_MKNOD, a nodev mount), when the test should skip. */
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

static void test_new_name_appears_only_on_commit(void **state)
{
    fixture *fx = *state;
    path p = in_dir(state, "report.txt");
    output_file *o = open_ok(p.s);
    assert_true(output_has_temporary(o));
    write_text(o, "hello\n");
    assert_int_equal(access(p.s, F_OK), -1); /* not there until committed */
    assert_int_equal(entries(fx->dir), 1);    /* the temporary */
    commit_ok(o);
    assert_contents(p.s, "hello\n");
    assert_int_equal(entries(fx->dir), 1);
}

static void test_regular_file_replaced_or_kept(void **state)
{
    fixture *fx = *state;
    path p = in_dir(state, "report.txt");
    put_file(p.s, "old\n");
    assert_int_equal(chmod(p.s, 0640), 0);
    output_file *o = open_ok(p.s);
    write_text(o, "new but abandoned\n");
    output_abandon(o);
    assert_contents(p.s, "old\n");
    assert_int_equal(entries(fx->dir), 1);

    o = open_ok(p.s);
    write_text(o, "new\n");
    assert_contents(p.s, "old\n"); /* readers see the old file meanwhile */
    commit_ok(o);
    assert_contents(p.s, "new\n");
    struct stat st;
    assert_int_equal(stat(p.s, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640); /* the old file's mode */
    assert_int_equal(entries(fx->dir), 1);
    output_abandon(NULL);
}

static void test_symlink_written_through(void **state)
{
    fixture *fx = *state;
    /* dir/sub/target.txt, and dir/link -> sub/target.txt, dir/sub/up -> ../link */
    path sub = in_dir(state, "sub"), target = in_dir(state, "sub/target.txt");
    path link = in_dir(state, "link"), chain = in_dir(state, "sub/up");
    assert_int_equal(mkdir(sub.s, 0700), 0);
    put_file(target.s, "old\n");
    assert_int_equal(symlink("sub/target.txt", link.s), 0);
    assert_int_equal(symlink("../link", chain.s), 0);
    output_file *o = open_ok(chain.s);
    assert_true(output_has_temporary(o));
    write_text(o, "through two links\n");
    commit_ok(o);
    assert_contents(target.s, "through two links\n");
    struct stat st;
    assert_int_equal(lstat(link.s, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(lstat(chain.s, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(entries(fx->dir), 2); /* sub, link */
    assert_int_equal(entries(sub.s), 2);   /* target.txt, up */

    /* A dangling link: the file it names is created; the link stays. */
    path dangling = in_dir(state, "dangling"), named = in_dir(state, "sub/new.txt");
    assert_int_equal(symlink("sub/new.txt", dangling.s), 0);
    o = open_ok(dangling.s);
    write_text(o, "created\n");
    commit_ok(o);
    assert_contents(named.s, "created\n");
    assert_int_equal(lstat(dangling.s, &st), 0);
    assert_true(S_ISLNK(st.st_mode));

    /* A loop of links is refused by name. */
    path a = in_dir(state, "loop-a"), b = in_dir(state, "loop-b");
    assert_int_equal(symlink("loop-b", a.s), 0);
    assert_int_equal(symlink("loop-a", b.s), 0);
    char err[1024] = "";
    assert_null(output_open(a.s, NULL, err, sizeof err));
    assert_non_null(strstr(err, a.s));
    assert_non_null(strstr(err, strerror(ELOOP)));
}

static void test_directory_and_missing_parent_refused(void **state)
{
    fixture *fx = *state;
    char err[1024] = "";
    assert_null(output_open(fx->dir, NULL, err, sizeof err));
    assert_non_null(strstr(err, fx->dir));
    assert_non_null(strstr(err, strerror(EISDIR)));
    path slash = in_dir(state, "notyet/");
    assert_null(output_open(slash.s, NULL, err, sizeof err));
    assert_non_null(strstr(err, strerror(EISDIR)));
    path deep = in_dir(state, "missing/report.txt");
    assert_null(output_open(deep.s, NULL, err, sizeof err));
    assert_non_null(strstr(err, deep.s));
    assert_non_null(strstr(err, strerror(ENOENT)));
    assert_int_equal(entries(fx->dir), 0);
}

/* A file that happens to have the name a temporary would get is neither
 * truncated nor removed: temporaries are created with O_EXCL. */
static void test_never_touches_a_file_it_did_not_create(void **state)
{
    fixture *fx = *state;
    path p = in_dir(state, "r.txt");
    char name[64];
    snprintf(name, sizeof name, ".r.txt.%ld.0.tmp", (long)getpid());
    path planted = in_dir(state, name);
    put_file(planted.s, "someone else's\n");
    output_file *o = open_ok(p.s);
    write_text(o, "x\n");
    output_abandon(o);
    o = open_ok(p.s);
    write_text(o, "y\n");
    commit_ok(o);
    assert_contents(planted.s, "someone else's\n");
    assert_contents(p.s, "y\n");
    assert_int_equal(entries(fx->dir), 2);
}

static void test_device_written_in_place(void **state)
{
    fixture *fx = *state;
    path null_node = in_dir(state, "null"), full_node = in_dir(state, "full");
    if (make_node(null_node.s, 1, 3) != 0 || make_node(full_node.s, 1, 7) != 0)
        skip(); /* mknod needs root (CI runs as root) */
    output_file *o = open_ok(null_node.s);
    assert_false(output_has_temporary(o));
    write_text(o, "into the void\n");
    commit_ok(o);
    struct stat st;
    assert_int_equal(lstat(null_node.s, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(st.st_rdev, makedev(1, 3));

    char err[1024] = "";
    o = open_ok(full_node.s);
    assert_false(output_has_temporary(o));
    static char big[1 << 16];
    memset(big, 'x', sizeof big);
    output_write(o, big, sizeof big);
    assert_int_equal(output_commit(o, err, sizeof err), -1);
    assert_non_null(strstr(err, full_node.s));
    assert_non_null(strstr(err, strerror(ENOSPC)));
    assert_int_equal(lstat(full_node.s, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    /* A small write fails at the flush in commit, not before. */
    o = open_ok(full_node.s);
    write_text(o, "x");
    assert_int_equal(output_commit(o, err, sizeof err), -1);
    assert_non_null(strstr(err, strerror(ENOSPC)));
    /* Abandoned in place: nothing removed. */
    o = open_ok(null_node.s);
    output_abandon(o);
    assert_int_equal(lstat(null_node.s, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(entries(fx->dir), 2);
}

/* The system's /dev/full, when there is one: ENOSPC named. */
static void test_dev_full(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0)
        skip();
    char err[1024] = "";
    output_file *o = open_ok("/dev/full");
    assert_false(output_has_temporary(o));
    write_text(o, "x\n");
    assert_int_equal(output_commit(o, err, sizeof err), -1);
    assert_non_null(strstr(err, "/dev/full: write failed: "));
    assert_non_null(strstr(err, strerror(ENOSPC)));
    struct stat st;
    assert_int_equal(stat("/dev/full", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
}

/* A child that reads the FIFO at p to its end and exits with 0 when it
 * read exactly `want`. */
static pid_t fifo_reader(const char *p, const char *want)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(20); /* never hang the suite */
        int fd = open(p, O_RDONLY);
        if (fd < 0)
            _exit(2);
        char buf[4096];
        size_t n = 0;
        ssize_t got;
        while (n < sizeof buf && (got = read(fd, buf + n, sizeof buf - n)) > 0)
            n += (size_t)got;
        _exit(n == strlen(want) && memcmp(buf, want, n) == 0 ? 0 : 1);
    }
    return pid;
}

static void test_fifo_written_in_place(void **state)
{
    fixture *fx = *state;
    path p = in_dir(state, "pipe");
    assert_int_equal(mkfifo(p.s, 0600), 0);
    pid_t reader = fifo_reader(p.s, "through the pipe\n");
    output_file *o = open_ok(p.s);
    assert_false(output_has_temporary(o));
    write_text(o, "through the pipe\n");
    commit_ok(o);
    int status;
    assert_int_equal(waitpid(reader, &status, 0), reader);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct stat st;
    assert_int_equal(lstat(p.s, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));

    /* Abandoned in place: what was written still reaches the reader whole. */
    reader = fifo_reader(p.s, "line one\n");
    o = open_ok(p.s);
    write_text(o, "line one\n");
    output_abandon(o);
    assert_int_equal(waitpid(reader, &status, 0), reader);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(lstat(p.s, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(entries(fx->dir), 1);
}

/* A FIFO with no reader: output_open waits with the held signals
 * unblocked, so SIGTERM ends the wait (and the process) at once. */
static void test_fifo_wait_is_interruptible(void **state)
{
    path p = in_dir(state, "lonely");
    assert_int_equal(mkfifo(p.s, 0600), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(20);
        sigset_t held;
        sigemptyset(&held);
        sigaddset(&held, SIGTERM);
        signal(SIGTERM, SIG_DFL);
        sigprocmask(SIG_BLOCK, &held, NULL);
        char err[256];
        output_file *o = output_open(p.s, &held, err, sizeof err);
        output_abandon(o);
        _exit(3); /* reached only if the signal did not end the wait */
    }
    struct timespec pause = { 0, 200 * 1000 * 1000 };
    nanosleep(&pause, NULL);
    assert_int_equal(kill(pid, SIGTERM), 0);
    int status = 0;
    pid_t got = 0;
    for (int i = 0; i < 100 && got == 0; i++) {
        got = waitpid(pid, &status, WNOHANG);
        if (got == 0)
            nanosleep(&pause, NULL);
    }
    if (got == 0) { /* still waiting: let it through, then fail */
        int fd = open(p.s, O_RDONLY | O_NONBLOCK);
        waitpid(pid, &status, 0);
        if (fd >= 0)
            close(fd);
        fail_msg("SIGTERM did not end the wait for a FIFO reader");
    }
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    /* And the mask is as it was after an ordinary open. */
    sigset_t held, before, after;
    sigemptyset(&held);
    sigaddset(&held, SIGUSR1);
    sigprocmask(SIG_BLOCK, &held, &before);
    path q = in_dir(state, "masked.txt");
    char err[256];
    output_file *o = output_open(q.s, &held, err, sizeof err);
    assert_non_null(o);
    output_abandon(o);
    sigprocmask(SIG_SETMASK, &before, &after);
    assert_true(sigismember(&after, SIGUSR1));
}

/* A write past a file size limit (as on a full disk): commit fails with
 * EFBIG naming the path, the temporary is gone, the old file is kept. */
static void test_file_size_limit(void **state)
{
    fixture *fx = *state;
    path p = in_dir(state, "big.txt");
    put_file(p.s, "old\n");
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        struct rlimit rl = { 1000, 1000 };
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(3);
        char err[1024] = "";
        output_file *o = output_open(p.s, NULL, err, sizeof err);
        if (!o)
            _exit(4);
        static char big[1 << 16];
        memset(big, 'x', sizeof big);
        output_write(o, big, sizeof big);
        int rc = output_commit(o, err, sizeof err);
        if (write(fds[1], err, strlen(err)) < 0)
            _exit(5);
        _exit(rc == -1 ? 0 : 1);
    }
    close(fds[1]);
    char err[1024];
    ssize_t n = read(fds[0], err, sizeof err - 1);
    close(fds[0]);
    err[n > 0 ? n : 0] = '\0';
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_non_null(strstr(err, p.s));
    assert_non_null(strstr(err, strerror(EFBIG)));
    assert_contents(p.s, "old\n");
    assert_int_equal(entries(fx->dir), 1);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_new_name_appears_only_on_commit),
        T(test_regular_file_replaced_or_kept),
        T(test_symlink_written_through),
        T(test_directory_and_missing_parent_refused),
        T(test_never_touches_a_file_it_did_not_create),
        T(test_device_written_in_place),
        T(test_dev_full),
        T(test_fifo_written_in_place),
        T(test_fifo_wait_is_interruptible),
        T(test_file_size_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
