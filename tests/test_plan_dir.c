/* test_plan_dir.c -- planners/plan_dir.c: a plan's directory that is yours.
 *
 * Opening: a new directory is made (mode 0755 whatever the umask) and
 * removed again on a refusal; an existing one is taken only when empty,
 * no link, yours and writable by you alone, below directories that only
 * you or root can change (sticky ones aside); "." and a name with
 * trailing slashes work. Filling: subdirectories, files created new
 * (never over anything, never outside), staged files invisible under
 * their names until the commit, a copy from a descriptor, read errors
 * named. Undoing: exactly what was made is removed, newest first, with
 * the directory when it was made here, but not a directory that took its
 * name meanwhile. Each test works in its own directory under the run's
 * mkdtemp directory ($TMPDIR or /tmp), removed at the end.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, realpath */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/support.h"

#include "planners/plan_dir.h"

static char work[PATH_MAX];

static const char *in_work(char *out, const char *name)
{
    int n = snprintf(out, PATH_MAX, "%s/%s", work, name);
    assert_true(n > 0 && n < PATH_MAX);
    return out;
}

/* plan_dir_open that must succeed. */
static plan_dir *open_ok(const char *path)
{
    plan_dir *pd;
    char err[2048];
    if (plan_dir_open(path, &pd, err, sizeof err) < 0)
        fail_msg("%s", err);
    return pd;
}

/* plan_dir_open that must fail with a message containing part. */
static void open_refused(const char *path, const char *part)
{
    plan_dir *pd = (plan_dir *)1;
    char err[2048];
    assert_int_equal(plan_dir_open(path, &pd, err, sizeof err), -1);
    assert_null(pd);
    assert_contains(err, part);
}

static void test_a_new_directory_is_made_0755_whatever_the_umask(void **state)
{
    (void)state;
    char dir[PATH_MAX];
    in_work(dir, "new///"); /* trailing slashes name the same directory */
    mode_t old = umask(0);
    plan_dir *pd = open_ok(dir);
    umask(old);
    assert_int_equal(plan_dir_made(pd), 1);
    plan_dir_close(pd);
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(st.st_mode & 07777, 0755);
    test_remove_tree(in_work(dir, "new"));
}

