/* support.h -- small helpers the test programs share.
 *
 * Header-only (static functions) so that every test program stays one
 * source file linked against its own layer only. */
#ifndef REGIONSIM_TEST_SUPPORT_H
#define REGIONSIM_TEST_SUPPORT_H

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef fail_msg /* included after cmocka.h */
#include <math.h>
/* a == b within eps, naming the expression and both values when not
 * (cmocka 1.1 has assert_float_equal but no double version). */
#define assert_double_equal(a, b, eps) test_assert_near((a), (b), (eps), #a)
static inline void test_assert_near(double a, double b, double eps, const char *what)
{
    if (!(fabs(a - b) <= eps)) fail_msg("%s = %.17g, expected %.17g", what, a, b);
}

/* text (NULL fails) contains part; names both when not. */
static inline void assert_contains(const char *text, const char *part)
{
    if (!text) /* (also keeps GCC's -Wformat-overflow from seeing a NULL below) */
        fail_msg("NULL does not contain '%s'", part);
    else if (!strstr(text, part))
        fail_msg("'%s' does not contain '%s'", text, part);
}

/* A file's bytes, NUL-terminated (*len, if len, without the NUL), or
 * NULL (*len 0) when it cannot be opened. The caller frees. */
static inline char *test_read_file(const char *path, size_t *len)
{
    if (len)
        *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap * 2 + 8192;
            text = realloc(text, cap);
            assert_non_null(text);
        }
        size_t got = fread(text + n, 1, cap - n - 1, f);
        n += got;
        if (!got)
            break;
    }
    fclose(f);
    text[n] = '\0';
    if (len)
        *len = n;
    return text;
}
#endif

/* AddressSanitizer reserves terabytes of address space: under it a
 * child cannot be given an address-space limit (RLIMIT_AS). */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

/* ---- checks that need what a machine may lack ----
 *
 * A check that needs a tool (xmllint), a file that is not in the tree
 * (the JUnit schema), or a build without AddressSanitizer runs as a meson
 * test of its own: the same program with a mode argument (`test_junit
 * DATA_DIR --schema`), whose main asks first whether it can run. When it
 * cannot, test_cannot_run says why and returns meson's skip code 77, so
 * that meson counts the check as skipped; a cmocka skip() inside a program
 * whose other checks pass would go uncounted ("0 skipped"). Where the
 * check must run (required: under CI, where `sh setup.sh --tests` installs
 * every tool), it returns 1, a failure, instead. */

/* CI is set and is not "false" or "0" (as tests/lib.sh's in_ci). */
static inline int test_in_ci(void)
{
    const char *v = getenv("CI");
    return v && *v && strcmp(v, "false") != 0 && strcmp(v, "0") != 0;
}

/* "PROGRAM: SKIP: why" and 77, or, when required, "PROGRAM: FAIL: why"
 * and 1: main's exit status when its checks cannot run here. */
static inline int test_cannot_run(const char *program, const char *why, int required)
{
    if (required) {
        fprintf(stderr, "%s: FAIL: %s (this check must run here: `sh setup.sh --tests`"
                " installs what it needs)\n", program, why);
        return 1;
    }
    printf("%s: SKIP: %s\n", program, why);
    return 77;
}

/* argv has the argument arg (a mode such as "--xmllint"). */
static inline int test_has_arg(int argc, char **argv, const char *arg)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], arg) == 0)
            return 1;
    return 0;
}

/* xmllint is on PATH. */
static inline int test_have_xmllint(void)
{
    return system("command -v xmllint >/dev/null 2>&1") == 0;
}

/* The environment a test's output may depend on, made plain: LC_ALL=C,
 * TZ=UTC, NO_COLOR=1, TERM=dumb (a test that needs another sets it after). */
static inline void test_plain_env(void)
{
    setenv("LC_ALL", "C", 1);
    setenv("TZ", "UTC", 1);
    setenv("NO_COLOR", "1", 1);
    setenv("TERM", "dumb", 1);
}

/* The entries of directory dir other than . and .. (-1: it cannot be
 * read). */
static inline int test_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* Whether path exists (a symlink as itself: not followed). */
static inline int test_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Removes dir and everything below it; no symlink is followed. */
static inline void test_remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        unlink(dir); /* (a file or a link: removed as itself) */
        return;
    }
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char p[PATH_MAX + 256];
        int n = snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (n < 0 || (size_t)n >= sizeof p)
            continue; /* too long to name: left */
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            test_remove_tree(p);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

#if defined(_XOPEN_SOURCE) && _XOPEN_SOURCE >= 500 /* realpath */
/* A new private directory $TMPDIR/<prefix>-XXXXXX (/tmp without TMPDIR),
 * by its real path (symlinks resolved), into out (PATH_MAX bytes).
 * Returns 0, or -1 with the reason printed. */
static inline int test_make_work_dir(char *out, const char *prefix)
{
    const char *tmp = getenv("TMPDIR");
    char made[PATH_MAX];
    snprintf(made, sizeof made, "%s/%s-XXXXXX", tmp && tmp[0] ? tmp : "/tmp", prefix);
    if (!mkdtemp(made) || !realpath(made, out)) {
        perror(made);
        return -1;
    }
    return 0;
}
#endif

/* Writes text to a new file /tmp/<prefix>-XXXXXX and returns its path in
 * a static buffer (valid until the next call). Aborts the test on failure. */
static inline const char *test_temp_file(const char *prefix, const char *text)
{
    static char path[128];
    snprintf(path, sizeof path, "/tmp/%s-XXXXXX", prefix);
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write a temporary file %s\n", path);
        abort();
    }
    return path;
}

#endif
