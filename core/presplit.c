/* presplit.c -- HBase's RegionSplitter algorithms and split-key lists.
 *
 * Sources (read, not copied):
 *  - org.apache.hadoop.hbase.util.RegionSplitter (apache/hbase,
 *    hbase-server/src/main/java/.../util/RegionSplitter.java). HBase 1.x has
 *    HexStringSplit and UniformSplit; HBase 2.x moves HexStringSplit's body
 *    into NumberStringSplit(minRow, maxRow, radix) and adds
 *    DecimalStringSplit = NumberStringSplit("00000000", "99999999", 10) next
 *    to HexStringSplit = NumberStringSplit("00000000", "FFFFFFFF", 16).
 *  - NumberStringSplit.split(n): range = lastRowInt - firstRowInt + 1 ("+1
 *    because the last row is inclusive"); checkState(range >= n, "split
 *    granularity is greater than the range"); sizeOfEachSplit = range / n
 *    (BigInteger floor division); split i (1..n-1) = firstRowInt + i *
 *    sizeOfEachSplit ("the last region gets all the slop"). A row is
 *    BigInteger.toString(radix) -- lower case for hex -- left-padded with '0'
 *    to rowComparisonLength = lastRow.length() = 8.
 *  - UniformSplit.split(n) = Bytes.split(firstRow = {}, lastRow = 8 x 0xFF,
 *    inclusive = true, n - 1) minus its two endpoints. Bytes.iterateOnSplits
 *    pads both rows to the same length (8 bytes: 00..00 and FF..FF), reads
 *    them as big-endian integers, takes diff = stop - start + 1 (inclusive)
 *    = 2^64 and interval = diff / (num + 1) = floor(2^64 / n), and yields
 *    start + i * interval as 8 big-endian bytes (its {1, 0} header keeps the
 *    BigInteger positive and is cut off again).
 *  - TestRegionSplitter (hbase-server/src/test/.../util/): the vectors in
 *    tests/test_presplit.c.
 *
 * So all three algorithms are one computation: size = floor(range / n) and
 * key i = i * size, rendered as 8 digits of radix 16 (hex chars), 10
 * (decimal chars) or 256 (raw bytes). Ranges are 2^32, 10^8 and 2^64. Only
 * 2^64 does not fit a uint64_t; floor(2^64 / n) is computed from
 * UINT64_MAX = 2^64 - 1 instead (see pow2_64_div), and every key i * size
 * <= (n-1) * 2^64 / n < 2^64 fits, so no 128-bit type is needed (-Wpedantic
 * rejects __int128 anyway).
 *
 * Lists: each key is parsed with key_parse straight into one growing byte
 * buffer; key i's end offset is kept (pointers would dangle when the buffer
 * moves) and the keyrefs are made once at the end.
 */
#include "core/presplit.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PRESPLIT_WIDTH 8             /* every generated key: 8 chars or bytes */
#define DECIMAL_RANGE UINT64_C(100000000)   /* "00000000".."99999999" */
#define HEX_RANGE (UINT64_C(1) << 32)        /* "00000000".."ffffffff" */

/* ---------------------------------------------------------------- algorithms */

/* floor(2^64 / n) for n >= 2. 2^64 = UINT64_MAX + 1, so the quotient of
 * UINT64_MAX grows by one exactly when its remainder is n - 1. */
static uint64_t pow2_64_div(uint64_t n)
{
    uint64_t q = UINT64_MAX / n, r = UINT64_MAX % n;
    return r == n - 1 ? q + 1 : q;
}

/* sizeOfEachSplit = floor(range / n). Returns -1 when n > range (HBase's
 * "split granularity is greater than the range"). */
static int split_size(presplit_algorithm a, uint32_t n, uint64_t *size)
{
    switch (a) {
    case PRESPLIT_HEX:
        *size = HEX_RANGE / n; /* n <= UINT32_MAX < 2^32: always fits */
        return 0;
    case PRESPLIT_DECIMAL:
        if (n > DECIMAL_RANGE)
            return -1;
        *size = DECIMAL_RANGE / n;
        return 0;
    case PRESPLIT_UNIFORM:
        *size = pow2_64_div(n);
        return 0;
    }
    return -1;
}

static unsigned algorithm_radix(presplit_algorithm a)
{
    return a == PRESPLIT_HEX ? 16 : a == PRESPLIT_DECIMAL ? 10 : 256;
}

