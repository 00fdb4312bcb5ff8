/* ycsb_propfile.c -- java.util.Properties text: reading a YCSB workload
 * file into a property set, and writing a set back as items.
 *
 * Reading follows java.util.Properties.load (LineReader.readLine, load0,
 * loadConvert): logical lines joined at a backslash continuation, '#' and
 * '!' comment lines, the key ending at the first unescaped '=', ':' or
 * white space, \t \n \r \f \uXXXX escapes (\uXXXX written as UTF-8, a
 * surrogate pair joined). Bytes are kept as they are. A malformed \uXXXX,
 * \u0000, a lone surrogate or a NUL byte is refused.
 *
 * Design. The whole file (at most FILE_MAX bytes) is read first, parsed
 * into a fresh set and copied into the caller's only when every line is
 * good, so nothing is added on error; the price is the file's text held
 * once more, bounded by FILE_MAX. Each setting's origin is "FILE:LINE", the
 * first natural line of its logical line; names are checked as they are
 * set (yp_set_at_level, ycsb_properties.c).
 *
 * Writing (ycsb_properties_describe) escapes names and values as
 * Properties.store would, and every space too, so that each item of the
 * space-separated list, read as a line of a file, sets the same property.
 */
#include "workloads/ycsb_workload_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- java.util.Properties.load -------------------------------------------- */

#define FILE_MAX (4u << 20)

/* A growable byte buffer. */
typedef struct buf {
    char *s;
    size_t n, cap;
} buf;

static int buf_put(buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *t = realloc(b->s, cap);
        if (!t)
            return -1;
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
    return 0;
}

/* The whole file, at most FILE_MAX bytes. */
static int read_whole_file(const char *path, const char *shown, buf *out, char *err, size_t errcap)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) < 0) {
        int e = errno;
        if (f)
            fclose(f);
        return yp_fail(err, errcap, "%s: cannot open the workload file: %s", shown, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        fclose(f);
        return yp_fail(err, errcap, "%s: is a directory; expected a workload file", shown);
    }
    char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (out->n + got > FILE_MAX) {
            fclose(f);
            return yp_fail(err, errcap, "%s: larger than %u MiB; expected a workload file", shown,
                           FILE_MAX >> 20);
        }
        if (buf_put(out, chunk, got) < 0) {
            fclose(f);
            return yp_fail(err, errcap, "%s: out of memory", shown);
        }
    }
    int bad = ferror(f);
    int e = errno;
    fclose(f);
    if (bad)
        return yp_fail(err, errcap, "%s: cannot read the workload file: %s", shown, strerror(e));
    return buf_put(out, "", 0) < 0 ? yp_fail(err, errcap, "%s: out of memory", shown) : 0;
}

/* The reader of one file: the text, where it is, its line. */
typedef struct reader {
    const char *s;
    size_t n, pos;
    long line;
} reader;

/* Consumes a line terminator at pos (\n, \r or \r\n) if there is one. */
static bool take_eol(reader *r)
{
    if (r->pos >= r->n || (r->s[r->pos] != '\n' && r->s[r->pos] != '\r'))
        return false;
    if (r->s[r->pos] == '\r' && r->pos + 1 < r->n && r->s[r->pos + 1] == '\n')
        r->pos++;
    r->pos++;
    r->line++;
    return true;
}

/* LineReader.readLine: the next logical line, raw (escapes kept), into
 * out; its first natural line in *first. Skips blank and comment lines.
 * Returns 1, or 0 at the end of the text, or -1 out of memory. */
