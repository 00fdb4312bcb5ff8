/* test_output.c -- cli/output.c and cli/output_set.c: what every option
 * that writes a file does to the path it is given.
 *
 * One rule at a time (output.h lists them):
 *   - a new name, and a regular file of one's own, are replaced through a
 *     temporary (mode and group kept; an abandoned or failed output leaves
 *     the old file and no temporary);
 *   - a regular file the user may not write is refused, the shell's way:
 *     one's own 0444 file, and root's 0444 file in a 0777 directory (run
 *     as nobody in a child when the test runs as root: root may write
 *     anything, so the refusal is only visible to another user);
 *   - another owner's file, or one with other hard links, is written in
 *     place (same inode, same owner);
 *   - a symlink is opened by the kernel and written in place: the file it
 *     names keeps its inode and is truncated only when writing starts; a
 *     link to a file the user may not write is refused (no rename over
 *     it); a link another user planted in a sticky world-writable
 *     directory is refused by fs.protected_symlinks (as root, with the
 *     link lchown'd to nobody); OUTPUT_OWN_LINKS refuses another user's
 *     link (as root);
 *   - /dev/stdout onto an O_APPEND file keeps the earlier contents (the
 *     shell's descriptor is written through), /proc/self/fd/N and
 *     /dev/fd/N likewise, and onto a pipe or a socket they work;
 *   - devices (mknod, as root) and FIFOs are written in place; a full
 *     device and a file size limit report the path; a directory is
 *     refused; a file named like a temporary is never touched;
 *   - output_check decides the same without changing anything or waiting;
 *   - a set is written all or nothing: a failure at any output (an open,
 *     a write, stdout) leaves every replaced file as it was, removes the
 *     temporaries and a directory the set created; an interrupt before
 *     the in-place writes does the same and ends the process by the
 *     signal, also while a FIFO waits for its reader.
 * Every test works in its own mkdtemp directory, removed by teardown.
 */
#define _GNU_SOURCE /* setgroups, lchown, mknod */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/support.h"

#include "cli/interrupts.h"
#include "cli/output.h"

#define NOBODY 65534 /* Debian's nobody and nogroup */

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
    char *s = test_read_file(p, NULL);
    if (!s)
        fail_msg("cannot read %s", p);
    return s;
}

static void assert_contents(const char *p, const char *want)
{
    char *text = slurp(p);
    assert_string_equal(text, want);
    free(text);
}

/* Whether p holds exactly want (for children, which cannot assert). */
static int holds(const char *p, const char *want)
{
    char *text = test_read_file(p, NULL);
    int same = text && !strcmp(text, want);
    free(text);
    return same;
}

static struct stat stat_of(const char *p)
{
    struct stat st;
    if (lstat(p, &st) != 0)
        fail_msg("lstat %s: %s", p, strerror(errno));
    return st;
}

