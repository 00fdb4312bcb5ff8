/* trace.c -- recorded operations: read a trace, write one.
 *
 * Reader. A trace can be far larger than memory, so the reader streams it:
 * one line at a time into one reused line buffer, fields split in place,
 * the key decoded into a key buffer of KEY_MAX_LEN bytes owned by the
 * reader (record.key points there until the next call). Memory is fixed
 * after the longest line: nothing grows with the number of lines.
 *
 * Lines are read with getc_unlocked rather than getline: getline would
 * happily swallow a multi-gigabyte line (a binary file given by mistake)
 * before we could refuse it, while our own loop stops at LINE_MAX_BYTES, so
 * the line buffer never exceeds 1 MiB. It also keeps NUL bytes counted
 * (unlike fgets). The price is a per-character loop, which getc_unlocked
 * makes cheap: the reader is single-threaded, so no stdio locking.
 *
 * Dialect. The delimiter is chosen on the first line that is neither empty
 * nor a comment: tab if it holds one, else comma. That line is skipped if
 * it is exactly the header "time,op,key" or "time,op,key,bytes". CSV fields
 * may be quoted per RFC 4180 ("a,b", "" for a quote), unquoted in place;
 * a quoted field cannot span lines (a line-based reader cannot allow it,
 * and keys never need it: \x0A is the way to write a newline). A '"' in
 * the middle of an unquoted field is taken literally. TSV is never quoted.
 * CR before LF is dropped. Fields are not trimmed: " put" is a bad op.
 * Op names are matched without regard to ASCII case, YCSB's included
 * (insert, update, read), since YCSB prints its verbs in upper case. The
 * fourth column is a scan's row count, required, and otherwise the
 * optional value size.
 *
 * YCSB. With TRACE_FORMAT_YCSB the lines are what site.ycsb.BasicDB
 * prints with basicdb.verbose=true; trace_ycsb.c parses them (its top
 * comment has the format) through the same reader: the streaming, the
 * line numbers and the errors below are this file's for both formats.
 *
 * Errors. A malformed line stops the reader for good: the message
 * "FILE:LINE: what was wrong: expected what, found 'token'" is kept in the
 * reader and handed out again on every later call, so a caller that
 * ignores one -1 cannot read past the bad line. Tokens are shown with
 * non-printable bytes as \xNN and cut to a few dozen characters.
 *
 * Writer. Plain buffered stdio on a stream the caller opened: the writer
 * never opens, renames or removes a file. Which file a trace goes to, and
 * whether it is written under a temporary name and renamed or written in
 * place (a device, a FIFO), is cli/output.c's rule; workloads/ must not
 * depend on cli/ (data flows workloads -> engine -> reports), so the program
 * opens the file there and hands the writer its FILE *. The key is printed in shell form
 * (key_format) in slices of a fixed stack buffer, so no key length needs
 * an allocation; in CSV the two characters that would need quoting, ','
 * and '"', are written as \x2C and \x22 instead (a key starting with '"'
 * would otherwise read back as a quoted field). Shell form never holds a
 * tab or newline, so TSV needs nothing. The writer also refuses what the
 * reader would refuse (an empty or over-long key, a time going backwards
 * or past TRACE_TIME_MAX, bytes >= 2^31, a scan of 0 rows or 2^31 or
 * more), so every file it writes reads back. Ops are written by their own
 * names (record_op_name), never YCSB's, and a scan always with its rows. The first error is kept and reported with the name by
 * trace_finish.
 */
#include "workloads/trace_impl.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_FIRST_CAP 256               /* the line buffer's starting size */
#define FIELDS_MAX 5                     /* time, op, key, bytes or rows, cells */
#define BYTES_MAX INT32_MAX              /* value sizes are < 2^31 */
#define ROWS_MAX INT32_MAX               /* a scan's rows, 1 .. 2^31 - 1 (YCSB's int) */
#define TOKEN_SHOWN 40                   /* token bytes quoted in a message */

