/* fuzz_trace.c -- the trace reader (workloads/trace.h), both formats.
 *
 * Input: the bytes of a trace file, read through a file of its own
 * (trace_open_format takes a path), once as the CSV format and once as
 * YCSB's BasicDB output, the latter with an interval chosen by the first
 * byte (0, 1, 1000 or (2^64 - 1) / 3, which runs past TRACE_TIME_MAX at
 * the fourth operation).
 *
 * Oracles:
 *  - every operation read has an op up to readmodifywrite, a key of
 *    1 .. 32767 bytes (KEY_MAX_LEN), a value size below 2^31, a time no
 *    earlier than the one before (and at most TRACE_TIME_MAX), seq 0, 1,
 *    2, ..., and NAMING_KEY; a scan has rows 1 .. 2^31 - 1 and no value
 *    bytes or cells, any other op no rows; the CSV format sets cells only
 *    on a put or readmodifywrite (its cells column), 1 .. 2^31 - 1;
 *  - YCSB: the ops are put, get, delete and scan only, the i-th at
 *    i * interval; only a put has cells or value bytes, no more of either
 *    than the input's bytes, and value bytes only with cells;
 *  - an error reads "FILE:LINE: ..." with the path given and a LINE of
 *    the file (1 .. its line count); every later call returns -1 with the
 *    same message; a file read to its end keeps returning 0;
 *  - what was read writes (trace_writer_new, trace_write: CSV and TSV) and
 *    reads back as the same operations (time, op, key, value bytes, rows,
 *    cells; one cell reads back as no cells column), and the written file
 *    ends there;
 *  - each key's shell form (key_format) parses back (key_parse) to it.
 */
#include "fuzz/fuzz.h"

#include "core/key.h"
#include "workloads/trace.h"

#define MAX_OPS 4096 /* operations compared in the round trip; the rest only read */

typedef struct op_copy {
    uint64_t t_us;
    uint8_t op;
    uint32_t bytes;
    uint32_t rows;
    uint32_t cells;
    uint8_t *key;
    size_t len;
} op_copy;

/* Reads path back and compares it with ops[0..n). */
static void check_reads_back(const char *path, const op_copy *ops, size_t n, const char *what)
{
    char err[2048];
    trace_reader *t = trace_open(path, err, sizeof err);
    FUZZ_CHECK(t != NULL, "the %s written cannot be opened: %s", what, err);
    for (size_t i = 0; i <= n; i++) {
        uint64_t t_us;
        record r;
        int rc = trace_next(t, &t_us, &r, err, sizeof err);
        if (i == n) {
            FUZZ_CHECK(rc == 0, "the %s written has more than the %zu operations read (rc %d: %s)",
                       what, n, rc, rc < 0 ? err : "");
            break;
        }
        FUZZ_CHECK(rc == 1, "the %s written ends at operation %zu of %zu (rc %d: %s)",
                   what, i, n, rc, rc < 0 ? err : "");
        FUZZ_CHECK(t_us == ops[i].t_us && r.op == ops[i].op && r.value_bytes == ops[i].bytes &&
                   r.rows == ops[i].rows && r.cells == (ops[i].cells > 1 ? ops[i].cells : 0) &&
                   r.key_len == ops[i].len && !memcmp(r.key, ops[i].key, ops[i].len),
                   "operation %zu reads back different from the %s written", i, what);
    }
    trace_close(t);
}

/* Writes ops[0..n) as CSV or TSV (trace_writer_new) to a file of its own
 * and reads it back. */
static void check_round_trip(const op_copy *ops, size_t n, int tsv)
{
    char path[64], err[2048];
    int fd = fuzz_memfile(NULL, 0, path, sizeof path);
    int wfd = dup(fd);
    FILE *f = wfd >= 0 ? fdopen(wfd, "w") : NULL;
    FUZZ_CHECK(f != NULL, "%s", "fdopen failed");
    trace_writer *tw = trace_writer_new(f, path, tsv, err, sizeof err);
    FUZZ_CHECK(tw != NULL, "trace_writer_new: %s", err);
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK(trace_write_cells(tw, ops[i].t_us, (record_op)ops[i].op, ops[i].key,
                                     ops[i].len, ops[i].op == RECORD_SCAN ? ops[i].rows
                                                                          : ops[i].bytes,
                                     ops[i].cells) == 0,
                   "trace_write refused operation %zu, which the reader accepted", i);
    FUZZ_CHECK(trace_finish(tw, err, sizeof err) == 0, "trace_finish: %s", err);
    FUZZ_CHECK(fclose(f) == 0, "%s", "fclose failed");
    check_reads_back(path, ops, n, tsv ? "TSV" : "CSV");
    close(fd);
}