/* v as 8 big-endian digits: lower-case hex chars (BigInteger.toString(16)),
 * decimal chars, or raw bytes; zero-padded on the left like StringUtils.leftPad
 * (and, for bytes, like the 8-byte padded rows of Bytes.iterateOnSplits). */
static void render_key(presplit_algorithm a, uint64_t v, uint8_t *out)
{
    static const char digits[] = "0123456789abcdef";
    unsigned radix = algorithm_radix(a);
    for (int i = PRESPLIT_WIDTH - 1; i >= 0; i--) {
        unsigned d = (unsigned)(v % radix);
        out[i] = a == PRESPLIT_UNIFORM ? (uint8_t)d : (uint8_t)digits[d];
        v /= radix;
    }
}

int presplit_keys(presplit_algorithm a, uint32_t n, keyref **keys, uint8_t **bytes)
{
    uint64_t size;
    *keys = NULL;
    *bytes = NULL;
    if (n < 2 || split_size(a, n, &size) < 0)
        return -1;
    size_t count = (size_t)n - 1;
    if (count > SIZE_MAX / sizeof(keyref) || count > SIZE_MAX / PRESPLIT_WIDTH)
        return -1;
    keyref *k = malloc(count * sizeof *k);
    uint8_t *b = malloc(count * PRESPLIT_WIDTH);
    if (!k || !b) {
        free(k);
        free(b);
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        render_key(a, (uint64_t)(i + 1) * size, b + i * PRESPLIT_WIDTH);
        k[i] = keyref_of(b + i * PRESPLIT_WIDTH, PRESPLIT_WIDTH);
    }
    *keys = k;
    *bytes = b;
    return 0;
}

/* ------------------------------------------------------------ error messages */

/* An error message being built in the caller's buffer, cut short if long. */
typedef struct msgbuf {
    char *p;
    size_t cap, len;
} msgbuf;

static msgbuf msg_start(char *err, size_t errcap)
{
    msgbuf m = { err, errcap, 0 };
    if (errcap)
        err[0] = '\0';
    return m;
}

static void msg_printf(msgbuf *m, const char *fmt, ...)
{
    if (m->len + 1 >= m->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(m->p + m->len, m->cap - m->len, fmt, ap);
    va_end(ap);
    if (w > 0)
        m->len = m->len + (size_t)w < m->cap ? m->len + (size_t)w : m->cap - 1;
}

/* Appends k in shell form. */
static void msg_key(msgbuf *m, keyref k)
{
    if (m->len + 1 >= m->cap)
        return;
    m->len += key_format_bytes(k, m->p + m->len, m->cap - m->len - 1);
    m->p[m->len] = '\0';
}

/* Appends a path with its control bytes (below 0x20, 0x7f) as \xNN, so
 * that a message never sends a user's control bytes to the terminal. */
static void msg_path(msgbuf *m, const char *path)
{
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            msg_printf(m, "\\x%02X", *p);
        else
            msg_printf(m, "%c", *p);
    }
}

/* ------------------------------------------------------------------ key lists */

typedef struct keylist {
    uint8_t *bytes;   /* all keys' bytes, back to back */
    size_t used, cap;
    size_t *ends;     /* ends[i]: offset just past key i in bytes */
    size_t n, ncap;
} keylist;

/* Why a key was refused. */
typedef enum add_status { ADD_OK, ADD_BAD_ESCAPE, ADD_TOO_LONG, ADD_NOT_ASCENDING, ADD_NOMEM } add_status;