static void test_an_existing_directory_must_be_empty_yours_and_closed(void **state)
{
    (void)state;
    char dir[PATH_MAX], path[PATH_MAX + 16];
    in_work(dir, "old");
    assert_int_equal(mkdir(dir, 0700), 0);
    plan_dir *pd = open_ok(dir);
    assert_int_equal(plan_dir_made(pd), 0);
    assert_int_equal(plan_dir_undo(pd, NULL, 0), 0); /* nothing made: nothing removed */
    assert_true(test_exists(dir));
    assert_int_equal(chmod(dir, 0720), 0);
    open_refused(dir, "is writable by its group (mode 0720)");
    assert_int_equal(chmod(dir, 0702), 0);
    open_refused(dir, "is writable by everyone (mode 0702)");
    assert_int_equal(chmod(dir, 0700), 0);
    snprintf(path, sizeof path, "%s/x", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    open_refused(dir, "exists and is not empty");
    assert_int_equal(test_entries(dir), 1);
    rmdir(path);
    test_remove_tree(dir);
}

/* As root: an empty directory that another user (nobody) owns. */
static void test_another_user_s_directory_is_refused(void **state)
{
    (void)state;
    char dir[PATH_MAX];
    in_work(dir, "theirs");
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(chown(dir, 65534, 65534), 0);
    open_refused(dir, "uid 65534), not to you (");
    assert_int_equal(test_entries(dir), 0);
    test_remove_tree(dir);
}

static void test_links_and_files_are_refused(void **state)
{
    (void)state;
    char dir[PATH_MAX], target[PATH_MAX];
    in_work(target, "target");
    assert_int_equal(mkdir(target, 0755), 0);
    in_work(dir, "link");
    assert_int_equal(symlink(target, dir), 0);
    open_refused(dir, "is a symbolic link");
    unlink(dir);
    assert_int_equal(symlink("nowhere", dir), 0); /* dangling: not made through */
    open_refused(dir, "is a symbolic link");
    assert_false(test_exists(in_work(target, "nowhere")));
    unlink(dir);
    int fd = open(dir, O_WRONLY | O_CREAT | O_EXCL, 0644);
    assert_true(fd >= 0);
    close(fd);
    open_refused(dir, "exists and is not a directory");
    unlink(dir);
    in_work(dir, "no/such/parent");
    open_refused(dir, "cannot create the directory: No such file or directory");
    test_remove_tree(in_work(target, "target"));
}

/* A parent others can write: refused, and a directory made below it
 * removed again; sticky, it is fine. "." works, checked the same way. */
static void test_parents_are_checked(void **state)
{
    (void)state;
    char parent[PATH_MAX], dir[PATH_MAX];
    in_work(parent, "open");
    assert_int_equal(mkdir(parent, 0755), 0);
    assert_int_equal(chmod(parent, 0775), 0);
    in_work(dir, "open/plan");
    open_refused(dir, "above it is writable by its group (mode 0775, not sticky)");
    assert_false(test_exists(dir));
    assert_int_equal(chmod(parent, 01777), 0);
    plan_dir *pd = open_ok(dir);
    assert_int_equal(plan_dir_undo(pd, NULL, 0), 0);
    assert_false(test_exists(dir));
    /* "." as the directory: the working directory */
    assert_int_equal(mkdir(dir, 0755), 0);
    char old[PATH_MAX];
    assert_non_null(getcwd(old, sizeof old));
    assert_int_equal(chdir(dir), 0);
    pd = open_ok(".");
    assert_int_equal(plan_dir_made(pd), 0);
    plan_dir_close(pd);
    assert_int_equal(chmod(parent, 0777), 0);
    open_refused(".", "above it is writable by its group and everyone (mode 0777");
    assert_int_equal(chdir(old), 0);
    test_remove_tree(parent);
}

static void test_files_are_made_new_and_staged_ones_named_at_the_commit(void **state)
{
    (void)state;
    char dir[PATH_MAX], path[PATH_MAX + 64], err[2048];
    in_work(dir, "fill");
    plan_dir *pd = open_ok(dir);
    assert_int_equal(plan_dir_mkdir(pd, "sub", err, sizeof err), 0);
    assert_int_equal(plan_dir_write(pd, "sub/a.txt", "a\n", 2, 0644, 0, err, sizeof err), 0);
    assert_int_equal(plan_dir_write(pd, "whole.txt", "whole\n", 6, 0644, 1, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/whole.txt", dir);
    assert_false(test_exists(path)); /* staged: not under its name yet */
    snprintf(path, sizeof path, "%s/.whole.txt.partial", dir);
    assert_true(test_exists(path));
    /* never over anything, never outside, never in a directory not made here */
    assert_int_equal(plan_dir_write(pd, "sub/a.txt", "b", 1, 0644, 0, err, sizeof err), -1);
    assert_string_equal(err, "sub/a.txt: cannot create it: File exists");
    assert_int_equal(plan_dir_write(pd, "../out.txt", "b", 1, 0644, 0, err, sizeof err), -1);
    assert_string_equal(err, "../out.txt: not a name in the plan's directory");
    assert_int_equal(plan_dir_write(pd, "sub/x/y", "b", 1, 0644, 0, err, sizeof err), -1);
    assert_int_equal(plan_dir_mkdir(pd, "..", err, sizeof err), -1);
    assert_int_equal(plan_dir_mkdir(pd, "sub", err, sizeof err), -1);
    assert_string_equal(err, "sub: cannot create the directory: File exists");
    /* a copy from a descriptor; a read error names its source */
    int fd = open("/proc/self/exe", O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(plan_dir_copy(pd, "sub/copy", fd, "me", 0755, err, sizeof err), 0);
    close(fd);
    fd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_int_equal(plan_dir_copy(pd, "sub/dir", fd, "a directory", 0644, err, sizeof err), -1);
    assert_string_equal(err, "a directory: read failed: Is a directory");
    close(fd);
    assert_int_equal(plan_dir_commit(pd, err, sizeof err), 0);
    plan_dir_close(pd);
    snprintf(path, sizeof path, "%s/whole.txt", dir);
    char *text = test_read_file(path, NULL);
    assert_string_equal(text, "whole\n");
    free(text);
    snprintf(path, sizeof path, "%s/.whole.txt.partial", dir);
    assert_false(test_exists(path));
    snprintf(path, sizeof path, "%s/sub/copy", dir);
    size_t len, self_len;
    char *copy = test_read_file(path, &len), *self = test_read_file("/proc/self/exe", &self_len);
    assert_int_equal(len, self_len);
    assert_memory_equal(copy, self, len);
    free(copy);
    free(self);
    assert_false(test_exists(in_work(path, "out.txt")));
    test_remove_tree(dir);
}

/* Undo: what was made goes, newest first (files before their directory),
 * staged temporaries too, and the directory when it was made here; in an
 * existing one, it is empty again. */
static void test_undo_removes_exactly_what_was_made(void **state)
{
    (void)state;
    char dir[PATH_MAX], path[PATH_MAX + 64], err[2048];
    for (int existing = 0; existing < 2; existing++) {
        in_work(dir, "undo");
        if (existing)
            assert_int_equal(mkdir(dir, 0755), 0);
        plan_dir *pd = open_ok(dir);
        assert_int_equal(plan_dir_mkdir(pd, "sub", err, sizeof err), 0);
        assert_int_equal(plan_dir_write(pd, "sub/a", "a", 1, 0644, 0, err, sizeof err), 0);
        assert_int_equal(plan_dir_write(pd, "b", "b", 1, 0644, 1, err, sizeof err), 0);
        if (existing)
            assert_int_equal(plan_dir_commit(pd, err, sizeof err), 0);
        assert_int_equal(plan_dir_undo(pd, err, sizeof err), 0);
        if (existing) {
            assert_int_equal(test_entries(dir), 0);
            rmdir(dir);
        } else {
            assert_false(test_exists(dir));
        }
    }
    /* a directory that took the made one's name meanwhile stays */
    in_work(dir, "undo");
    plan_dir *pd = open_ok(dir);
    snprintf(path, sizeof path, "%s.moved", dir);
    assert_int_equal(rename(dir, path), 0);
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_int_equal(plan_dir_undo(pd, err, sizeof err), -1);
    char want[PATH_MAX + 100];
    snprintf(want, sizeof want, "could not remove %s: it is no longer the directory this run made",
             dir);
    assert_string_equal(err, want);
    assert_true(test_exists(dir));
    assert_true(test_exists(path));
    rmdir(dir);
    rmdir(path);
}

/* Two meson tests: `plan_dir`, and `plan_dir_root` (--as-root) for the
 * directory another user owns, which only root can make: without root it
 * exits 77, skipped, or fails under CI (tests/support.h). */
int main(int argc, char **argv)
{
    int as_root = test_has_arg(argc, argv, "--as-root");
    if (as_root && geteuid() != 0)
        return test_cannot_run("plan_dir_root", "needs root (a directory of another user's)",
                               test_in_ci());
    test_plain_env();
    umask(022);
    if (test_make_work_dir(work, "plan-dir") < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_new_directory_is_made_0755_whatever_the_umask),
        cmocka_unit_test(test_an_existing_directory_must_be_empty_yours_and_closed),
        cmocka_unit_test(test_links_and_files_are_refused),
        cmocka_unit_test(test_parents_are_checked),
        cmocka_unit_test(test_files_are_made_new_and_staged_ones_named_at_the_commit),
        cmocka_unit_test(test_undo_removes_exactly_what_was_made),
    };
    const struct CMUnitTest root_tests[] = {
        cmocka_unit_test(test_another_user_s_directory_is_refused),
    };
    int failed = as_root ? cmocka_run_group_tests(root_tests, NULL, NULL)
                         : cmocka_run_group_tests(tests, NULL, NULL);
    test_remove_tree(work);
    return failed;
}