/* The oracles on one operation that do not depend on the ones before. */
static void check_record(const record *r, trace_format fmt, size_t size)
{
    FUZZ_CHECK(r->op <= RECORD_RMW, "op %u", r->op);
    FUZZ_CHECK(r->key_len >= 1 && r->key_len <= KEY_MAX_LEN && r->key != NULL,
               "key of %u bytes", r->key_len);
    FUZZ_CHECK(r->value_bytes <= INT32_MAX, "bytes %u", r->value_bytes);
    FUZZ_CHECK(r->naming == NAMING_KEY, "%s", "a trace record not named by its key");
    if (r->op == RECORD_SCAN)
        FUZZ_CHECK(r->rows >= 1 && r->rows <= INT32_MAX && r->value_bytes == 0 && r->cells == 0,
                   "a scan of %u rows, %u bytes, %u cells", r->rows, r->value_bytes, r->cells);
    else
        FUZZ_CHECK(r->rows == 0, "a %s of %u rows", record_op_name((record_op)r->op), r->rows);
    if (fmt == TRACE_FORMAT_CSV) {
        FUZZ_CHECK(r->cells <= INT32_MAX &&
                   (r->cells == 0 || r->op == RECORD_PUT || r->op == RECORD_RMW),
                   "%u cells on a %s from the CSV format", r->cells,
                   record_op_name((record_op)r->op));
        return;
    }
    FUZZ_CHECK(r->op != RECORD_RMW, "%s", "YCSB's output gave a readmodifywrite");
    if (r->op != RECORD_PUT)
        FUZZ_CHECK(r->cells == 0 && r->value_bytes == 0, "a %s of %u cells, %u bytes",
                   record_op_name((record_op)r->op), r->cells, r->value_bytes);
    FUZZ_CHECK(r->cells <= size && r->value_bytes <= size && (r->cells > 0 || !r->value_bytes),
               "a put of %u cells, %u bytes from %zu bytes of input", r->cells, r->value_bytes,
               size);
}

/* Reads the input in format fmt and checks every oracle. */
static void check_format(const uint8_t *data, size_t size, trace_format fmt, uint64_t interval)
{
    char path[64], err[2048], err2[2048];
    int fd = fuzz_memfile(data, size, path, sizeof path);
    size_t lines = fuzz_count_lines(data, size);
    trace_reader *t = trace_open_format(path, fmt, interval, err, sizeof err);
    FUZZ_CHECK(t != NULL, "trace_open_format: %s", err);

    op_copy *ops = NULL;
    size_t n = 0, cap = 0, total = 0;
    uint64_t last = 0;
    int rc;
    for (;;) {
        uint64_t t_us;
        record r;
        rc = trace_next(t, &t_us, &r, err, sizeof err);
        if (rc != 1)
            break;
        check_record(&r, fmt, size);
        FUZZ_CHECK(r.seq == total, "seq %llu for operation %zu", (unsigned long long)r.seq,
                   total);
        FUZZ_CHECK(total == 0 || t_us >= last, "time %llu after %llu",
                   (unsigned long long)t_us, (unsigned long long)last);
        FUZZ_CHECK(fmt != TRACE_FORMAT_YCSB || t_us == total * interval,
                   "YCSB operation %zu at %llu, not %zu x %llu", total,
                   (unsigned long long)t_us, total, (unsigned long long)interval);
#ifdef TRACE_TIME_MAX
        FUZZ_CHECK(t_us <= TRACE_TIME_MAX, "time %llu", (unsigned long long)t_us);
#endif
        last = t_us;
        total++;

        /* the key's shell form reads back */
        size_t flen = key_format_len(keyref_of(r.key, r.key_len));
        char *shell = malloc(flen + 1);
        uint8_t *back = malloc(r.key_len);
        FUZZ_CHECK(shell && back, "%s", "out of memory");
        FUZZ_CHECK(key_format(keyref_of(r.key, r.key_len), shell, flen + 1) == flen &&
                   strlen(shell) == flen, "%s", "key_format's length");
        size_t blen = 0, bad = 0;
        FUZZ_CHECK(key_parse(shell, flen, back, r.key_len, &blen, &bad) == 0 &&
                   blen == r.key_len && !memcmp(back, r.key, blen),
                   "the shell form '%s' does not read back to its key", shell);
        free(shell);
        free(back);

        if (n < MAX_OPS) {
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                op_copy *p = realloc(ops, cap * sizeof *p);
                FUZZ_CHECK(p != NULL, "%s", "out of memory");
                ops = p;
            }
            ops[n] = (op_copy){ t_us, r.op, r.value_bytes, r.rows, r.cells, malloc(r.key_len),
                                r.key_len };
            FUZZ_CHECK(ops[n].key != NULL, "%s", "out of memory");
            memcpy(ops[n].key, r.key, r.key_len);
            n++;
        }
    }
    if (rc < 0) {
        unsigned long long line = 0;
        FUZZ_CHECK(fuzz_after_place(err, path, &line) != NULL,
                   "the error does not start with FILE:LINE: '%s'", err);
        FUZZ_CHECK(line >= 1 && line <= lines,
                   "the error names line %llu of a file of %zu lines: '%s'", line, lines, err);
        uint64_t t_us;
        record r;
        FUZZ_CHECK(trace_next(t, &t_us, &r, err2, sizeof err2) == -1 && !strcmp(err, err2),
                   "after an error, trace_next gave something else: '%s' then '%s'", err, err2);
    } else {
        FUZZ_CHECK(rc == 0, "trace_next returned %d", rc);
        uint64_t t_us;
        record r;
        FUZZ_CHECK(trace_next(t, &t_us, &r, err2, sizeof err2) == 0, "%s",
                   "trace_next after the end returned more");
    }
    trace_close(t);
    close(fd);

    if (n > 0) {
        check_round_trip(ops, n, 0);
        check_round_trip(ops, n, 1);
    }
    for (size_t i = 0; i < n; i++)
        free(ops[i].key);
    free(ops);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint64_t intervals[] = { 0, 1, 1000, UINT64_MAX / 3 };
    check_format(data, size, TRACE_FORMAT_CSV, 0);
    check_format(data, size, TRACE_FORMAT_YCSB, intervals[size ? data[0] % 4 : 0]);
    return 0;
}
