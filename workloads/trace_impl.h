/* trace_impl.h -- what the trace reader's source files share (not a public
 * interface: only workloads/trace*.c include it; the API is
 * workloads/trace.h).
 *
 * The trace reader is one concept in two formats, one file each:
 *  - trace.c: the reader itself (opening, streaming lines, stopping with a
 *    message) and regionsim's own format (CSV or TSV), plus the writer;
 *  - trace_ycsb.c: YCSB's format, the lines site.ycsb.BasicDB prints with
 *    basicdb.verbose=true.
 * This header holds the reader's state, which both formats fill, and the
 * few functions one file offers the other (prefix trace_). Everything only
 * one file uses stays static in that file.
 */
#ifndef REGIONSIM_TRACE_IMPL_H
#define REGIONSIM_TRACE_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/key.h"
#include "workloads/record.h"
#include "workloads/trace.h"

#define LINE_MAX_BYTES ((size_t)1 << 20) /* longest line accepted, without '\n' */
#define MSG_CAP 1024

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

struct trace_reader {
    FILE *f;
    char *path;
    char *line;         /* the current line, NUL-terminated */
    size_t line_cap;    /* <= LINE_MAX_BYTES + 1 */
    uint64_t lineno;    /* 1-based number of the current line */
    trace_format format;
    uint64_t interval_us; /* YCSB: the time between two operations */
    char delim;         /* '\t' or ','; 0 until the first significant line */
    int failed;         /* a line was malformed: msg holds why */
    uint64_t seq;       /* operations returned so far */
    uint64_t last_t_us; /* time of the previous operation */
    uint8_t key[KEY_MAX_LEN];
    char msg[MSG_CAP];
};

/* ---- offered by trace.c ---- */

/* Stops the reader: msg = "FILE:LINE: <what>, found '<token>'" (without
 * ", found ..." if token is NULL). Returns -1. */
PRINTF_LIKE(4, 5)
int trace_fail(trace_reader *t, const char *token, size_t token_len, const char *what, ...);

/* A scan's rows: digits only, 1 .. 2^31 - 1. 0, or -1 (reader stopped). */
int trace_parse_rows(trace_reader *t, const char *text, size_t len, uint32_t *rows);

/* Fills *t_us and *out with the operation read (the key is in t->key;
 * value bytes, cells and rows are left 0 for the caller) and counts it. */
void trace_fill_record(trace_reader *t, uint64_t time, record_op op, size_t key_len,
                       uint64_t *t_us, record *out);

/* ---- offered by trace_ycsb.c ---- */

/* One line of BasicDB's output: 1 with an operation, 0 for a line that is
 * not one, -1 for an operation's line that is malformed. */
int trace_ycsb_line(trace_reader *t, const char *line, size_t len, uint64_t *t_us, record *out);

#endif