/* The op column's names, matched in any case, and what each reads as. */
static const struct op_name {
    const char *name;
    record_op op;
} op_names[] = {
    { "put", RECORD_PUT }, { "get", RECORD_GET }, { "delete", RECORD_DELETE },
    { "scan", RECORD_SCAN }, { "readmodifywrite", RECORD_RMW },
    { "insert", RECORD_PUT }, { "update", RECORD_PUT }, { "read", RECORD_GET },
};
#define OP_NAMES_EXPECTED "put, get, delete, scan, readmodifywrite, insert, update or read"

/* Copies msg into err (errcap bytes), if the caller gave room. */
static void copy_message(char *err, size_t errcap, const char *msg)
{
    if (err && errcap)
        snprintf(err, errcap, "%s", msg);
}

/* ------------------------------------------------------------------ */
/* Reader                                                              */
/* ------------------------------------------------------------------ */

/* One field of a line: text (unquoted), and where its raw form began. */
typedef struct field {
    char *text;
    size_t len;
    size_t col;  /* 0-based column of the field's first raw character */
    int quoted;  /* the raw form was "..." */
} field;

/* Renders len bytes of s for a message: printable ASCII as itself, other
 * bytes as \xNN, "..." after TOKEN_SHOWN bytes. */
static void render_token(const char *s, size_t len, char *out, size_t cap)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0, shown = len < TOKEN_SHOWN ? len : TOKEN_SHOWN;
    assert(cap >= 4 * TOKEN_SHOWN + 4);
    (void)cap; /* only the assert reads it */
    for (size_t i = 0; i < shown; i++) {
        unsigned char b = (unsigned char)s[i];
        if (b >= ' ' && b <= '~') {
            out[n++] = (char)b;
        } else {
            out[n++] = '\\';
            out[n++] = 'x';
            out[n++] = hex[b >> 4];
            out[n++] = hex[b & 15];
        }
    }
    if (shown < len)
        for (int i = 0; i < 3; i++)
            out[n++] = '.';
    out[n] = '\0';
}

int trace_fail(trace_reader *t, const char *token, size_t token_len, const char *what, ...)
{
    char shown[4 * TOKEN_SHOWN + 4];
    char text[MSG_CAP / 2];
    va_list ap;
    va_start(ap, what);
    vsnprintf(text, sizeof text, what, ap);
    va_end(ap);
    t->failed = 1;
    if (token) {
        render_token(token, token_len, shown, sizeof shown);
        snprintf(t->msg, sizeof t->msg, "%s:%" PRIu64 ": %s, found '%s'",
                 t->path, t->lineno, text, shown);
    } else {
        snprintf(t->msg, sizeof t->msg, "%s:%" PRIu64 ": %s", t->path, t->lineno, text);
    }
    return -1;
}

int trace_format_parse(const char *name, trace_format *out)
{
    if (strcmp(name, "regionsim") == 0 || strcmp(name, "csv") == 0)
        *out = TRACE_FORMAT_CSV;
    else if (strcmp(name, "ycsb") == 0)
        *out = TRACE_FORMAT_YCSB;
    else
        return -1;
    return 0;
}

trace_reader *trace_open(const char *path, char *err, size_t errcap)
{
    return trace_open_format(path, TRACE_FORMAT_CSV, 0, err, errcap);
}

trace_reader *trace_open_format(const char *path, trace_format fmt, uint64_t interval_us,
                                char *err, size_t errcap)
{
    if (fmt != TRACE_FORMAT_CSV && fmt != TRACE_FORMAT_YCSB) {
        copy_message(err, errcap, "unknown trace format");
        return NULL;
    }
    trace_reader *t = calloc(1, sizeof *t);
    if (!t) {
        copy_message(err, errcap, "out of memory");
        return NULL;
    }
    t->format = fmt;
    t->interval_us = interval_us;
    t->path = malloc(strlen(path) + 1);
    t->line = malloc(LINE_FIRST_CAP);
    t->line_cap = LINE_FIRST_CAP;
    if (!t->path || !t->line) {
        copy_message(err, errcap, "out of memory");
        trace_close(t);
        return NULL;
    }
    strcpy(t->path, path);
    t->f = fopen(path, "r");
    if (!t->f) {
        if (err && errcap)
            snprintf(err, errcap, "%s: %s", path, strerror(errno));
        trace_close(t);
        return NULL;
    }
    return t;
}