static output_file *open_ok(const char *p)
{
    char err[1024] = "";
    output_file *o = output_open(p, 0, NULL, err, sizeof err);
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

/* output_open refuses p with a message naming it and `why`. */
static void assert_refused(const char *p, unsigned flags, const char *why)
{
    char err[1024] = "";
    output_file *o = output_open(p, flags, NULL, err, sizeof err);
    if (o) {
        output_abandon(o);
        fail_msg("output_open %s: accepted, expected '%s'", p, why);
    }
    assert_contains(err, p);
    assert_contains(err, why);
    err[0] = '\0';
    assert_int_equal(output_check(p, flags, err, sizeof err), -1);
    assert_contains(err, why);
}

/* Root: the checks that only another user sees run as nobody in a child. */
static int is_root(void) { return geteuid() == 0; }

/* A child's check: on failure, says which line and returns 1. */
#define CHILD_CHECK(c)                                                                   \
    do {                                                                                 \
        if (!(c)) {                                                                      \
            fprintf(stderr, "%s:%d: in the child: %s\n", __FILE__, __LINE__, #c);        \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

/* fn(arg) in a child, as nobody when as_nobody (the test runs as root);
 * the test fails unless it returns 0. */
static void in_child(int (*fn)(void *), void *arg, int as_nobody)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(20); /* never hang the suite */
        if (as_nobody && (setgroups(0, NULL) != 0 || setgid(NOBODY) != 0 || setuid(NOBODY) != 0))
            _exit(99);
        _exit(fn(arg));
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the child failed (status %#x)", (unsigned)status);
}

/* A directory everyone may write into (0777), inside the fixture's, which
 * becomes 0755 so that nobody can reach it. */
static path shared_dir(void **state)
{
    fixture *fx = *state;
    assert_int_equal(chmod(fx->dir, 0755), 0);
    path p = in_dir(state, "shared");
    assert_int_equal(mkdir(p.s, 0777), 0);
    assert_int_equal(chmod(p.s, 0777), 0);
    return p;
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

/* ---- replaced through a temporary ---- */

static void test_new_name_appears_only_on_commit(void **state)
{
    fixture *fx = *state;
    path p = in_dir(state, "report.txt");
    output_file *o = open_ok(p.s);
    assert_true(output_has_temporary(o));
    write_text(o, "hello\n");
    assert_int_equal(access(p.s, F_OK), -1); /* not there until committed */
    assert_int_equal(test_entries(fx->dir), 1);    /* the temporary */
    commit_ok(o);
    assert_contents(p.s, "hello\n");
    assert_int_equal(test_entries(fx->dir), 1);
}

/* One's own file: replaced (a new inode) with its mode and group; an
 * abandoned output leaves it as it was. */
static void test_own_file_replaced_keeping_mode_and_group(void **state)
{
    fixture *fx = *state;
    path p = in_dir(state, "report.txt");
    put_file(p.s, "old\n");
    assert_int_equal(chmod(p.s, 0640), 0);
    gid_t group = is_root() ? NOBODY : getegid(); /* root may give it any group */
    assert_int_equal(chown(p.s, (uid_t)-1, group), 0);
    struct stat before = stat_of(p.s);
    output_file *o = open_ok(p.s);
    assert_true(output_has_temporary(o));
    write_text(o, "new but abandoned\n");
    output_abandon(o);
    assert_contents(p.s, "old\n");
    assert_int_equal(test_entries(fx->dir), 1);

    o = open_ok(p.s);
    write_text(o, "new\n");
    assert_contents(p.s, "old\n"); /* readers see the old file meanwhile */
    commit_ok(o);
    assert_contents(p.s, "new\n");
    struct stat after = stat_of(p.s);
    assert_int_not_equal(after.st_ino, before.st_ino); /* replaced */
    assert_int_equal(after.st_mode & 07777, 0640);
    assert_int_equal(after.st_gid, group);
    assert_int_equal(after.st_uid, geteuid());
    assert_int_equal(test_entries(fx->dir), 1);
    output_abandon(NULL);
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
    assert_int_equal(test_entries(fx->dir), 2);
}

/* ---- refused ---- */

typedef struct victim {
    const char *path, *text;
    unsigned flags;
} victim;

/* In a child: v->path is refused by check and open, and holds v->text. */
static int refused_in_child(void *arg)
{
    const victim *v = arg;
    char err[1024] = "";
    CHILD_CHECK(output_check(v->path, v->flags, err, sizeof err) == -1);
    CHILD_CHECK(strstr(err, strerror(EACCES)) || strstr(err, "another user"));
    output_file *o = output_open(v->path, v->flags, NULL, err, sizeof err);
    CHILD_CHECK(!o);
    CHILD_CHECK(strstr(err, v->path));
    CHILD_CHECK(holds(v->path, v->text));
    return 0;
}

/* One's own 0444 file, and (as nobody) root's 0444 file in a 0777
 * directory: refused, as `>` refuses them; the file keeps its contents
 * and its owner. The earlier code replaced both (and gave root's file to
 * the user who ran it). */
static void test_read_only_file_refused(void **state)
{
    path shared = shared_dir(state);
    path p = in_dir(state, "shared/report.txt");
    put_file(p.s, "root's\n");
    assert_int_equal(chmod(p.s, 0444), 0);
    victim v = { p.s, "root's\n", 0 };
    if (is_root()) {
        in_child(refused_in_child, &v, 1);
        struct stat st = stat_of(p.s);
        assert_int_equal(st.st_uid, 0);
        assert_int_equal(st.st_mode & 07777, 0444);
    } else {
        assert_refused(p.s, 0, strerror(EACCES));
        assert_contents(p.s, "root's\n");
    }
    assert_int_equal(test_entries(shared.s), 1);
}

static void test_directory_and_missing_parent_refused(void **state)
{
    fixture *fx = *state;
    assert_refused(fx->dir, 0, strerror(EISDIR));
    path slash = in_dir(state, "notyet/");
    assert_refused(slash.s, 0, strerror(EISDIR));
    path deep = in_dir(state, "missing/report.txt");
    assert_refused(deep.s, 0, strerror(ENOENT));
    assert_int_equal(test_entries(fx->dir), 0);
}

/* ---- written in place ---- */

typedef struct in_place {
    const char *path, *text;
} in_place;

/* In a child: v->path is written in place (no temporary) with v->text. */
static int written_in_place_in_child(void *arg)
{
    const in_place *v = arg;
    char err[1024] = "";
    CHILD_CHECK(output_check(v->path, 0, err, sizeof err) == 0);
    output_file *o = output_open(v->path, 0, NULL, err, sizeof err);
    CHILD_CHECK(o);
    CHILD_CHECK(!output_has_temporary(o));
    CHILD_CHECK(output_write(o, v->text, strlen(v->text)) == 0);
    CHILD_CHECK(output_commit(o, err, sizeof err) == 0);
    CHILD_CHECK(holds(v->path, v->text));
    return 0;
}

/* Another owner's file that the user may write: written in place, as `>`
 * does; it keeps its owner and inode (the earlier code renamed a file of
 * its own over it: the owner changed). As root, a file of nobody's; as
 * nobody (in a child), root's 0666 file in a 0777 directory. */
static void test_other_owners_file_written_in_place(void **state)
{
    path shared = shared_dir(state);
    path theirs = in_dir(state, "shared/nobodys.txt"), roots = in_dir(state, "shared/roots.txt");
    put_file(theirs.s, "nobody's old report, longer than the new one\n");
    assert_int_equal(chown(theirs.s, NOBODY, NOBODY), 0);
    struct stat before = stat_of(theirs.s);
    in_place v = { theirs.s, "root's\n" };
    in_child(written_in_place_in_child, &v, 0);
    struct stat after = stat_of(theirs.s);
    assert_int_equal(after.st_ino, before.st_ino);
    assert_int_equal(after.st_uid, NOBODY);

    put_file(roots.s, "root's old report\n");
    assert_int_equal(chmod(roots.s, 0666), 0);
    before = stat_of(roots.s);
    in_place w = { roots.s, "nobody's\n" };
    in_child(written_in_place_in_child, &w, 1);
    after = stat_of(roots.s);
    assert_int_equal(after.st_ino, before.st_ino);
    assert_int_equal(after.st_uid, 0);
    assert_int_equal(test_entries(shared.s), 2);
}

/* A file with another hard link: written in place, so both names see it
 * (a rename would leave the other link with the old contents). */
static void test_hard_linked_file_written_in_place(void **state)
{
    path p = in_dir(state, "report.txt"), other = in_dir(state, "other-name.txt");
    put_file(p.s, "old contents\n");
    assert_int_equal(link(p.s, other.s), 0);
    output_file *o = open_ok(p.s);
    assert_false(output_has_temporary(o));
    write_text(o, "new\n");
    commit_ok(o);
    assert_contents(p.s, "new\n");
    assert_contents(other.s, "new\n");
}

/* A symlink: the kernel opens what it names, which is written in place
 * (its inode kept) and truncated only once writing starts; links stay
 * links; a dangling link gets its file created; a loop is refused. */
static void test_symlink_written_in_place_by_the_kernel(void **state)
{
    fixture *fx = *state;
    /* dir/sub/target.txt, and dir/link -> sub/target.txt, dir/sub/up -> ../link */
    path sub = in_dir(state, "sub"), target = in_dir(state, "sub/target.txt");
    path link = in_dir(state, "link"), chain = in_dir(state, "sub/up");
    assert_int_equal(mkdir(sub.s, 0700), 0);
    put_file(target.s, "old, and longer than what replaces it\n");
    assert_int_equal(symlink("sub/target.txt", link.s), 0);
    assert_int_equal(symlink("../link", chain.s), 0);
    struct stat before = stat_of(target.s);
    output_file *o = open_ok(chain.s);
    assert_false(output_has_temporary(o));
    output_abandon(o); /* opened, nothing written: not truncated */
    assert_contents(target.s, "old, and longer than what replaces it\n");
    o = open_ok(chain.s);
    write_text(o, "through two links\n");
    commit_ok(o);
    assert_contents(target.s, "through two links\n");
    assert_int_equal(stat_of(target.s).st_ino, before.st_ino);
    assert_true(S_ISLNK(stat_of(link.s).st_mode));
    assert_true(S_ISLNK(stat_of(chain.s).st_mode));
    assert_int_equal(test_entries(fx->dir), 2); /* sub, link */
    assert_int_equal(test_entries(sub.s), 2);   /* target.txt, up */

    /* A dangling link: the file it names is created; the link stays. */
    path dangling = in_dir(state, "dangling"), named = in_dir(state, "sub/new.txt");
    assert_int_equal(symlink("sub/new.txt", dangling.s), 0);
    char err[1024] = "";
    assert_int_equal(output_check(dangling.s, 0, err, sizeof err), 0);
    assert_int_equal(access(named.s, F_OK), -1); /* the check creates nothing */
    o = open_ok(dangling.s);
    write_text(o, "created\n");
    commit_ok(o);
    assert_contents(named.s, "created\n");
    assert_true(S_ISLNK(stat_of(dangling.s).st_mode));

    /* A loop of links is refused by name. */
    path a = in_dir(state, "loop-a"), b = in_dir(state, "loop-b");
    assert_int_equal(symlink("loop-b", a.s), 0);
    assert_int_equal(symlink("loop-a", b.s), 0);
    assert_refused(a.s, 0, strerror(ELOOP));
}

/* A link (nobody's own, in a directory nobody may write) to root's 0644
 * file in a 0777 directory: the kernel refuses to open the file for
 * nobody, and it stays root's, unchanged. The earlier code followed the
 * link by hand and renamed a temporary over the file, which the 0777
 * directory allowed. */
static void test_symlink_to_an_unwritable_file_refused(void **state)
{
    path shared = shared_dir(state);
    path target = in_dir(state, "shared/roots.txt"), link = in_dir(state, "shared/link");
    put_file(target.s, "root's\n");
    assert_int_equal(chmod(target.s, 0644), 0);
    assert_int_equal(symlink("roots.txt", link.s), 0);
    assert_int_equal(lchown(link.s, NOBODY, NOBODY), 0);
    victim v = { link.s, "root's\n", 0 };
    in_child(refused_in_child, &v, 1);
    assert_int_equal(stat_of(target.s).st_uid, 0);
    assert_int_equal(test_entries(shared.s), 2);
}

/* A symlink another user planted in a sticky world-writable directory
 * (/tmp): the kernel's fs.protected_symlinks refuses to follow it for
 * anyone but its owner (and the directory's), so -o /tmp/report.html
 * cannot be turned into a write to the file it names. */
static void test_planted_symlink_in_a_sticky_dir(void **state)
{
    path sticky = shared_dir(state);
    assert_int_equal(chmod(sticky.s, 01777), 0);
    path victim_file = in_dir(state, "victim.txt"), link = in_dir(state, "shared/report.html");
    put_file(victim_file.s, "precious\n");
    assert_int_equal(symlink(victim_file.s, link.s), 0);
    assert_int_equal(lchown(link.s, NOBODY, NOBODY), 0);
    assert_refused(link.s, 0, strerror(EACCES));
    assert_contents(victim_file.s, "precious\n");
    assert_true(S_ISLNK(stat_of(link.s).st_mode));
}

/* OUTPUT_OWN_LINKS (--result): a link of one's own is written through;
 * one another user owns is refused, wherever it is. */
static void test_own_links_only(void **state)
{
    path target = in_dir(state, "result.json"), mine = in_dir(state, "mine");
    put_file(target.s, "old\n");
    assert_int_equal(symlink("result.json", mine.s), 0);
    char err[1024] = "";
    assert_int_equal(output_check(mine.s, OUTPUT_OWN_LINKS, err, sizeof err), 0);
    output_file *o = output_open(mine.s, OUTPUT_OWN_LINKS, NULL, err, sizeof err);
    assert_non_null(o);
    write_text(o, "{}\n");
    commit_ok(o);
    assert_contents(target.s, "{}\n");
}

/* OUTPUT_OWN_LINKS: a link another user owns (lchown'd to nobody, as
 * root) is refused; without the flag the kernel's rules alone apply. */
static void test_other_users_link_refused(void **state)
{
    path target = in_dir(state, "result.json");
    put_file(target.s, "{}\n");
    path theirs = in_dir(state, "theirs");
    assert_int_equal(symlink("result.json", theirs.s), 0);
    assert_int_equal(lchown(theirs.s, NOBODY, NOBODY), 0);
    assert_refused(theirs.s, OUTPUT_OWN_LINKS, "another user");
    assert_contents(target.s, "{}\n");
    output_file *o = open_ok(theirs.s); /* without the flag: the kernel's rules alone */
    output_abandon(o);
}

/* In a child with stdout on an O_APPEND log: /dev/stdout is written
 * through the shell's descriptor, after what the log held. */
static int stdout_appends_in_child(void *arg)
{
    const char *log = arg;
    int fd = open(log, O_WRONLY | O_APPEND);
    CHILD_CHECK(fd >= 0 && dup2(fd, 1) == 1);
    close(fd);
    char err[1024] = "";
    CHILD_CHECK(output_check("/dev/stdout", 0, err, sizeof err) == 0);
    output_file *o = output_open("/dev/stdout", 0, NULL, err, sizeof err);
    CHILD_CHECK(o);
    CHILD_CHECK(!output_has_temporary(o));
    CHILD_CHECK(output_write(o, "report\n", 7) == 0);
    CHILD_CHECK(output_commit(o, err, sizeof err) == 0);
    CHILD_CHECK(write(1, "after\n", 6) == 6); /* the shell's descriptor still works */
    CHILD_CHECK(holds(log, "first\nreport\nafter\n"));
    return 0;
}

/* /dev/stdout, /dev/fd/N, /proc/self/fd/N onto a file the shell opened
 * with >>: appended to, never truncated or replaced (the earlier code
 * renamed the report over log.txt). */
static void test_dev_stdout_onto_an_appended_file(void **state)
{
    path log = in_dir(state, "log.txt");
    put_file(log.s, "first\n");
    struct stat before = stat_of(log.s);
    in_child(stdout_appends_in_child, log.s, 0);
    assert_int_equal(stat_of(log.s).st_ino, before.st_ino);

    int fd = open(log.s, O_WRONLY | O_APPEND);
    assert_true(fd >= 0);
    static const char *const forms[] = { "/dev/fd/%d", "/proc/self/fd/%d" };
    for (size_t i = 0; i < 2; i++) {
        char name[64];
        snprintf(name, sizeof name, forms[i], fd);
        output_file *o = open_ok(name);
        assert_false(output_has_temporary(o));
        write_text(o, "more\n");
        commit_ok(o);
    }
    assert_int_equal(write(fd, "end\n", 4), 4);
    close(fd);
    assert_contents(log.s, "first\nreport\nafter\nmore\nmore\nend\n");
    assert_int_equal(stat_of(log.s).st_ino, before.st_ino);
}

/* /proc/self/fd/N and /dev/fd/N on a pipe: written to the pipe (the
 * earlier code looked for a directory to put a temporary in). */
static void test_proc_fd_onto_a_pipe(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    static const char *const forms[] = { "/proc/self/fd/%d", "/dev/fd/%d" };
    for (size_t i = 0; i < 2; i++) {
        char name[64];
        snprintf(name, sizeof name, forms[i], fds[1]);
        char err[1024] = "";
        assert_int_equal(output_check(name, 0, err, sizeof err), 0);
        output_file *o = open_ok(name);
        assert_false(output_has_temporary(o));
        write_text(o, "through the pipe\n");
        commit_ok(o);
    }
    close(fds[1]);
    char buf[128];
    ssize_t n = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    assert_true(n > 0);
    buf[n] = '\0';
    assert_string_equal(buf, "through the pipe\nthrough the pipe\n");
}

/* /proc/self/fd/N on a socket of ours (stdout under a service manager):
 * the kernel will not open a socket by name, so the descriptor is written
 * through; a socket of nobody's descriptor is refused by name. */
static void test_proc_fd_onto_a_socket(void **state)
{
    (void)state;
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    char name[64], err[1024] = "";
    snprintf(name, sizeof name, "/proc/self/fd/%d", sv[0]);
    assert_int_equal(output_check(name, 0, err, sizeof err), 0);
    output_file *o = open_ok(name);
    write_text(o, "down the socket\n");
    commit_ok(o);
    char buf[64];
    ssize_t n = read(sv[1], buf, sizeof buf - 1);
    assert_true(n > 0);
    buf[n] = '\0';
    assert_string_equal(buf, "down the socket\n");
    close(sv[0]);
    close(sv[1]);
}

static void test_device_written_in_place(void **state)
{
    fixture *fx = *state;
    path null_node = in_dir(state, "null"), full_node = in_dir(state, "full");
    assert_int_equal(make_node(null_node.s, 1, 3), 0);
    assert_int_equal(make_node(full_node.s, 1, 7), 0);
    output_file *o = open_ok(null_node.s);
    assert_false(output_has_temporary(o));
    write_text(o, "into the void\n");
    commit_ok(o);
    struct stat st = stat_of(null_node.s);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(st.st_rdev, makedev(1, 3));

    char err[1024] = "";
    o = open_ok(full_node.s);
    assert_false(output_has_temporary(o));
    static char big[1 << 16];
    memset(big, 'x', sizeof big);
    output_write(o, big, sizeof big);
    assert_int_equal(output_commit(o, err, sizeof err), -1);
    assert_contains(err, full_node.s);
    assert_contains(err, strerror(ENOSPC));
    assert_true(S_ISCHR(stat_of(full_node.s).st_mode));
    /* A small write fails at the flush in commit, not before. */
    o = open_ok(full_node.s);
    write_text(o, "x");
    assert_int_equal(output_commit(o, err, sizeof err), -1);
    assert_contains(err, strerror(ENOSPC));
    /* Abandoned in place: nothing removed. */
    o = open_ok(null_node.s);
    output_abandon(o);
    assert_true(S_ISCHR(stat_of(null_node.s).st_mode));
    assert_int_equal(test_entries(fx->dir), 2);
}

/* The system's /dev/full, when there is one: ENOSPC named. */
static void test_dev_full(void **state)
{
    (void)state;
    assert_int_equal(access("/dev/full", W_OK), 0); /* every Linux has it */
    char err[1024] = "";
    output_file *o = open_ok("/dev/full");
    assert_false(output_has_temporary(o));
    write_text(o, "x\n");
    assert_int_equal(output_commit(o, err, sizeof err), -1);
    assert_contains(err, "/dev/full: write failed: ");
    assert_contains(err, strerror(ENOSPC));
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
    assert_true(S_ISFIFO(stat_of(p.s).st_mode));

    /* Abandoned in place: what was written still reaches the reader whole. */
    reader = fifo_reader(p.s, "line one\n");
    o = open_ok(p.s);
    write_text(o, "line one\n");
    output_abandon(o);
    assert_int_equal(waitpid(reader, &status, 0), reader);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(S_ISFIFO(stat_of(p.s).st_mode));
    assert_int_equal(test_entries(fx->dir), 1);
}

/* Waits until child pid has run for `ms` milliseconds (it is then waiting
 * for a FIFO's reader), then sends it sig and returns its wait status. */
static int signal_after(pid_t pid, int ms, int sig)
{
    struct timespec pause = { 0, (long)ms * 1000 * 1000 };
    nanosleep(&pause, NULL);
    assert_int_equal(kill(pid, sig), 0);
    int status = 0;
    pid_t got = 0;
    struct timespec tick = { 0, 100 * 1000 * 1000 };
    for (int i = 0; i < 100 && got == 0; i++) {
        got = waitpid(pid, &status, WNOHANG);
        if (got == 0)
            nanosleep(&tick, NULL);
    }
    if (got == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        fail_msg("signal %d did not end the wait for a FIFO reader", sig);
    }
    return status;
}

/* A FIFO with no reader: output_open polls the held interrupts while it
 * waits, and a pending one ends the wait (NULL, "interrupted"); in a set,
 * the process dies of it with no temporary of the set's other outputs
 * left behind. The mask is as it was after an ordinary open. */
static void test_fifo_wait_polls_interrupts(void **state)
{
    fixture *fx = *state;
    path p = in_dir(state, "lonely"), other = in_dir(state, "report.txt");
    assert_int_equal(mkfifo(p.s, 0600), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(20);
        signal(SIGTERM, SIG_DFL);
        interrupts ints;
        interrupts_init(&ints);
        interrupts_hold(&ints);
        char err[256] = "";
        output_file *o = output_open(p.s, 0, &ints, err, sizeof err);
        _exit(!o && strstr(err, "interrupted") && interrupts_pending(&ints) == SIGTERM ? 0 : 3);
    }
    int status = signal_after(pid, 200, SIGTERM);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(20);
        signal(SIGINT, SIG_DFL);
        interrupts ints;
        interrupts_init(&ints);
        output_item items[2] = { { .option = "-o", .path = other.s, .data = "r\n", .len = 2 },
                                 { .option = "--junit", .path = p.s, .data = "j\n", .len = 2 } };
        char err[256];
        output_save_set(items, 2, NULL, &ints, "test", err, sizeof err);
        _exit(3); /* reached only if the signal did not end it */
    }
    status = signal_after(pid, 200, SIGINT);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT);
    assert_int_equal(test_entries(fx->dir), 1); /* the FIFO: no report, no temporary */

    sigset_t held, before, after;
    sigemptyset(&held);
    sigaddset(&held, SIGUSR1);
    sigprocmask(SIG_BLOCK, &held, &before);
    interrupts ints;
    interrupts_init(&ints);
    interrupts_hold(&ints);
    output_file *o = open_ok(other.s);
    output_abandon(o);
    interrupts_release(&ints);
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
        output_file *o = output_open(p.s, 0, NULL, err, sizeof err);
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
    assert_contains(err, p.s);
    assert_contains(err, strerror(EFBIG));
    assert_contents(p.s, "old\n");
    assert_int_equal(test_entries(fx->dir), 1);
}

/* ---- checks before the work ---- */

/* In a child as nobody: a new name in root's 0755 directory is refused
 * by the check, which creates nothing. */
static int unwritable_dir_in_child(void *arg)
{
    const char *p = arg;
    char err[1024] = "";
    CHILD_CHECK(output_check(p, 0, err, sizeof err) == -1);
    CHILD_CHECK(strstr(err, strerror(EACCES)));
    return 0;
}

/* output_check decides as output_open does, changing nothing: no file
 * for a new name, the old contents and inode kept, a FIFO without a
 * reader answered at once, an unwritable directory refused. */
static void test_check_changes_nothing(void **state)
{
    fixture *fx = *state;
    char err[1024] = "";
    path fresh = in_dir(state, "new.txt"), old = in_dir(state, "old.txt");
    path fifo = in_dir(state, "fifo"), link = in_dir(state, "link");
    put_file(old.s, "old\n");
    assert_int_equal(mkfifo(fifo.s, 0600), 0);
    assert_int_equal(symlink("old.txt", link.s), 0);
    struct stat before = stat_of(old.s);
    assert_int_equal(output_check(fresh.s, 0, err, sizeof err), 0);
    assert_int_equal(output_check(old.s, 0, err, sizeof err), 0);
    assert_int_equal(output_check(link.s, 0, err, sizeof err), 0);
    assert_int_equal(output_check(fifo.s, 0, err, sizeof err), 0); /* no reader: no wait */
    assert_int_equal(access(fresh.s, F_OK), -1);
    assert_contents(old.s, "old\n");
    assert_int_equal(stat_of(old.s).st_ino, before.st_ino);
    assert_int_equal(test_entries(fx->dir), 3);
    if (is_root()) {
        assert_int_equal(chmod(fx->dir, 0755), 0);
        in_child(unwritable_dir_in_child, fresh.s, 1);
    } else {
        path ro = in_dir(state, "ro"), inside = in_dir(state, "ro/new.txt");
        assert_int_equal(mkdir(ro.s, 0555), 0);
        assert_int_equal(output_check(inside.s, 0, err, sizeof err), -1);
        assert_contains(err, strerror(EACCES));
    }
}

/* ---- sets ---- */

/* An output_item with text as its content. */
static output_item text_item(const char *option, const char *p, const char *text)
{
    return (output_item){ .option = option, .path = p, .data = text, .len = strlen(text) };
}

static void save_set_ok(output_item *items, size_t n, const char *dir)
{
    interrupts ints;
    interrupts_init(&ints);
    char err[1280] = "";
    if (output_save_set(items, n, dir, &ints, "test", err, sizeof err) != 0)
        fail_msg("output_save_set: %s", err);
}

/* output_save_set's result and message in err. */
static int save_set(output_item *items, size_t n, const char *dir, char *err, size_t errcap)
{
    interrupts ints;
    interrupts_init(&ints);
    return output_save_set(items, n, dir, &ints, "test", err, errcap);
}

/* Every output written, or none: a failure opening, writing or
 * flushing any of them leaves every replaced file as it was and no
 * temporary; an already open output (a trace) goes with the set. */
static void test_set_all_or_nothing(void **state)
{
    fixture *fx = *state;
    path report = in_dir(state, "report.txt"), junit = in_dir(state, "junit.xml");
    path missing = in_dir(state, "missing/junit.xml"), trace = in_dir(state, "trace.csv");
    output_item ok[2] = { text_item("-o", report.s, "report 1\n"),
                          text_item("--junit", junit.s, "junit 1\n") };
    save_set_ok(ok, 2, NULL);
    assert_contents(report.s, "report 1\n");
    assert_contents(junit.s, "junit 1\n");

    /* The JUnit's directory is missing: the open fails, nothing is new. */
    char err[1280] = "";
    output_item no_dir[2] = { text_item("-o", report.s, "report 2\n"),
                              text_item("--junit", missing.s, "junit 2\n") };
    assert_int_equal(save_set(no_dir, 2, NULL, err, sizeof err), -1);
    assert_contains(err, "--junit ");
    assert_contains(err, missing.s);
    assert_contents(report.s, "report 1\n");
    assert_int_equal(test_entries(fx->dir), 2);

    /* A write to the JUnit's destination fails (a full device): the
     * report, written and synced already, is not renamed; the trace, open
     * since before the run, is removed. */
    if (access("/dev/full", W_OK) == 0) {
        output_file *t = open_ok(trace.s);
        write_text(t, "time,op,key\n");
        output_item full[3] = { text_item("-o", report.s, "report 3\n"),
                                text_item("--junit", "/dev/full", "junit 3\n"),
                                { .option = "--write-trace", .path = trace.s, .opened = t } };
        assert_int_equal(save_set(full, 3, NULL, err, sizeof err), -1);
        assert_contains(err, "--junit /dev/full: write failed");
        assert_contents(report.s, "report 1\n");
        assert_int_equal(access(trace.s, F_OK), -1);
        assert_int_equal(test_entries(fx->dir), 2);
    }

    /* A directory where an output should go: refused before anything. */
    path in_way = in_dir(state, "in-the-way");
    assert_int_equal(mkdir(in_way.s, 0700), 0);
    output_item dir_in_way[2] = { text_item("-o", report.s, "report 4\n"),
                                  text_item("--junit", in_way.s, "junit 4\n") };
    assert_int_equal(save_set(dir_in_way, 2, NULL, err, sizeof err), -1);
    assert_contains(err, strerror(EISDIR));
    assert_contents(report.s, "report 1\n");
    assert_int_equal(test_entries(fx->dir), 3);
}

/* In a child with stdout on /dev/full: the set [file, stdout] fails at
 * stdout's flush and the file is not created. */
static int stdout_full_in_child(void *arg)
{
    const char *p = arg;
    int fd = open("/dev/full", O_WRONLY);
    CHILD_CHECK(fd >= 0 && dup2(fd, 1) == 1);
    output_item items[2] = { text_item("--junit", p, "junit\n"),
                             text_item(NULL, NULL, "the report on stdout\n") };
    char err[1280] = "";
    CHILD_CHECK(save_set(items, 2, NULL, err, sizeof err) == -1);
    CHILD_CHECK(strstr(err, "stdout: write failed"));
    CHILD_CHECK(access(p, F_OK) == -1);
    return 0;
}

static void test_set_with_stdout(void **state)
{
    fixture *fx = *state;
    assert_int_equal(access("/dev/full", W_OK), 0); /* every Linux has it */
    path junit = in_dir(state, "junit.xml");
    in_child(stdout_full_in_child, junit.s, 0);
    assert_int_equal(test_entries(fx->dir), 0);
}

/* In a child: the set into dir (three files, the last past a file size
 * limit of `limit` bytes) fails with EFBIG. */
typedef struct limited {
    const char *dir;
    path files[3];
    rlim_t limit;
} limited;

static int limited_set_in_child(void *arg)
{
    limited *l = arg;
    struct rlimit rl = { l->limit, l->limit };
    signal(SIGXFSZ, SIG_IGN);
    CHILD_CHECK(setrlimit(RLIMIT_FSIZE, &rl) == 0);
    static char big[4096];
    memset(big, 'x', sizeof big - 1);
    output_item items[3] = { text_item("-o", l->files[0].s, "small\n"),
                             text_item("-o", l->files[1].s, "small too\n"),
                             text_item("-o", l->files[2].s, big) };
    char err[1280] = "";
    CHILD_CHECK(save_set(items, 3, l->dir, err, sizeof err) == -1);
    CHILD_CHECK(strstr(err, strerror(EFBIG)));
    CHILD_CHECK(strstr(err, l->files[2].s));
    return 0;
}

/* A set into a directory (csv's -o DIR): created when missing, removed
 * again when the set fails (a full disk); an existing directory stays,
 * with its old files as they were; a file where the directory should be
 * is refused, untouched. */
static void test_set_into_a_directory(void **state)
{
    fixture *fx = *state;
    path dir = in_dir(state, "csv");
    limited l = { dir.s, { in_dir(state, "csv/a.csv"), in_dir(state, "csv/b.csv"),
                           in_dir(state, "csv/c.csv") }, 1000 };
    char err[1280] = "";
    output_item check[1] = { { .option = "-o", .path = l.files[0].s } };
    assert_int_equal(output_check_set(check, 1, dir.s, err, sizeof err), 0); /* may be made */
    in_child(limited_set_in_child, &l, 0);
    assert_int_equal(access(dir.s, F_OK), -1);
    assert_int_equal(test_entries(fx->dir), 0);

    output_item ok[2] = { text_item("-o", l.files[0].s, "a 1\n"),
                          text_item("-o", l.files[1].s, "b 1\n") };
    save_set_ok(ok, 2, dir.s);
    assert_contents(l.files[0].s, "a 1\n");
    in_child(limited_set_in_child, &l, 0);
    assert_contents(l.files[0].s, "a 1\n");
    assert_contents(l.files[1].s, "b 1\n");
    assert_int_equal(test_entries(dir.s), 2);

    path file = in_dir(state, "a-file");
    put_file(file.s, "not a directory\n");
    path inside = in_dir(state, "a-file/a.csv");
    output_item in_file[1] = { text_item("-o", inside.s, "a\n") };
    assert_int_equal(output_check_set(in_file, 1, file.s, err, sizeof err), -1);
    assert_contains(err, strerror(ENOTDIR));
    assert_int_equal(save_set(in_file, 1, file.s, err, sizeof err), -1);
    assert_contains(err, file.s);
    assert_contents(file.s, "not a directory\n");
    path deep = in_dir(state, "x/y");
    assert_int_equal(output_check_set(in_file, 1, deep.s, err, sizeof err), -1);
    assert_contains(err, deep.s);
}

/* An interrupt pending when the set starts: nothing is written, nothing
 * left, and the process dies of it. */
static void test_set_interrupted_leaves_nothing(void **state)
{
    fixture *fx = *state;
    path report = in_dir(state, "report.txt"), junit = in_dir(state, "junit.xml");
    put_file(junit.s, "old junit\n");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        interrupts ints;
        interrupts_init(&ints);
        interrupts_hold(&ints);
        raise(SIGINT); /* pending: ^C while the report was rendered */
        output_item items[2] = { text_item("-o", report.s, "report\n"),
                                 text_item("--junit", junit.s, "junit\n") };
        char err[256];
        output_save_set(items, 2, NULL, &ints, "test", err, sizeof err);
        _exit(3);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT);
    assert_int_equal(access(report.s, F_OK), -1);
    assert_contents(junit.s, "old junit\n");
    assert_int_equal(test_entries(fx->dir), 1);
}

/* The fs.protected_symlinks sysctl is 1 (Debian's default, from
 * systemd's sysctl.d; the kernel's own default is 0). */
static int protected_symlinks_on(void)
{
    FILE *f = fopen("/proc/sys/fs/protected_symlinks", "r");
    int on = 0;
    if (f) {
        if (fscanf(f, "%d", &on) != 1)
            on = 0;
        fclose(f);
    }
    return on == 1;
}

/* Three meson tests (tests/meson.build): `output`, the rules any user can
 * check; `output_root` (--as-root), those that need files, links and
 * device nodes of other owners, which only root can make; and
 * `output_protected_symlinks` (--protected-symlinks), the planted link,
 * which also needs the sysctl on. Without what they need the last two
 * exit 77 (skipped) or, under CI, fail (tests/support.h, test_cannot_run). */
int main(int argc, char **argv)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    if (test_has_arg(argc, argv, "--as-root")) {
        if (!is_root())
            return test_cannot_run("output_root", "needs root (files and links of another owner,"
                                   " device nodes)", test_in_ci());
        const struct CMUnitTest root_tests[] = {
            T(test_other_owners_file_written_in_place),
            T(test_symlink_to_an_unwritable_file_refused),
            T(test_other_users_link_refused),
            T(test_device_written_in_place),
        };
        return cmocka_run_group_tests(root_tests, NULL, NULL);
    }
    if (test_has_arg(argc, argv, "--protected-symlinks")) {
        if (!is_root())
            return test_cannot_run("output_protected_symlinks", "needs root (a link owned by"
                                   " another user)", test_in_ci());
        if (!protected_symlinks_on())
            return test_cannot_run("output_protected_symlinks", "fs.protected_symlinks is not 1"
                                   " on this machine (.ci/run sets it, as a booted Debian has it)",
                                   test_in_ci());
        const struct CMUnitTest link_tests[] = {
            T(test_planted_symlink_in_a_sticky_dir),
        };
        return cmocka_run_group_tests(link_tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        T(test_new_name_appears_only_on_commit),
        T(test_own_file_replaced_keeping_mode_and_group),
        T(test_never_touches_a_file_it_did_not_create),
        T(test_read_only_file_refused),
        T(test_directory_and_missing_parent_refused),
        T(test_hard_linked_file_written_in_place),
        T(test_symlink_written_in_place_by_the_kernel),
        T(test_own_links_only),
        T(test_dev_stdout_onto_an_appended_file),
        T(test_proc_fd_onto_a_pipe),
        T(test_proc_fd_onto_a_socket),
        T(test_dev_full),
        T(test_fifo_written_in_place),
        T(test_fifo_wait_polls_interrupts),
        T(test_file_size_limit),
        T(test_check_changes_nothing),
        T(test_set_all_or_nothing),
        T(test_set_with_stdout),
        T(test_set_into_a_directory),
        T(test_set_interrupted_leaves_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
