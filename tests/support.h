/* support.h -- small helpers the test programs share.
 *
 * Header-only (static functions) so that every test program stays one
 * source file linked against its own layer only. */
#ifndef REGIONSIM_TEST_SUPPORT_H
#define REGIONSIM_TEST_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
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
