/* test_salt_reference.c -- regionsim's salts against the salted keys the
 * released Phoenix and OpenTSDB jars computed (tests/data/phoenix_salt.tsv,
 * tests/data/opentsdb_salt.tsv; their .md files say how: the Maven project
 * tests/reference calls SaltingUtil.getSaltedKey and RowKey.prefixKeyWithSalt).
 *
 * Phoenix: each row is a key, a bucket count N (1..256) and the salted key;
 * 'psalt(N) key' of a trace record holding that key must give the salted
 * key, and 'hash(N, key)' its first byte. OpenTSDB: each row is a metric
 * UID, a base hour, tag UIDs, N and the salted row key; the scheme
 * 'osalt(N) "<metric>" hour(ts) "<tags>"' (the UIDs as literals) for a
 * record inside that hour must give the salted row key. Every row of both
 * files is checked, and a failure names the file's line. test_keyscheme.c
 * keeps its vectors worked by hand; these are the jars' own outputs.
 *
 * Usage: test_salt_reference DATA_DIR (tests/data by default). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "workloads/keyscheme.h"
#include "workloads/record.h"

static const char *data_dir = "tests/data";

#define MAX_FIELDS 8
#define MAX_BYTES 256

/* One data line of a reference file: its tab-separated fields. */
typedef struct row {
    char text[4096];
    char *field[MAX_FIELDS];
    int nfields;
    int line;
} row;

static FILE *open_data(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    FILE *f = fopen(path, "r");
    if (f == NULL) /* committed: a broken tree */
        fail_msg("%s: %s", path, strerror(errno));
    return f;
}

/* The next data line (lines starting with '#' describe the columns);
 * 0 at the end of the file. */
static int next_row(FILE *f, row *r, int want_fields, const char *name)
{
    while (fgets(r->text, sizeof r->text, f)) {
        r->line++;
        size_t n = strlen(r->text);
        if (n > 0 && r->text[n - 1] == '\n')
            r->text[--n] = '\0';
        if (r->text[0] == '#' || n == 0)
            continue;
        r->nfields = 0;
        char *p = r->text;
        for (;;) {
            if (r->nfields == MAX_FIELDS)
                fail_msg("%s:%d: more than %d fields", name, r->line, MAX_FIELDS);
            r->field[r->nfields++] = p;
            char *tab = strchr(p, '\t');
            if (!tab)
                break;
            *tab = '\0';
            p = tab + 1;
        }
        if (r->nfields != want_fields)
            fail_msg("%s:%d: %d fields, expected %d", name, r->line, r->nfields, want_fields);
        return 1;
    }
    return 0;
}

static int hex_value(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Lowercase hex into bytes; returns the byte count. */
static size_t unhex(const char *hex, uint8_t *out, const char *name, int line)
{
    size_t n = strlen(hex);
    if (n % 2 != 0 || n / 2 > MAX_BYTES)
        fail_msg("%s:%d: '%s' is not hex of at most %d bytes", name, line, hex, MAX_BYTES);
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            fail_msg("%s:%d: '%s' is not lowercase hex", name, line, hex);
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return n / 2;
}

static unsigned long number(const char *s, const char *name, int line)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0')
        fail_msg("%s:%d: '%s' is not a number", name, line, s);
    return v;
}

/* Encodes rec under expr with a fresh encoder; returns the key length. */
static size_t encode(const char *expr, const record *rec, uint8_t *out, const char *name, int line)
{
    char err[256];
    keyscheme *ks = NULL;
    if (keyscheme_parse(expr, &ks, err, sizeof err) != 0)
        fail_msg("%s:%d: '%s' did not parse: %s", name, line, expr, err);
    keyencoder *ke = keyencoder_new(ks, 1);
    assert_non_null(ke);
    size_t n = keyencoder_encode(ke, rec, out, KEYSCHEME_MAX_KEY);
    keyencoder_free(ke);
    keyscheme_free(ks);
    return n;
}

static void expect_bytes(const uint8_t *got, size_t got_len, const uint8_t *want, size_t want_len,
                         const char *expr, const char *name, int line)
{
    if (got_len == want_len && memcmp(got, want, want_len) == 0)
        return;
    char g[2 * MAX_BYTES + 1] = "", w[2 * MAX_BYTES + 1] = "";
    for (size_t i = 0; i < got_len && i < MAX_BYTES; i++)
        snprintf(g + 2 * i, 3, "%02x", got[i]);
    for (size_t i = 0; i < want_len && i < MAX_BYTES; i++)
        snprintf(w + 2 * i, 3, "%02x", want[i]);
    fail_msg("%s:%d: '%s' gave %s, the jar %s", name, line, expr, g, w);
}