void trace_close(trace_reader *t)
{
    if (!t)
        return;
    if (t->f)
        fclose(t->f);
    free(t->line);
    free(t->path);
    free(t);
}

/* Doubles the line buffer, never beyond LINE_MAX_BYTES + 1. */
static int grow_line(trace_reader *t)
{
    size_t cap = t->line_cap * 2;
    if (cap > LINE_MAX_BYTES + 1)
        cap = LINE_MAX_BYTES + 1;
    assert(cap > t->line_cap);
    char *p = realloc(t->line, cap);
    if (!p)
        return -1;
    t->line = p;
    t->line_cap = cap;
    return 0;
}

/* Reads the next line into t->line without its '\n' and counts it.
 * Returns 1 with *len set, 0 at the end of the file, -1 (reader stopped)
 * on a read error or a line longer than LINE_MAX_BYTES. */
static int read_line(trace_reader *t, size_t *len)
{
    size_t n = 0;
    int c;
    while ((c = getc_unlocked(t->f)) != EOF && c != '\n') {
        if (n + 1 >= t->line_cap) {
            if (n == LINE_MAX_BYTES) {
                t->lineno++;
                return trace_fail(t, t->line, n, "line too long: expected at most "
                                  "%zu bytes", LINE_MAX_BYTES);
            }
            if (grow_line(t) < 0) {
                t->lineno++;
                return trace_fail(t, NULL, 0, "out of memory");
            }
        }
        t->line[n++] = (char)c;
    }
    assert(n < t->line_cap && t->line_cap <= LINE_MAX_BYTES + 1);
    if (c == EOF && ferror(t->f)) {
        t->lineno++;
        return trace_fail(t, NULL, 0, "read error: %s", strerror(errno));
    }
    if (c == EOF && n == 0)
        return 0;
    t->lineno++;
    if (n > 0 && t->line[n - 1] == '\r')
        n--;
    t->line[n] = '\0';
    *len = n;
    return 1;
}

/* Is the line exactly one of the two headers, with delimiter d? */
static int is_header(const char *line, size_t len, char d)
{
    char headers[3][32] = { "time,op,key", "time,op,key,bytes", "time,op,key,bytes,cells" };
    int match = 0;
    for (int h = 0; h < 3; h++) {
        for (char *p = headers[h]; *p; p++)
            if (*p == ',')
                *p = d;
        match |= len == strlen(headers[h]) && memcmp(line, headers[h], len) == 0;
    }
    return match;
}

/* Unquotes the CSV field whose opening '"' is at line[start], in place.
 * Sets *f and *end (index just past the closing quote). */
static int unquote_field(trace_reader *t, char *line, size_t len, size_t start,
                         field *f, size_t *end)
{
    assert(line[start] == '"');
    size_t close = start + 1;
    while (close < len && !(line[close] == '"' &&
                            (close + 1 >= len || line[close + 1] != '"')))
        close += line[close] == '"' ? 2 : 1;
    if (close >= len)
        return trace_fail(t, line + start, len - start,
                          "unterminated quoted field: expected a closing '\"'");
    if (close + 1 < len && line[close + 1] != t->delim)
        return trace_fail(t, line + start, len - start,
                          "text after a closing quote: expected '%s' or the end of the line",
                          t->delim == '\t' ? "\\t" : ",");
    size_t w = start + 1;
    for (size_t r = start + 1; r < close; r++, w++) {
        line[w] = line[r];
        if (line[r] == '"')
            r++; /* "" stands for one quote */
    }
    f->text = line + start + 1;
    f->len = w - (start + 1);
    f->col = start;
    f->quoted = 1;
    *end = close + 1;
    return 0;
}