static keyref keylist_key(const keylist *l, size_t i)
{
    size_t start = i ? l->ends[i - 1] : 0;
    return keyref_of(l->bytes + start, l->ends[i] - start);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c = c > SIZE_MAX / 2 ? need : c * 2;
    if (c > SIZE_MAX / elem)
        return -1;
    void *q = realloc(*p, c * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* Parses len chars of shell form at text as the next key. On ADD_BAD_ESCAPE
 * sets *bad_col (0-based in text); on ADD_NOT_ASCENDING the refused key is
 * left in *refused (valid until the next add). */
static add_status keylist_add(keylist *l, const char *text, size_t len,
                              size_t *bad_col, keyref *refused)
{
    void *bytes = l->bytes, *ends = l->ends;
    int ok = grow(&bytes, &l->cap, l->used + len, 1);
    l->bytes = bytes;
    if (ok == 0)
        ok = grow(&ends, &l->ncap, l->n + 1, sizeof *l->ends);
    l->ends = ends;
    if (ok < 0)
        return ADD_NOMEM;
    size_t klen;
    /* Shell form never grows when parsed: len bytes are enough room. */
    if (key_parse(text, len, l->bytes + l->used, len, &klen, bad_col) < 0)
        return ADD_BAD_ESCAPE;
    if (klen > KEY_MAX_LEN)
        return ADD_TOO_LONG;
    keyref k = keyref_of(l->bytes + l->used, klen);
    if (l->n > 0 && key_compare(keylist_key(l, l->n - 1), k) >= 0) {
        *refused = k;
        return ADD_NOT_ASCENDING;
    }
    l->used += klen;
    l->ends[l->n++] = l->used;
    return ADD_OK;
}

static void keylist_free(keylist *l)
{
    free(l->bytes);
    free(l->ends);
    l->bytes = NULL;
    l->ends = NULL;
}

/* Hands the keys over as *keys, *bytes, *n (NULL arrays when there are none)
 * and frees the rest. Returns 0, or -1 when out of memory. */
static int keylist_finish(keylist *l, keyref **keys, uint8_t **bytes, size_t *n)
{
    keyref *k = NULL;
    if (l->n > 0) {
        k = malloc(l->n * sizeof *k);
        if (!k)
            return -1;
        for (size_t i = 0; i < l->n; i++)
            k[i] = keylist_key(l, i);
        *bytes = l->bytes;
        l->bytes = NULL;
    }
    *keys = k;
    *n = l->n;
    keylist_free(l);
    return 0;
}

/* The message for a refused key, after the caller's "PATH:LINE: " prefix;
 * col is 1-based, prev_what names where the previous key was ("line 3"). */
static void msg_refusal(msgbuf *m, add_status st, size_t col, const keylist *l,
                        keyref refused, const char *prev_what, size_t prev_at)
{
    switch (st) {
    case ADD_BAD_ESCAPE:
        msg_printf(m, "bad escape at column %zu: expected \\xNN", col);
        break;
    case ADD_TOO_LONG:
        msg_printf(m, "key too long: expected at most %d bytes (HBase's row limit)",
                   KEY_MAX_LEN);
        break;
    case ADD_NOT_ASCENDING:
        msg_printf(m, "key \"");
        msg_key(m, refused);
        msg_printf(m, "\" is not after the previous key \"");
        msg_key(m, keylist_key(l, l->n - 1));
        msg_printf(m, "\" (%s %zu)", prev_what, prev_at);
        break;
    case ADD_NOMEM:
        msg_printf(m, "out of memory");
        break;
    case ADD_OK:
        break;
    }
}

static void clear_out(keyref **keys, uint8_t **bytes, size_t *n)
{
    *keys = NULL;
    *bytes = NULL;
    *n = 0;
}

/* ----------------------------------------------------------------- the file */

/* The line without its "\n" or "\r\n" ending (Ruby's chomp, which the HBase
 * shell applies to SPLITS_FILE lines). */
_Static_assert(PRESPLIT_MAX_LINE >= 4 * KEY_MAX_LEN, "a longest key in shell form fits a line");
static size_t chomp(const char *line, size_t len)
{
    if (len && line[len - 1] == '\n')
        len--;
    if (len && line[len - 1] == '\r')
        len--;
    return len;
}

/* Reads the next line into *line (growing it, never beyond
 * PRESPLIT_MAX_LINE + 2 bytes) without its "\n". Returns 1 with *len set,
 * 0 at the end of the file, or -1 with the message written: a line longer
 * than PRESPLIT_MAX_LINE characters (a binary file, /dev/zero: getline
 * would swallow it whole), a read error, out of memory. Every failure is
 * reported, none taken for the end of the file. */
static int read_line(FILE *f, const char *path, size_t lineno, char **line, size_t *cap,
                     size_t *len, msgbuf *m)
{
    size_t n = 0;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (n + 1 >= *cap) { /* room for this byte and a NUL */
            if (*cap == PRESPLIT_MAX_LINE + 2) { /* PRESPLIT_MAX_LINE and a '\r' */
                msg_path(m, path);
                msg_printf(m, ":%zu: line too long: expected at most %d characters", lineno,
                           PRESPLIT_MAX_LINE);
                return -1;
            }
            size_t grown = *cap ? 2 * *cap : 256;
            if (grown > PRESPLIT_MAX_LINE + 2)
                grown = PRESPLIT_MAX_LINE + 2;
            char *p = realloc(*line, grown);
            if (!p) {
                msg_path(m, path);
                msg_printf(m, ":%zu: out of memory", lineno);
                return -1;
            }
            *line = p;
            *cap = grown;
        }
        (*line)[n++] = (char)c;
    }
    if (c == EOF && ferror(f)) {
        int e = errno;
        msg_path(m, path);
        msg_printf(m, ":%zu: read error: %s", lineno, strerror(e));
        return -1;
    }
    if (c == EOF && n == 0)
        return 0;
    *len = chomp(*line, n);
    if (*len > PRESPLIT_MAX_LINE) {
        msg_path(m, path);
        msg_printf(m, ":%zu: line too long: expected at most %d characters", lineno,
                   PRESPLIT_MAX_LINE);
        return -1;
    }
    return 1;
}

/* Adds the keys of an open file; on error writes the message and returns -1. */
static int read_lines(FILE *f, const char *path, keylist *l, msgbuf *m)
{
    char *line = NULL;
    size_t linecap = 0, lineno = 0, prev_line = 0, len = 0;
    int got, rc = 0;
    while (rc == 0 && (got = read_line(f, path, lineno + 1, &line, &linecap, &len, m)) != 0) {
        if (got < 0) {
            rc = -1;
            break;
        }
        lineno++;
        char *text = line;
        if (lineno == 1 && len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
            text += 3; /* a UTF-8 byte order mark: not part of the first key */
            len -= 3;
        }
        if (len == 0 || text[0] == '#')
            continue;
        size_t bad = 0;
        keyref refused = keyref_of(NULL, 0);
        add_status st = keylist_add(l, text, len, &bad, &refused);
        if (st == ADD_OK) {
            prev_line = lineno;
        } else {
            msg_path(m, path);
            msg_printf(m, ":%zu: ", lineno);
            msg_refusal(m, st, bad + 1, l, refused, "line", prev_line);
            rc = -1;
        }
    }
    free(line);
    return rc;
}

int presplit_read_file(const char *path, keyref **keys, uint8_t **bytes, size_t *n,
                       char *err, size_t errcap)
{
    msgbuf m = msg_start(err, errcap);
    clear_out(keys, bytes, n);
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        msg_path(&m, path);
        msg_printf(&m, ": cannot open: %s", strerror(e));
        return -1;
    }
    keylist l = { 0 };
    int rc = read_lines(f, path, &l, &m);
    fclose(f);
    if (rc == 0 && keylist_finish(&l, keys, bytes, n) < 0) {
        msg_path(&m, path);
        msg_printf(&m, ": out of memory");
        rc = -1;
    }
    keylist_free(&l);
    return rc;
}