static int next_logical_line(reader *r, buf *out, long *first)
{
    out->n = 0;
    for (;;) {
        while (r->pos < r->n && is_prop_space(r->s[r->pos]))
            r->pos++;
        if (r->pos >= r->n)
            return 0;
        if (take_eol(r))
            continue;
        if (r->s[r->pos] == '#' || r->s[r->pos] == '!') {
            while (r->pos < r->n && r->s[r->pos] != '\n' && r->s[r->pos] != '\r')
                r->pos++;
            take_eol(r);
            continue;
        }
        break;
    }
    *first = r->line;
    for (;;) {
        size_t start = r->pos;
        bool backslash = false; /* an odd run of backslashes ends the text so far */
        while (r->pos < r->n && r->s[r->pos] != '\n' && r->s[r->pos] != '\r') {
            backslash = r->s[r->pos] == '\\' ? !backslash : false;
            r->pos++;
        }
        size_t len = r->pos - start;
        if (backslash)
            len--; /* the continuation's backslash (or a last one at the end) */
        if (buf_put(out, r->s + start, len) < 0)
            return -1;
        if (!backslash || !take_eol(r)) {
            take_eol(r);
            return 1;
        }
        while (r->pos < r->n && is_prop_space(r->s[r->pos]))
            r->pos++; /* a continuation line's leading white space */
    }
}

static int put_utf8(buf *b, unsigned long cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80)
        u[0] = (char)cp, n = 1;
    else if (cp < 0x800)
        u[0] = (char)(0xC0 | (cp >> 6)), u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
    else if (cp < 0x10000)
        u[0] = (char)(0xE0 | (cp >> 12)), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)),
        u[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
    else
        u[0] = (char)(0xF0 | (cp >> 18)), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
    return buf_put(b, u, n);
}