/* Splits the line into at most FIELDS_MAX + 1 fields (one more than
 * allowed, to tell "too many"). Sets *count. */
static int split_fields(trace_reader *t, char *line, size_t len,
                        field fields[FIELDS_MAX + 1], int *count)
{
    size_t pos = 0;
    int n = 0;
    for (;;) {
        field *f = &fields[n++];
        size_t end = len;
        if (t->delim == ',' && pos < len && line[pos] == '"' && n <= FIELDS_MAX) {
            if (unquote_field(t, line, len, pos, f, &end) < 0)
                return -1;
        } else {
            const char *d = n <= FIELDS_MAX ? memchr(line + pos, t->delim, len - pos) : NULL;
            end = d ? (size_t)(d - line) : len;
            f->text = line + pos;
            f->len = end - pos;
            f->col = pos;
            f->quoted = 0;
        }
        if (end >= len || n == FIELDS_MAX + 1)
            break;
        assert(line[end] == t->delim);
        pos = end + 1;
    }
    *count = n;
    return 0;
}

/* Parses a decimal integer of digits only, at most max. 0 on success,
 * -1 if not digits, -2 if too large. */
static int parse_uint(const field *f, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (f->len == 0)
        return -1;
    for (size_t i = 0; i < f->len; i++)
        if (f->text[i] < '0' || f->text[i] > '9')
            return -1;
    for (size_t i = 0; i < f->len; i++) {
        unsigned d = (unsigned)(f->text[i] - '0');
        if (v > (max - d) / 10)
            return -2;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int parse_time(trace_reader *t, const field *f, uint64_t *t_us)
{
    int r = parse_uint(f, TRACE_TIME_MAX, t_us);
    if (r == -1)
        return trace_fail(t, f->text, f->len,
                          "bad time: expected a non-negative integer of microseconds");
    if (r == -2)
        return trace_fail(t, f->text, f->len,
                          "time out of range: expected at most %" PRIu64
                          " microseconds (2^64 - 1 is the simulator's 'never')",
                          (uint64_t)TRACE_TIME_MAX);
    if (t->seq > 0 && *t_us < t->last_t_us)
        return trace_fail(t, f->text, f->len,
                          "time %" PRIu64 " is before the previous operation's %" PRIu64,
                          *t_us, t->last_t_us);
    return 0;
}

/* Is text[0..len) the lower-case word `word`, in any ASCII case? */
static int same_word_nocase(const char *text, size_t len, const char *word)
{
    if (len != strlen(word))
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i] >= 'A' && text[i] <= 'Z' ? (char)(text[i] - 'A' + 'a') : text[i];
        if (c != word[i])
            return 0;
    }
    return 1;
}