/* ----------------------------------------------------------------- the list */

static int is_list_separator(char c)
{
    return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
           c == '\v' || c == '\f';
}

int presplit_parse_list(const char *text, keyref **keys, uint8_t **bytes, size_t *n,
                        char *err, size_t errcap)
{
    msgbuf m = msg_start(err, errcap);
    clear_out(keys, bytes, n);
    keylist l = { 0 };
    size_t i = 0, item_keys = 0, comma = 0; /* comma: 1 + column of the last ',' */
    for (;;) {
        while (text[i] && text[i] != ',' && is_list_separator(text[i]))
            i++;
        if (text[i] == ',' || !text[i]) {
            /* the end of an item: it must hold a key, unless it is the
             * whole text (then: no keys at all, below) */
            if (item_keys == 0 && (text[i] == ',' || comma)) {
                if (text[i] == ',')
                    msg_printf(&m, "key %zu is empty: expected a key before the ',' at "
                               "column %zu", l.n + 1, i + 1);
                else
                    msg_printf(&m, "key %zu is empty: expected a key after the ',' at "
                               "column %zu", l.n + 1, comma);
                keylist_free(&l);
                return -1;
            }
            if (!text[i])
                break;
            comma = ++i;
            item_keys = 0;
            continue;
        }
        item_keys++;
        size_t start = i;
        while (text[i] && !is_list_separator(text[i]))
            i++;
        size_t bad = 0;
        keyref refused = keyref_of(NULL, 0);
        add_status st = keylist_add(&l, text + start, i - start, &bad, &refused);
        if (st != ADD_OK) {
            msg_printf(&m, "key %zu: ", l.n + 1);
            msg_refusal(&m, st, start + bad + 1, &l, refused, "key", l.n);
            keylist_free(&l);
            return -1;
        }
    }
    if (l.n == 0) {
        msg_printf(&m, "expected at least one key, found none");
        keylist_free(&l);
        return -1;
    }
    if (keylist_finish(&l, keys, bytes, n) < 0) {
        msg_printf(&m, "out of memory");
        keylist_free(&l);
        return -1;
    }
    return 0;
}
