/* fuzz.h -- what the fuzz targets share: the libFuzzer entry point, the
 * oracle check, and inputs handed to parsers that take a path.
 *
 * Every target defines LLVMFuzzerTestOneInput. Under -Dfuzz=true it links
 * with libFuzzer (-fsanitize=fuzzer); otherwise with replay.c, which runs
 * it over every file of the corpus directories it is given, so each
 * corpus input is a regression test (docs/fuzzing.md).
 *
 * An oracle that fails prints where and why on stderr and aborts: libFuzzer
 * saves the input as a crash, the replay test fails. Nothing here keeps
 * state between inputs.
 */
#ifndef REGIONSIM_FUZZ_H
#define REGIONSIM_FUZZ_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#if defined(__GNUC__)
#define FUZZ_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define FUZZ_PRINTF(f, a)
#endif

/* The oracle failed: says which check, where, and why; aborts. */
FUZZ_PRINTF(4, 5)
static inline void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    fprintf(stderr, "%s:%d: oracle failed: %s\n  ", file, line, cond);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    abort();
}

/* FUZZ_CHECK(cond, "printf format", ...): the format needs one argument at
 * least; use "%s", "" for none. */
#define FUZZ_CHECK(cond, ...) \
    do { \
        if (!(cond)) \
            fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); \
    } while (0)

/* A malloc'd NUL-terminated copy of the first size bytes (it ends at the
 * first NUL byte, as a C string does). Aborts when out of memory: the
 * fuzzer's own limits decide how large an input is. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* An anonymous in-memory file holding data, for parsers that take a path:
 * returns its descriptor and writes "/proc/self/fd/N" into path (the path
 * opens the file afresh, at offset 0). Close the descriptor when done. */
int fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t cap);

/* Lines in text the way a line-counting reader sees them: '\n's, plus one
 * for a last line without one. */
static inline size_t fuzz_count_lines(const uint8_t *data, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i < size; i++)
        n += data[i] == '\n';
    return n + (size > 0 && data[size - 1] != '\n');
}

/* If msg starts with "<prefix>:<N>: " (N decimal, no sign), sets *n and
 * returns the text after it; else NULL. */
static inline const char *fuzz_after_place(const char *msg, const char *prefix, unsigned long long *n)
{
    size_t pl = strlen(prefix);
    if (strncmp(msg, prefix, pl) != 0 || msg[pl] != ':')
        return NULL;
    const char *p = msg + pl + 1;
    if (*p < '0' || *p > '9')
        return NULL;
    unsigned long long v = 0;
    for (; *p >= '0' && *p <= '9'; p++)
        v = v > 1000000000000ull ? v : v * 10 + (unsigned long long)(*p - '0');
    if (p[0] != ':' || p[1] != ' ')
        return NULL;
    *n = v;
    return p + 2;
}

#endif