static int parse_op(trace_reader *t, const field *f, record_op *op)
{
    for (size_t i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
        if (same_word_nocase(f->text, f->len, op_names[i].name)) {
            *op = op_names[i].op;
            return 0;
        }
    return trace_fail(t, f->text, f->len, "bad op: expected " OP_NAMES_EXPECTED);
}

/* 1-based column in the line of character i of field f's (unquoted) text:
 * every '"' before it came from two raw characters. */
static size_t line_column(const field *f, size_t i)
{
    size_t col = f->col + i + 1;
    if (f->quoted) {
        col++;
        for (size_t j = 0; j < i; j++)
            col += f->text[j] == '"';
    }
    return col;
}

/* Is text[i..] a well-formed \xNN escape? */
static int is_escape(const char *text, size_t len, size_t i)
{
    const char *hex = "0123456789abcdefABCDEF";
    return i + 4 <= len && text[i] == '\\' && text[i + 1] == 'x' &&
           text[i + 2] && strchr(hex, text[i + 2]) &&
           text[i + 3] && strchr(hex, text[i + 3]);
}

static int parse_key(trace_reader *t, const field *f, size_t *key_len)
{
    size_t bad;
    if (f->len == 0)
        return trace_fail(t, f->text, 0, "empty key: expected 1..%d bytes", KEY_MAX_LEN);
    if (key_parse(f->text, f->len, t->key, sizeof t->key, key_len, &bad) == 0) {
        assert(*key_len >= 1 && *key_len <= KEY_MAX_LEN);
        return 0;
    }
    assert(bad < f->len);
    /* key_parse checks an escape before the room for its byte: a failure
     * at a well-formed escape or a plain byte means the key is too long. */
    if (f->text[bad] != '\\' || is_escape(f->text, f->len, bad))
        return trace_fail(t, f->text, f->len,
                          "key too long: expected at most %d bytes (HBase's row limit)",
                          KEY_MAX_LEN);
    size_t shown = f->len - bad < 4 ? f->len - bad : 4;
    return trace_fail(t, f->text + bad, shown,
                      "bad escape at column %zu of the key (column %zu of the line): "
                      "expected \\xNN", bad + 1, line_column(f, bad));
}

/* A count column, digits only, 1 .. 2^31 - 1: a scan's rows, or a put's
 * cells (how many cells of the row it writes, YCSB's fields; its bytes
 * are then their values' bytes together). `what` names it in the
 * message. 0, or -1 (reader stopped). */
static int parse_count(trace_reader *t, const char *text, size_t len, const char *what,
                       uint32_t *count)
{
    field f = { (char *)text, len, 0, 0 };
    uint64_t v;
    if (parse_uint(&f, ROWS_MAX, &v) < 0 || v == 0)
        return trace_fail(t, text, len, "bad %s: expected an integer from 1 to %d", what,
                          ROWS_MAX);
    *count = (uint32_t)v;
    return 0;
}

static int parse_bytes(trace_reader *t, const field *f, uint32_t *bytes)
{
    uint64_t v;
    if (parse_uint(f, BYTES_MAX, &v) < 0)
        return trace_fail(t, f->text, f->len,
                          "bad bytes: expected an integer from 0 to %d", BYTES_MAX);
    *bytes = (uint32_t)v;
    return 0;
}

int trace_parse_rows(trace_reader *t, const char *text, size_t len, uint32_t *rows)
{
    return parse_count(t, text, len, "rows", rows);
}

void trace_fill_record(trace_reader *t, uint64_t time, record_op op, size_t key_len,
                       uint64_t *t_us, record *out)
{
    memset(out, 0, sizeof *out);
    out->seq = t->seq++;
    out->op = (uint8_t)op;
    out->naming = NAMING_KEY;
    out->key_len = (uint16_t)key_len;
    out->key = t->key;
    t->last_t_us = time;
    *t_us = time;
}

/* Parses one significant line of the CSV format into *t_us and *out. */
static int parse_operation(trace_reader *t, char *line, size_t len,
                           uint64_t *t_us, record *out)
{
    field fields[FIELDS_MAX + 1];
    int n;
    uint64_t time = 0;
    record_op op = RECORD_PUT;
    size_t key_len = 0;
    uint32_t bytes = 0, rows = 0, cells = 0;
    if (split_fields(t, line, len, fields, &n) < 0)
        return -1;
    if (n < 3)
        return trace_fail(t, line, len, "too few fields: expected time,op,key[,bytes[,cells]] "
                          "or time,scan,key,rows");
    if (n > FIELDS_MAX)
        return trace_fail(t, line + fields[FIELDS_MAX].col, len - fields[FIELDS_MAX].col,
                          "too many fields: expected time,op,key[,bytes[,cells]] "
                          "or time,scan,key,rows");
    if (parse_time(t, &fields[0], &time) < 0 || parse_op(t, &fields[1], &op) < 0 ||
        parse_key(t, &fields[2], &key_len) < 0)
        return -1;
    if (op == RECORD_SCAN && n < 4)
        return trace_fail(t, line, len, "scan without rows: expected time,scan,key,rows");
    if (op == RECORD_SCAN && trace_parse_rows(t, fields[3].text, fields[3].len, &rows) < 0)
        return -1;
    if (op != RECORD_SCAN && n >= 4 && parse_bytes(t, &fields[3], &bytes) < 0)
        return -1;
    if (n == 5 && op != RECORD_PUT && op != RECORD_RMW)
        return trace_fail(t, fields[4].text, fields[4].len, "cells on a %s: expected them "
                          "only on a put or readmodifywrite", record_op_name(op));
    if (n == 5 && parse_count(t, fields[4].text, fields[4].len, "cells", &cells) < 0)
        return -1;
    trace_fill_record(t, time, op, key_len, t_us, out);
    out->value_bytes = bytes;
    out->cells = cells;
    out->rows = rows;
    return 1;
}

/* One line of the CSV format: 1 with an operation, 0 for a line to skip
 * (empty, a comment, the header), -1 if malformed. */
static int csv_line(trace_reader *t, char *line, size_t len, uint64_t *t_us, record *out)
{
    if (len == 0 || line[0] == '#')
        return 0;
    if (!t->delim) {
        t->delim = memchr(line, '\t', len) ? '\t' : ',';
        if (is_header(line, len, t->delim))
            return 0;
    }
    return parse_operation(t, line, len, t_us, out);
}

int trace_next(trace_reader *t, uint64_t *t_us, record *out, char *err, size_t errcap)
{
    size_t len = 0;
    while (!t->failed && read_line(t, &len) == 1) {
        int rc = t->format == TRACE_FORMAT_YCSB ? trace_ycsb_line(t, t->line, len, t_us, out)
                                                : csv_line(t, t->line, len, t_us, out);
        if (rc == 1)
            return 1;
    }
    if (t->failed) {
        copy_message(err, errcap, t->msg);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Writer                                                              */
/* ------------------------------------------------------------------ */

#define KEY_SLICE 256 /* key bytes formatted per key_format call */

struct trace_writer {
    FILE *f;            /* the caller's: written, flushed, never closed here */
    char *path;         /* the name given, for messages */
    char delim;
    int failed;         /* a write or an argument failed: msg says which */
    int wrote;          /* an operation was written: last_t_us is set */
    uint64_t last_t_us;
    char msg[256];      /* the first failure, without the path */
};

/* Remembers the first failure; returns -1. */
PRINTF_LIKE(2, 3)
static int writer_fail(trace_writer *w, const char *what, ...)
{
    if (!w->failed) {
        va_list ap;
        va_start(ap, what);
        vsnprintf(w->msg, sizeof w->msg, what, ap);
        va_end(ap);
        w->failed = 1;
    }
    return -1;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Checks stdio's error flag after a write; returns 0 or -1. */
static int check_stream(trace_writer *w)
{
    if (ferror(w->f))
        return writer_fail(w, "write failed: %s", strerror(errno ? errno : EIO));
    return 0;
}

int trace_name_is_tsv(const char *path)
{
    return ends_with(path, ".tsv");
}

trace_writer *trace_writer_new(FILE *f, const char *name, int tsv, char *err, size_t errcap)
{
    trace_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = malloc(strlen(name) + 1))) {
        free(w);
        copy_message(err, errcap, "out of memory");
        return NULL;
    }
    strcpy(w->path, name);
    w->delim = tsv ? '\t' : ',';
    w->f = f;
    errno = 0;
    fprintf(w->f, "time%cop%ckey%cbytes\n", w->delim, w->delim, w->delim);
    check_stream(w);
    return w;
}

/* Prints the key in shell form; in CSV with ',' and '"' escaped too. */
static void write_key(trace_writer *w, const uint8_t *key, size_t key_len)
{
    char text[4 * KEY_SLICE + 1];
    for (size_t off = 0; off < key_len; off += KEY_SLICE) {
        size_t n = key_len - off < KEY_SLICE ? key_len - off : KEY_SLICE;
        size_t len = key_format(keyref_of(key + off, n), text, sizeof text);
        assert(len < sizeof text);
        if (w->delim == '\t') {
            fwrite(text, 1, len, w->f);
            continue;
        }
        for (size_t i = 0; i < len; i++) {
            if (text[i] == ',')
                fputs("\\x2C", w->f);
            else if (text[i] == '"')
                fputs("\\x22", w->f);
            else
                putc(text[i], w->f);
        }
    }
}

int trace_write(trace_writer *w, uint64_t t_us, record_op op,
                const uint8_t *key, size_t key_len, uint32_t bytes_or_rows)
{
    return trace_write_cells(w, t_us, op, key, key_len, bytes_or_rows, 0);
}

int trace_write_cells(trace_writer *w, uint64_t t_us, record_op op, const uint8_t *key,
                      size_t key_len, uint32_t bytes_or_rows, uint32_t cells)
{
    if (w->failed)
        return -1;
    if (cells > 1 && op != RECORD_PUT && op != RECORD_RMW)
        return writer_fail(w, "%" PRIu32 " cells on a %s: expected them only on a put or "
                           "readmodifywrite", cells, record_op_name(op));
    if (cells > ROWS_MAX)
        return writer_fail(w, "%" PRIu32 " cells: expected at most %d", cells, ROWS_MAX);
    if ((unsigned)op > RECORD_RMW)
        return writer_fail(w, "op %d: expected put, get, delete, scan or readmodifywrite",
                           (int)op);
    if (key_len < 1 || key_len > KEY_MAX_LEN)
        return writer_fail(w, "key of %zu bytes: expected 1..%d", key_len, KEY_MAX_LEN);
    if (op == RECORD_SCAN && (bytes_or_rows < 1 || bytes_or_rows > ROWS_MAX))
        return writer_fail(w, "scan of %" PRIu32 " rows: expected 1..%d", bytes_or_rows,
                           ROWS_MAX);
    if (op != RECORD_SCAN && bytes_or_rows > BYTES_MAX)
        return writer_fail(w, "bytes %" PRIu32 ": expected at most %d", bytes_or_rows,
                           BYTES_MAX);
    if (t_us > TRACE_TIME_MAX)
        return writer_fail(w, "time %" PRIu64 ": expected at most %" PRIu64, t_us,
                           (uint64_t)TRACE_TIME_MAX);
    if (w->wrote && t_us < w->last_t_us)
        return writer_fail(w, "time %" PRIu64 " is before the previous operation's %" PRIu64,
                           t_us, w->last_t_us);
    errno = 0;
    fprintf(w->f, "%" PRIu64 "%c%s%c", t_us, w->delim, record_op_name(op), w->delim);
    write_key(w, key, key_len);
    if (bytes_or_rows > 0 || cells > 1)
        fprintf(w->f, "%c%" PRIu32, w->delim, bytes_or_rows);
    if (cells > 1)
        fprintf(w->f, "%c%" PRIu32, w->delim, cells);
    putc('\n', w->f);
    w->wrote = 1;
    w->last_t_us = t_us;
    return check_stream(w);
}

int trace_finish(trace_writer *w, char *err, size_t errcap)
{
    if (!w)
        return 0;
    errno = 0;
    if (fflush(w->f) != 0)
        writer_fail(w, "write failed: %s", strerror(errno ? errno : EIO));
    check_stream(w);
    int failed = w->failed;
    if (failed && err && errcap)
        snprintf(err, errcap, "%s: %s", w->path, w->msg);
    free(w->path);
    free(w);
    return failed ? -1 : 0;
}