/* A string literal of the scheme language holding these bytes. */
static void literal(const uint8_t *b, size_t n, char *out)
{
    char *p = out;
    *p++ = '"';
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "\\x%02X", b[i]);
    *p++ = '"';
    *p = '\0';
}

/* phoenix_salt.tsv: buckets key_hex salt salted_hex. */
static void test_phoenix_salted_keys(void **state)
{
    (void)state;
    static const char name[] = "phoenix_salt.tsv";
    FILE *f = open_data(name);
    row r = { .line = 0 };
    int rows = 0, buckets_256 = 0;
    while (next_row(f, &r, 4, name)) {
        uint8_t key[MAX_BYTES], salted[MAX_BYTES + 1], got[KEYSCHEME_MAX_KEY];
        unsigned long n = number(r.field[0], name, r.line);
        size_t key_len = unhex(r.field[1], key, name, r.line);
        unsigned long salt = number(r.field[2], name, r.line);
        size_t salted_len = unhex(r.field[3], salted, name, r.line);
        record rec = { .ts_ms = 0, .naming = NAMING_KEY, .key = key, .key_len = (uint16_t)key_len };
        char expr[64];
        snprintf(expr, sizeof expr, "psalt(%lu) key", n);
        size_t len = encode(expr, &rec, got, name, r.line);
        expect_bytes(got, len, salted, salted_len, expr, name, r.line);
        snprintf(expr, sizeof expr, "hash(%lu, key)", n);
        uint8_t salt_byte = (uint8_t)salt;
        len = encode(expr, &rec, got, name, r.line);
        expect_bytes(got, len, &salt_byte, 1, expr, name, r.line);
        rows++;
        buckets_256 += n == 256;
    }
    fclose(f);
    assert_true(rows > 0);
    assert_true(buckets_256 > 0); /* the largest Phoenix allows is among them */
    print_message("%s: %d salted keys alike\n", name, rows);
}

/* opentsdb_salt.tsv: buckets width metric_hex hour_hex tags_hex salted_hex. */
static void test_opentsdb_salted_keys(void **state)
{
    (void)state;
    static const char name[] = "opentsdb_salt.tsv";
    FILE *f = open_data(name);
    row r = { .line = 0 };
    int rows = 0, two_byte = 0;
    while (next_row(f, &r, 6, name)) {
        uint8_t metric[MAX_BYTES], hour[MAX_BYTES], tags[MAX_BYTES], salted[MAX_BYTES];
        uint8_t got[KEYSCHEME_MAX_KEY];
        unsigned long n = number(r.field[0], name, r.line);
        unsigned long width = number(r.field[1], name, r.line);
        size_t metric_len = unhex(r.field[2], metric, name, r.line);
        size_t hour_len = unhex(r.field[3], hour, name, r.line);
        size_t tags_len = unhex(r.field[4], tags, name, r.line);
        size_t salted_len = unhex(r.field[5], salted, name, r.line);
        if (hour_len != 4 || salted_len != width + metric_len + hour_len + tags_len)
            fail_msg("%s:%d: lengths do not add up", name, r.line);
        uint64_t hour_s = (uint64_t)hour[0] << 24 | (uint64_t)hour[1] << 16 | (uint64_t)hour[2] << 8 | hour[3];
        /* a record inside the hour: hour(ts) rounds it down */
        record rec = { .ts_ms = hour_s * 1000 + (uint64_t)r.line * 7919 % 3600000 };
        char m[4 * MAX_BYTES + 3], t[4 * MAX_BYTES + 3], expr[16 * MAX_BYTES];
        literal(metric, metric_len, m);
        literal(tags, tags_len, t);
        snprintf(expr, sizeof expr, "osalt(%lu) %s hour(ts)%s%s", n, m, tags_len ? " " : "", tags_len ? t : "");
        size_t len = encode(expr, &rec, got, name, r.line);
        expect_bytes(got, len, salted, salted_len, expr, name, r.line);
        rows++;
        two_byte += width == 2;
    }
    fclose(f);
    assert_true(rows > 0);
    assert_true(two_byte > 0); /* 2-byte salts (over 256 buckets) are among them */
    print_message("%s: %d salted row keys alike\n", name, rows);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        data_dir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phoenix_salted_keys),
        cmocka_unit_test(test_opentsdb_salted_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