/* Four hex digits at s[i..], or -1. */
static long read_u4(const char *s, size_t n, size_t i)
{
    if (i + 4 > n)
        return -1;
    long v = 0;
    for (size_t k = 0; k < 4; k++) {
        int d = hex_digit(s[i + k]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Properties.loadConvert of s[0..n) into out (NUL-terminated). Returns 0,
 * or -1 with why in msg (a malformed \uXXXX, \u0000, a lone surrogate). */
static int unescape(const char *s, size_t n, buf *out, char *msg, size_t msgcap)
{
    out->n = 0;
    if (buf_put(out, "", 0) < 0)
        return yp_fail(msg, msgcap, "out of memory");
    for (size_t i = 0; i < n;) {
        char c = s[i++];
        if (c != '\\' || i >= n) {
            if (c != '\\' && buf_put(out, &c, 1) < 0)
                return yp_fail(msg, msgcap, "out of memory");
            continue;
        }
        c = s[i++];
        if (c == 'u') {
            long cp = read_u4(s, n, i);
            char shown[16];
            if (cp < 0) {
                char raw[8] = { 0 };
                memcpy(raw, s + i, n - i < 4 ? n - i : 4);
                yp_show(raw, shown, sizeof shown);
                return yp_fail(msg, msgcap, "malformed \\uXXXX escape '\\u%s' (expected four hex "
                               "digits)", shown);
            }
            i += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= n && s[i] == '\\' && s[i + 1] == 'u') {
                long lo = read_u4(s, n, i + 2);
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    i += 6;
                }
            }
            if (cp == 0)
                return yp_fail(msg, msgcap, "escape '\\u0000' (a NUL character is not allowed)");
            if (cp >= 0xD800 && cp <= 0xDFFF)
                return yp_fail(msg, msgcap, "escape '\\u%04lX' (a lone UTF-16 surrogate; expected "
                               "a pair \\uD8xx\\uDCxx)", (unsigned long)cp);
            if (put_utf8(out, (unsigned long)cp) < 0)
                return yp_fail(msg, msgcap, "out of memory");
            continue;
        }
        c = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c == 'f' ? '\f' : c;
        if (buf_put(out, &c, 1) < 0)
            return yp_fail(msg, msgcap, "out of memory");
    }
    return 0;
}

/* Properties.load0: where a logical line's key ends and its value starts. */
static void split_key_value(const char *s, size_t n, size_t *keylen, size_t *valstart)
{
    size_t k = 0, v = n;
    bool sep = false, backslash = false;
    for (; k < n; k++) {
        char c = s[k];
        if ((c == '=' || c == ':') && !backslash) {
            v = k + 1;
            sep = true;
            break;
        }
        if (is_prop_space(c) && !backslash) {
            v = k + 1;
            break;
        }
        backslash = c == '\\' ? !backslash : false;
    }
    for (; v < n; v++) {
        char c = s[v];
        if (!is_prop_space(c)) {
            if (!sep && (c == '=' || c == ':'))
                sep = true;
            else
                break;
        }
    }
    *keylen = k;
    *valstart = v;
}

/* Parses the text into a fresh set (so that nothing is added on error). */
static int parse_properties(ycsb_properties *into, const char *text, size_t n, const char *shown,
                            char *err, size_t errcap)
{
    const char *nul = memchr(text, '\0', n);
    if (nul) {
        long line = 1;
        for (const char *c = text; c < nul; c++)
            line += *c == '\n' || (*c == '\r' && c[1] != '\n');
        return yp_fail(err, errcap, "%s:%ld: NUL byte; expected a text file", shown, line);
    }
    reader r = { text, n, 0, 1 };
    buf raw = { 0 }, key = { 0 }, value = { 0 };
    int rc = 0;
    for (;;) {
        long line = 0;
        int got = next_logical_line(&r, &raw, &line);
        if (got <= 0) {
            if (got < 0)
                rc = yp_fail(err, errcap, "%s: out of memory", shown);
            break;
        }
        size_t keylen, valstart;
        split_key_value(raw.s, raw.n, &keylen, &valstart);
        char why[512], origin[320];
        snprintf(origin, sizeof origin, "%s:%ld", shown, line);
        if (unescape(raw.s, keylen, &key, why, sizeof why) < 0 ||
            unescape(raw.s + valstart, raw.n - valstart, &value, why, sizeof why) < 0) {
            rc = yp_fail(err, errcap, "%s: %s", origin, why);
            break;
        }
        if (yp_set_at_level(into, key.s, value.s, origin, LEVEL_FILE, err, errcap) < 0) {
            rc = -1;
            break;
        }
    }
    free(raw.s);
    free(key.s);
    free(value.s);
    return rc;
}

int ycsb_properties_load_file(ycsb_properties *p, const char *path, char *err, size_t errcap)
{
    char shown[300];
    yp_show(path, shown, sizeof shown);
    buf text = { 0 };
    ycsb_properties *fresh = ycsb_properties_new();
    int rc = fresh ? read_whole_file(path, shown, &text, err, errcap)
                   : yp_fail(err, errcap, "%s: out of memory", shown);
    if (rc == 0)
        rc = parse_properties(fresh, text.s ? text.s : "", text.n, shown, err, errcap);
    for (size_t i = 0; rc == 0 && i < fresh->n; i++)
        rc = yp_put_entry(p, fresh->v[i].name, fresh->v[i].value, fresh->v[i].origin, LEVEL_FILE,
                          err, errcap);
    free(text.s);
    ycsb_properties_free(fresh);
    return rc;
}

/* ---- describing ------------------------------------------------------------- */

/* Appends s escaped as Properties.store would write it (every space
 * escaped, so the items stay apart), into out at *len (counting all). */
static void append_escaped(const char *s, char *out, size_t cap, size_t *len)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char piece[8];
        if (c == '\t' || c == '\n' || c == '\r' || c == '\f')
            snprintf(piece, sizeof piece, "\\%c", c == '\t' ? 't' : c == '\n' ? 'n'
                                                  : c == '\r' ? 'r' : 'f');
        else if (c < 0x20 || c == 0x7f)
            snprintf(piece, sizeof piece, "\\u%04X", c);
        else if (strchr("\\ =:#!", c))
            piece[0] = '\\', piece[1] = (char)c, piece[2] = '\0';
        else
            piece[0] = (char)c, piece[1] = '\0';
        for (const char *q = piece; *q; q++, (*len)++)
            if (*len + 1 < cap)
                out[*len] = *q;
    }
}

size_t ycsb_properties_describe(const ycsb_properties *p, char *out, size_t cap)
{
    size_t len = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (i) {
            if (len + 1 < cap)
                out[len] = ' ';
            len++;
        }
        append_escaped(p->v[i].name, out, cap, &len);
        if (len + 1 < cap)
            out[len] = '=';
        len++;
        append_escaped(p->v[i].value, out, cap, &len);
    }
    if (cap)
        out[len < cap ? len : cap - 1] = '\0';
    return len;
}
