/* ycsb_workload.c -- YCSB property files, stock workloads and their
 * resolution into a ycsb_workload.
 *
 * Design. A ycsb_properties is a small array of settings (name, value,
 * origin, level), in the order they were last set; a setting replaces the
 * one of the same name unless that came from a higher level (-p over
 * files, as Client.parseArguments copies the command line's properties
 * over the files'). Names are checked when set, against the table of
 * known properties below (plus a few prefixes); values stay text until
 * ycsb_workload_resolve, so a message can name the file:line of a bad
 * value whatever set it later. The table is the single list of names:
 * suggestions ("did you mean") and docs/ycsb.md follow it.
 *
 * Upstream (brianfrankcooper/YCSB at d9faaac8), facts taken, not code:
 *  - file syntax: java.util.Properties.load (LineReader, load0,
 *    loadConvert);
 *  - properties, defaults, parsing and the checks YCSB makes:
 *    core/src/main/java/site/ycsb/workloads/CoreWorkload.java (init,
 *    getFieldLengthGenerator, createOperationGenerator), Client.java
 *    (main, initDb, parseArguments), ClientThread.java,
 *    generator/ExponentialGenerator.java, generator/HotspotIntegerGenerator,
 *    measurements/Measurements.java (setProperties), DBWrapper.java,
 *    BasicDB.java, hbase1/hbase2 HBaseClient{1,2}.java (init);
 *  - stock workloads: workloads/workloada .. workloadf.
 *
 * Where regionsim is stricter than YCSB (each documented in docs/ycsb.md):
 * booleans must be true or false (any case; Boolean.parseBoolean takes
 * anything else as false, so "yes" or "1" would silently mean false);
 * insertorder must be hashed or ordered (YCSB takes anything but "hashed"
 * as ordered); fractions must lie in their range (HotspotIntegerGenerator
 * clamps with a warning); counts must fit the simulator.
 */
#include "workloads/ycsb_workload.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- known properties -------------------------------------------------- */

/* Every property name accepted, with the class that reads it. Resolution
 * reads the ones with an effect by name; the rest have no effect. */
static const char *const known_names[] = {
    /* CoreWorkload (and Workload: insertstart, insertcount) */
    "table", "fieldcount", "fieldnameprefix", "fieldlengthdistribution", "fieldlength",
    "minfieldlength", "fieldlengthhistogram", "readallfields", "readallfieldsbyname",
    "writeallfields", "dataintegrity", "readproportion", "updateproportion",
    "insertproportion", "scanproportion", "readmodifywriteproportion",
    "requestdistribution", "zeropadding", "minscanlength", "maxscanlength",
    "scanlengthdistribution", "insertorder", "hotspotdatafraction", "hotspotopnfraction",
    "core_workload_insertion_retry_limit", "core_workload_insertion_retry_interval",
    "core_workload_insertion_keep_going_on_error", "insertstart", "insertcount",
    /* ExponentialGenerator */
    "exponential.percentile", "exponential.frac",
    /* Client, ClientThread */
    "recordcount", "operationcount", "workload", "db", "exporter", "exportfile",
    "threadcount", "target", "maxexecutiontime", "dotransactions", "status", "label",
    "status.interval", "spin.sleep",
    /* measurements */
    "measurementtype", "measurement.interval", "measurement.trackjvm",
    "measurement.histogram.verbose", "measurement.raw.output_file",
    "measurement.raw.no_summary", "hdrhistogram.percentiles", "hdrhistogram.fileoutput",
    "hdrhistogram.output.path", "histogram.buckets", "timeseries.granularity",
    /* DBWrapper */
    "reportlatencyforeacherror", "latencytrackederrors",
    /* BasicDB, YCSB's default db */
    "basicdb.count", "basicdb.verbose", "basicdb.simulatedelay", "basicdb.randomizedelay",
    /* the HBase bindings (hbase1, hbase2) */
    "columnfamily", "debug", "principal", "keytab", "clientbuffering", "writebuffersize",
    "durability", "hbase.usepagefilter", "hbase.usescanvaluefiltering",
    "hbase.scanfilteroperator", "hbase.scanfiltervalue",
    /* set by workloads/workload_template (read only by googlebigtable2) */
    "maxscanrate", "scanoptimelimit", "discardscannedrecord",
};

/* Prefixes of accepted names: Client hands "htrace." properties to HTrace;
 * "hbase." is HBase's own configuration namespace. */
static const char *const known_prefixes[] = { "htrace.", "hbase." };

/* Names people reach for that this YCSB does not have, and why. */
static const struct { const char *name, *why; } not_properties[] = {
    { "zipfianconstant", "YCSB d9faaac8 has no such property: the zipfian constant is "
                         "fixed at 0.99 (ZipfianGenerator.ZIPFIAN_CONSTANT)" },
    { "zipfian.constant", "YCSB d9faaac8 has no such property: the zipfian constant is "
                          "fixed at 0.99 (ZipfianGenerator.ZIPFIAN_CONSTANT)" },
    { "threads", "the Client's -threads option sets 'threadcount'" },
};

#define NKNOWN (sizeof known_names / sizeof known_names[0])

static bool is_known_name(const char *name)
{
    for (size_t i = 0; i < NKNOWN; i++)
        if (!strcmp(name, known_names[i]))
            return true;
    for (size_t i = 0; i < sizeof known_prefixes / sizeof known_prefixes[0]; i++) {
        size_t n = strlen(known_prefixes[i]);
        if (!strncmp(name, known_prefixes[i], n) && name[n])
            return true;
    }
    return false;
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Levenshtein distance, case-insensitive, capped: names longer than 64
 * bytes are far from every known name anyway. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return (size_t)-1;
    size_t row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = lower((unsigned char)a[i - 1]) != lower((unsigned char)b[j - 1]);
            size_t best = diag + cost;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (up + 1 < best)
                best = up + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* The known name nearest `name`, if at most half its letters differ. */
static const char *nearest_known_name(const char *name)
{
    const char *best = NULL;
    size_t bestd = (size_t)-1;
    for (size_t i = 0; i < NKNOWN; i++) {
        size_t d = edit_distance(name, known_names[i]);
        if (d < bestd) {
            bestd = d;
            best = known_names[i];
        }
    }
    if (!best || bestd == (size_t)-1)
        return NULL;
    size_t longer = strlen(name) > strlen(best) ? strlen(name) : strlen(best);
    return 2 * bestd <= longer ? best : NULL;
}

/* ---- messages ------------------------------------------------------------ */

/* s as a message shows it: printable ASCII as is, other bytes as \xNN,
 * cut after 64 bytes with "...". */
static void show(const char *s, char *out, size_t cap)
{
    size_t o = 0, i = 0;
    for (; s[i] && i < 64; i++) {
        unsigned char c = (unsigned char)s[i];
        char piece[5];
        if (c >= 0x20 && c < 0x7f)
            piece[0] = (char)c, piece[1] = '\0';
        else
            snprintf(piece, sizeof piece, "\\x%02X", c);
        size_t n = strlen(piece);
        if (o + n + 4 >= cap)
            break;
        memcpy(out + o, piece, n);
        o += n;
    }
    if (s[i] && o + 4 < cap) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o < cap ? o : cap - 1] = '\0';
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(char *err, size_t errcap, const char *fmt, ...)
{
    if (err && errcap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errcap, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* "unknown property 'NAME'", with the nearest known name or why. */
static void describe_unknown(const char *name, char *out, size_t cap)
{
    char shown[300];
    show(name, shown, sizeof shown);
    for (size_t i = 0; i < sizeof not_properties / sizeof not_properties[0]; i++)
        if (!strcmp(name, not_properties[i].name)) {
            snprintf(out, cap, "unknown property '%s' (%s)", shown, not_properties[i].why);
            return;
        }
    const char *near = nearest_known_name(name);
    if (near)
        snprintf(out, cap, "unknown property '%s' (did you mean '%s'?)", shown, near);
    else if (strchr(name, '.'))
        snprintf(out, cap, "unknown property '%s' (of the DB bindings' properties only "
                 "HBase's are accepted: docs/ycsb.md)", shown);
    else
        snprintf(out, cap, "unknown property '%s' (docs/ycsb.md lists the properties)", shown);
}

/* ---- the property set ------------------------------------------------------ */

enum { LEVEL_FILE = 0, LEVEL_COMMAND_LINE = 1 };
#define ENTRIES_MAX 4096

typedef struct entry {
    char *name, *value, *origin;
    int level;
} entry;

struct ycsb_properties {
    entry *v; /* in the order last set */
    size_t n, cap;
};

ycsb_properties *ycsb_properties_new(void)
{
    return calloc(1, sizeof(ycsb_properties));
}

static void entry_free(entry *e)
{
    free(e->name);
    free(e->value);
    free(e->origin);
}

void ycsb_properties_free(ycsb_properties *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        entry_free(&p->v[i]);
    free(p->v);
    free(p);
}

static char *copy_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, s, n);
    return c;
}

static const entry *find_entry(const ycsb_properties *p, const char *name)
{
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->v[i].name, name))
            return &p->v[i];
    return NULL;
}

/* Puts the setting last, replacing one of the same name unless that one
 * has a higher level. Returns 0, or -1 if out of memory or too many. */
static int put_entry(ycsb_properties *p, const char *name, const char *value,
                     const char *origin, int level, char *err, size_t errcap)
{
    const entry *old = find_entry(p, name);
    if (old && old->level > level)
        return 0; /* Client: the command line's properties win over files' */
    entry e = { copy_text(name), copy_text(value), copy_text(origin), level };
    if (!e.name || !e.value || !e.origin) {
        entry_free(&e);
        return fail(err, errcap, "%s: out of memory", origin);
    }
    if (old) {
        size_t i = (size_t)(old - p->v);
        entry_free(&p->v[i]);
        memmove(&p->v[i], &p->v[i + 1], (p->n - i - 1) * sizeof(entry));
        p->n--;
    } else if (p->n >= ENTRIES_MAX) {
        entry_free(&e);
        return fail(err, errcap, "%s: more than %d properties", origin, ENTRIES_MAX);
    }
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 32;
        entry *v = realloc(p->v, cap * sizeof(entry));
        if (!v) {
            entry_free(&e);
            return fail(err, errcap, "%s: out of memory", origin);
        }
        p->v = v;
        p->cap = cap;
    }
    p->v[p->n++] = e;
    return 0;
}

static int set_at_level(ycsb_properties *p, const char *name, const char *value,
                        const char *origin, int level, char *err, size_t errcap)
{
    if (!is_known_name(name)) {
        char why[512];
        describe_unknown(name, why, sizeof why);
        return fail(err, errcap, "%s: %s", origin, why);
    }
    return put_entry(p, name, value, origin, level, err, errcap);
}

int ycsb_properties_set(ycsb_properties *p, const char *name, const char *value,
                        const char *origin, char *err, size_t errcap)
{
    return set_at_level(p, name, value, origin, LEVEL_FILE, err, errcap);
}

/* Client.parseArguments: "-p name=value", split at the first '='. */
int ycsb_properties_set_pair(ycsb_properties *p, const char *pair, char *err, size_t errcap)
{
    char shown[300], origin[320];
    show(pair, shown, sizeof shown);
    snprintf(origin, sizeof origin, "-p %s", shown);
    const char *eq = strchr(pair, '=');
    if (!eq)
        return fail(err, errcap, "%s: expected NAME=VALUE (e.g. -p operationcount=99999), "
                    "found '%s'", origin, shown);
    size_t n = (size_t)(eq - pair);
    char *name = malloc(n + 1);
    if (!name)
        return fail(err, errcap, "%s: out of memory", origin);
    memcpy(name, pair, n);
    name[n] = '\0';
    int rc = set_at_level(p, name, eq + 1, origin, LEVEL_COMMAND_LINE, err, errcap);
    free(name);
    return rc;
}

/* ---- stock workloads ------------------------------------------------------- */

/* YCSB d9faaac8 workloads/workload<x>: each setting with its line. */
typedef struct stock_setting {
    int line;
    const char *name, *value;
} stock_setting;

#define STOCK_MAX 11

static const struct stock {
    char letter;
    stock_setting s[STOCK_MAX];
} stocks[] = {
    { 'a', { { 25, "recordcount", "1000" }, { 26, "operationcount", "1000" },
             { 27, "workload", "site.ycsb.workloads.CoreWorkload" },
             { 29, "readallfields", "true" }, { 31, "readproportion", "0.5" },
             { 32, "updateproportion", "0.5" }, { 33, "scanproportion", "0" },
             { 34, "insertproportion", "0" }, { 36, "requestdistribution", "zipfian" } } },
    { 'b', { { 24, "recordcount", "1000" }, { 25, "operationcount", "1000" },
             { 26, "workload", "site.ycsb.workloads.CoreWorkload" },
             { 28, "readallfields", "true" }, { 30, "readproportion", "0.95" },
             { 31, "updateproportion", "0.05" }, { 32, "scanproportion", "0" },
             { 33, "insertproportion", "0" }, { 35, "requestdistribution", "zipfian" } } },
    { 'c', { { 24, "recordcount", "1000" }, { 25, "operationcount", "1000" },
             { 26, "workload", "site.ycsb.workloads.CoreWorkload" },
             { 28, "readallfields", "true" }, { 30, "readproportion", "1" },
             { 31, "updateproportion", "0" }, { 32, "scanproportion", "0" },
             { 33, "insertproportion", "0" }, { 35, "requestdistribution", "zipfian" } } },
    { 'd', { { 29, "recordcount", "1000" }, { 30, "operationcount", "1000" },
             { 31, "workload", "site.ycsb.workloads.CoreWorkload" },
             { 33, "readallfields", "true" }, { 35, "readproportion", "0.95" },
             { 36, "updateproportion", "0" }, { 37, "scanproportion", "0" },
             { 38, "insertproportion", "0.05" }, { 40, "requestdistribution", "latest" } } },
    { 'e', { { 29, "recordcount", "1000" }, { 30, "operationcount", "1000" },
             { 31, "workload", "site.ycsb.workloads.CoreWorkload" },
             { 33, "readallfields", "true" }, { 35, "readproportion", "0" },
             { 36, "updateproportion", "0" }, { 37, "scanproportion", "0.95" },
             { 38, "insertproportion", "0.05" }, { 40, "requestdistribution", "zipfian" },
             { 42, "maxscanlength", "100" }, { 44, "scanlengthdistribution", "uniform" } } },
    { 'f', { { 24, "recordcount", "1000" }, { 25, "operationcount", "1000" },
             { 26, "workload", "site.ycsb.workloads.CoreWorkload" },
             { 28, "readallfields", "true" }, { 30, "readproportion", "0.5" },
             { 31, "updateproportion", "0" }, { 32, "scanproportion", "0" },
             { 33, "insertproportion", "0" }, { 34, "readmodifywriteproportion", "0.5" },
             { 36, "requestdistribution", "zipfian" } } },
};

static const struct stock *find_stock(const char *name)
{
    if (!name)
        return NULL;
    if (!strncmp(name, "workload", 8))
        name += 8;
    if (!name[0] || name[1])
        return NULL;
    for (size_t i = 0; i < sizeof stocks / sizeof stocks[0]; i++)
        if (stocks[i].letter == name[0])
            return &stocks[i];
    return NULL;
}

bool ycsb_builtin_exists(const char *name)
{
    return find_stock(name) != NULL;
}

int ycsb_properties_load_builtin(ycsb_properties *p, const char *name)
{
    const struct stock *w = find_stock(name);
    if (!w)
        return -1;
    for (size_t i = 0; i < STOCK_MAX && w->s[i].name; i++) {
        char origin[32];
        snprintf(origin, sizeof origin, "workload%c:%d", w->letter, w->s[i].line);
        if (put_entry(p, w->s[i].name, w->s[i].value, origin, LEVEL_FILE, NULL, 0) < 0)
            return -1;
    }
    return 0;
}

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
        return fail(err, errcap, "%s: cannot open the workload file: %s", shown, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        fclose(f);
        return fail(err, errcap, "%s: is a directory; expected a workload file", shown);
    }
    char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (out->n + got > FILE_MAX) {
            fclose(f);
            return fail(err, errcap, "%s: larger than %u MiB; expected a workload file", shown,
                        FILE_MAX >> 20);
        }
        if (buf_put(out, chunk, got) < 0) {
            fclose(f);
            return fail(err, errcap, "%s: out of memory", shown);
        }
    }
    int bad = ferror(f);
    int e = errno;
    fclose(f);
    if (bad)
        return fail(err, errcap, "%s: cannot read the workload file: %s", shown, strerror(e));
    return buf_put(out, "", 0) < 0 ? fail(err, errcap, "%s: out of memory", shown) : 0;
}

static bool is_prop_space(char c)
{
    return c == ' ' || c == '\t' || c == '\f';
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

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
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
        return fail(msg, msgcap, "out of memory");
    for (size_t i = 0; i < n;) {
        char c = s[i++];
        if (c != '\\' || i >= n) {
            if (c != '\\' && buf_put(out, &c, 1) < 0)
                return fail(msg, msgcap, "out of memory");
            continue;
        }
        c = s[i++];
        if (c == 'u') {
            long cp = read_u4(s, n, i);
            char shown[16];
            if (cp < 0) {
                char raw[8] = { 0 };
                memcpy(raw, s + i, n - i < 4 ? n - i : 4);
                show(raw, shown, sizeof shown);
                return fail(msg, msgcap, "malformed \\uXXXX escape '\\u%s' (expected four hex "
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
                return fail(msg, msgcap, "escape '\\u0000' (a NUL character is not allowed)");
            if (cp >= 0xD800 && cp <= 0xDFFF)
                return fail(msg, msgcap, "escape '\\u%04lX' (a lone UTF-16 surrogate; expected "
                            "a pair \\uD8xx\\uDCxx)", (unsigned long)cp);
            if (put_utf8(out, (unsigned long)cp) < 0)
                return fail(msg, msgcap, "out of memory");
            continue;
        }
        c = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c == 'f' ? '\f' : c;
        if (buf_put(out, &c, 1) < 0)
            return fail(msg, msgcap, "out of memory");
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
        return fail(err, errcap, "%s:%ld: NUL byte; expected a text file", shown, line);
    }
    reader r = { text, n, 0, 1 };
    buf raw = { 0 }, key = { 0 }, value = { 0 };
    int rc = 0;
    for (;;) {
        long line = 0;
        int got = next_logical_line(&r, &raw, &line);
        if (got <= 0) {
            if (got < 0)
                rc = fail(err, errcap, "%s: out of memory", shown);
            break;
        }
        size_t keylen, valstart;
        split_key_value(raw.s, raw.n, &keylen, &valstart);
        char why[512], origin[320];
        snprintf(origin, sizeof origin, "%s:%ld", shown, line);
        if (unescape(raw.s, keylen, &key, why, sizeof why) < 0 ||
            unescape(raw.s + valstart, raw.n - valstart, &value, why, sizeof why) < 0) {
            rc = fail(err, errcap, "%s: %s", origin, why);
            break;
        }
        if (set_at_level(into, key.s, value.s, origin, LEVEL_FILE, err, errcap) < 0) {
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
    show(path, shown, sizeof shown);
    buf text = { 0 };
    ycsb_properties *fresh = ycsb_properties_new();
    int rc = fresh ? read_whole_file(path, shown, &text, err, errcap)
                   : fail(err, errcap, "%s: out of memory", shown);
    if (rc == 0)
        rc = parse_properties(fresh, text.s ? text.s : "", text.n, shown, err, errcap);
    for (size_t i = 0; rc == 0 && i < fresh->n; i++)
        rc = put_entry(p, fresh->v[i].name, fresh->v[i].value, fresh->v[i].origin, LEVEL_FILE,
                       err, errcap);
    free(text.s);
    ycsb_properties_free(fresh);
    return rc;
}

/* ---- Java's number parsers ------------------------------------------------ */

/* Integer.parseInt / Long.parseLong: an optional sign, ASCII digits, no
 * space; *out within [lo, hi] of the Java type. Returns 0 or -1. */
static int java_parse_integer(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    bool neg = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    if (!*s)
        return -1;
    uint64_t limit = neg ? (uint64_t)(-(lo + 1)) + 1 : (uint64_t)hi, v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (limit - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    return 0;
}

static size_t span_digits(const char *s, bool hex)
{
    size_t n = 0;
    while (hex ? hex_digit(s[n]) >= 0 : (s[n] >= '0' && s[n] <= '9'))
        n++;
    return n;
}

/* Double.parseDouble (FloatingDecimal.readJavaFormatString): trimmed of
 * bytes <= ' ', an optional sign, then NaN, Infinity, a decimal or a hex
 * floating literal (binary exponent required), with an optional f/F/d/D
 * after a number. Returns 0 or -1. */
static int java_parse_double(const char *text, double *out)
{
    while (*text && (unsigned char)*text <= ' ')
        text++;
    size_t n = strlen(text);
    while (n && (unsigned char)text[n - 1] <= ' ')
        n--;
    if (n == 0 || n > 400)
        return -1;
    char s[402];
    memcpy(s, text, n);
    s[n] = '\0';
    size_t i = s[0] == '+' || s[0] == '-';
    double sign = s[0] == '-' ? -1.0 : 1.0;
    if (!strcmp(s + i, "NaN")) {
        *out = NAN;
        return 0;
    }
    if (!strcmp(s + i, "Infinity")) {
        *out = sign * INFINITY;
        return 0;
    }
    bool hex = s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
    size_t j = hex ? i + 2 : i;
    size_t whole = span_digits(s + j, hex);
    j += whole;
    size_t frac = 0;
    if (s[j] == '.') {
        frac = span_digits(s + j + 1, hex);
        j += 1 + frac;
    }
    if (whole + frac == 0)
        return -1;
    if (s[j] == (hex ? 'p' : 'e') || s[j] == (hex ? 'P' : 'E')) {
        size_t k = j + 1 + (s[j + 1] == '+' || s[j + 1] == '-');
        size_t e = span_digits(s + k, false);
        if (e == 0)
            return -1;
        j = k + e;
    } else if (hex) {
        return -1;
    }
    if (s[j] && strchr("fFdD", s[j]) && !s[j + 1])
        s[j] = '\0';
    if (s[j])
        return -1;
    errno = 0;
    char *end;
    double v = strtod(s, &end); /* the C locale: the program never calls setlocale */
    if (*end)
        return -1;
    *out = v;
    return 0;
}

/* Strict booleans: true or false, in any case. */
static int parse_bool(const char *s, bool *out)
{
    static const char *const names[] = { "false", "true" };
    for (int b = 0; b < 2; b++) {
        size_t k = 0;
        while (names[b][k] && lower((unsigned char)s[k]) == names[b][k])
            k++;
        if (!names[b][k] && !s[k]) {
            *out = b;
            return 0;
        }
    }
    return -1;
}

/* ---- resolving -------------------------------------------------------------- */

typedef struct resolver {
    const ycsb_properties *p;
    char *err;
    size_t errcap;
} resolver;

/* "ORIGIN: NAME: expected EXPECT, found 'VALUE'" for entry e. */
static int refuse(resolver *r, const entry *e, const char *expect)
{
    char shown[300];
    show(e->value, shown, sizeof shown);
    size_t n = strlen(e->value);
    const char *hint = n && is_prop_space(e->value[n - 1]) ? " (white space at its end)" : "";
    return fail(r->err, r->errcap, "%s: %s: expected %s, found '%s'%s", e->origin, e->name, expect,
                shown, hint);
}

/* An integer property (Integer.parseInt if is_int, else Long.parseLong)
 * within [lo, hi]; def if not set. */
static int get_integer(resolver *r, const char *name, bool is_int, int64_t def, int64_t lo,
                       int64_t hi, const char *expect, int64_t *out)
{
    const entry *e = find_entry(r->p, name);
    *out = def;
    if (!e)
        return 0;
    int64_t v;
    if (java_parse_integer(e->value, is_int ? INT32_MIN : INT64_MIN, is_int ? INT32_MAX : INT64_MAX,
                           &v) < 0 || v < lo || v > hi)
        return refuse(r, e, expect);
    *out = v;
    return 0;
}

static int get_int32(resolver *r, const char *name, int32_t def, int32_t lo, int32_t hi,
                     const char *expect, int32_t *out)
{
    int64_t v;
    if (get_integer(r, name, true, def, lo, hi, expect, &v) < 0)
        return -1;
    *out = (int32_t)v;
    return 0;
}

/* A Double.parseDouble property within [lo, hi] (open at lo if lo_open,
 * at hi if hi_open); NaN never. def if not set. */
static int get_double(resolver *r, const char *name, double def, double lo, bool lo_open,
                      double hi, bool hi_open, const char *expect, double *out)
{
    const entry *e = find_entry(r->p, name);
    *out = def;
    if (!e)
        return 0;
    double v;
    if (java_parse_double(e->value, &v) < 0 || isnan(v) || v < lo || (lo_open && v == lo) ||
        v > hi || (hi_open && v == hi))
        return refuse(r, e, expect);
    *out = v;
    return 0;
}

static int get_bool(resolver *r, const char *name, bool def, bool *out)
{
    const entry *e = find_entry(r->p, name);
    *out = def;
    if (e && parse_bool(e->value, out) < 0)
        return refuse(r, e, "true or false");
    return 0;
}

/* One of choices (NULL-terminated), compared exactly as YCSB's
 * compareTo/equals do; its index in *out, def if not set. */
static int get_choice(resolver *r, const char *name, const char *const *choices, int def,
                      const char *expect, int *out)
{
    const entry *e = find_entry(r->p, name);
    *out = def;
    if (!e)
        return 0;
    for (int i = 0; choices[i]; i++)
        if (!strcmp(e->value, choices[i])) {
            *out = i;
            return 0;
        }
    return refuse(r, e, expect);
}

/* Where a value came from, for messages about combinations. */
static const char *origin_of(const resolver *r, const char *name)
{
    const entry *e = find_entry(r->p, name);
    return e ? e->origin : "default";
}

/* Client.main: workload names the class; only CoreWorkload is simulated.
 * Measurements.setProperties: measurementtype and measurement.interval. */
static int check_client_classes(resolver *r)
{
    static const char *const workloads[] = { "site.ycsb.workloads.CoreWorkload",
                                             "com.yahoo.ycsb.workloads.CoreWorkload", NULL };
    static const char *const types[] = { "histogram", "hdrhistogram", "hdrhistogram+histogram",
                                         "hdrhistogram+raw", "timeseries", "raw", NULL };
    static const char *const intervals[] = { "op", "intended", "both", NULL };
    int ignored;
    if (get_choice(r, "workload", workloads, 0, "site.ycsb.workloads.CoreWorkload (regionsim "
                   "simulates CoreWorkload only)", &ignored) < 0 ||
        get_choice(r, "measurementtype", types, 1, "histogram, hdrhistogram, "
                   "hdrhistogram+histogram, hdrhistogram+raw, timeseries or raw", &ignored) < 0 ||
        get_choice(r, "measurement.interval", intervals, 0, "op, intended or both", &ignored) < 0)
        return -1;
    return 0;
}

/* Client.main and initDb: threads, target, the time limit. */
static int resolve_client(resolver *r, ycsb_workload *w)
{
    int32_t target;
    if (get_int32(r, "threadcount", 1, 1, YCSB_THREADS_MAX,
                  "a count of client threads from 1 to 1000000", &w->threadcount) < 0 ||
        get_int32(r, "target", 0, 0, INT32_MAX,
                  "operations per second from 0 (unthrottled) to 2147483647", &target) < 0 ||
        get_int32(r, "maxexecutiontime", 0, 0, INT32_MAX,
                  "seconds from 0 (no limit) to 2147483647", &w->maxexecutiontime) < 0)
        return -1;
    w->target = target;
    return 0;
}

/* CoreWorkload.init: recordcount, insertstart, insertcount (their check:
 * "recordcount must be bigger than insertstart + insertcount"), and
 * Client's operationcount. */
static int resolve_counts(resolver *r, ycsb_workload *w)
{
    ycsb_props *c = &w->core;
    int64_t recordcount, insertstart, insertcount;
    int32_t operationcount;
    if (get_integer(r, "recordcount", false, 0, 0, YCSB_RECORDS_MAX,
                    "a count of records from 0 (Integer.MAX_VALUE) to 4294967295 (regionsim's "
                    "limit)", &recordcount) < 0 ||
        get_integer(r, "insertstart", false, 0, 0, YCSB_RECORDS_MAX,
                    "a record number from 0 to 4294967295", &insertstart) < 0 ||
        get_integer(r, "insertcount", false, -1, 0, YCSB_RECORDS_MAX,
                    "a count of records from 0 to 4294967295", &insertcount) < 0 ||
        get_int32(r, "operationcount", 0, 1, INT32_MAX,
                  "a count of operations from 1 to 2147483647 (YCSB's 0 runs without end)",
                  &operationcount) < 0)
        return -1;
    if (!find_entry(r->p, "operationcount"))
        return fail(r->err, r->errcap, "operationcount: expected a count of operations from 1 to "
                    "2147483647, found nothing: it is not set (YCSB's default 0 runs without "
                    "end; the stock workloads set 1000)");
    if (recordcount == 0)
        recordcount = INT32_MAX; /* CoreWorkload.init */
    if (insertcount < 0)
        insertcount = recordcount - insertstart < 0 ? 0 : recordcount - insertstart;
    if (insertstart + insertcount > recordcount) {
        const char *name = find_entry(r->p, "insertcount") ? "insertcount" : "insertstart";
        return fail(r->err, r->errcap, "%s: %s: expected insertstart + insertcount <= recordcount "
                    "(CoreWorkload.init exits otherwise), found insertstart %lld (%s) + "
                    "insertcount %lld > recordcount %lld (%s)", origin_of(r, name), name,
                    (long long)insertstart, origin_of(r, "insertstart"), (long long)insertcount,
                    (long long)recordcount, origin_of(r, "recordcount"));
    }
    c->recordcount = recordcount;
    c->insertstart = insertstart;
    c->insertcount = insertcount;
    c->operationcount = operationcount;
    return 0;
}

/* createOperationGenerator's five proportions. */
static int resolve_proportions(resolver *r, ycsb_workload *w)
{
    static const char *const names[] = { "readproportion", "updateproportion",
                                          "insertproportion", "scanproportion",
                                          "readmodifywriteproportion" };
    double *fields[] = { &w->core.readproportion, &w->core.updateproportion,
                         &w->core.insertproportion, &w->core.scanproportion,
                         &w->core.readmodifywriteproportion };
    double sum = 0;
    for (size_t i = 0; i < 5; i++) {
        if (get_double(r, names[i], *fields[i], 0, false, INFINITY, true,
                       "a proportion >= 0 (a number)", fields[i]) < 0)
            return -1;
        sum += *fields[i];
    }
    if (!(sum > 0) || isinf(sum))
        return fail(r->err, r->errcap, "%s: readproportion: expected the proportions (read, "
                    "update, insert, scan, readmodifywrite) to add up to more than 0 (YCSB's "
                    "threads stop at once otherwise), found %g", origin_of(r, "readproportion"),
                    sum);
    return 0;
}

/* The request distribution and what it reads. */
static int resolve_keys(resolver *r, ycsb_workload *w)
{
    static const char *const dists[] = { "uniform", "zipfian", "latest", "hotspot", "sequential",
                                         "exponential", NULL };
    static const char *const orders[] = { "hashed", "ordered", NULL };
    ycsb_props *c = &w->core;
    int dist, order;
    if (get_choice(r, "requestdistribution", dists, YCSB_REQ_UNIFORM,
                   "uniform, zipfian, latest, hotspot, sequential or exponential", &dist) < 0 ||
        get_choice(r, "insertorder", orders, 0, "hashed or ordered", &order) < 0 ||
        get_int32(r, "zeropadding", c->zeropadding, 0, 255, "digits from 0 to 255",
                  &c->zeropadding) < 0 ||
        get_double(r, "hotspotdatafraction", c->hotspotdatafraction, 0, false, 1, false,
                   "a fraction from 0 to 1", &c->hotspotdatafraction) < 0 ||
        get_double(r, "hotspotopnfraction", c->hotspotopnfraction, 0, false, 1, false,
                   "a fraction from 0 to 1", &c->hotspotopnfraction) < 0 ||
        get_double(r, "exponential.percentile", c->exponential_percentile, 0, true, 100, true,
                   "a percentile above 0 and below 100", &c->exponential_percentile) < 0 ||
        get_double(r, "exponential.frac", c->exponential_frac, 0, true, INFINITY, true,
                   "a fraction of the records above 0", &c->exponential_frac) < 0)
        return -1;
    c->requestdistribution = (ycsb_requestdist)dist;
    c->orderedinserts = order == 1;
    /* UniformLongGenerator, SequentialGenerator and HotspotIntegerGenerator
     * over insertstart .. insertstart + insertcount - 1 divide by its size:
     * an empty range crashes the first read, update, scan or rmw. */
    bool ranged = dist == YCSB_REQ_UNIFORM || dist == YCSB_REQ_SEQUENTIAL || dist == YCSB_REQ_HOTSPOT;
    bool draws = c->readproportion > 0 || c->updateproportion > 0 || c->scanproportion > 0 ||
                 c->readmodifywriteproportion > 0;
    if (ranged && draws && c->insertcount == 0)
        return fail(r->err, r->errcap, "%s: insertcount: expected at least 1 record for "
                    "requestdistribution=%s to choose from, found 0", origin_of(r, "insertcount"),
                    dists[dist]);
    /* Transaction inserts number records from recordcount on. */
    if (c->insertproportion > 0 &&
        (uint64_t)c->recordcount + (uint64_t)c->operationcount > YCSB_RECORDS_MAX)
        return fail(r->err, r->errcap, "%s: operationcount: expected recordcount + operationcount "
                    "<= 4294967295 (regionsim's limit of records; with insertproportion > 0 "
                    "each operation may insert one), found %lld + %lld",
                    origin_of(r, "operationcount"), (long long)c->recordcount,
                    (long long)c->operationcount);
    return 0;
}

/* getFieldLengthGenerator and the fields. */
static int resolve_fields(resolver *r, ycsb_workload *w)
{
    static const char *const lengths[] = { "constant", "uniform", "zipfian", "histogram", NULL };
    int64_t fieldcount;
    int dist;
    bool dataintegrity;
    if (get_integer(r, "fieldcount", false, 10, 1, INT32_MAX,
                    "a count of fields from 1 to 2147483647", &fieldcount) < 0 ||
        get_int32(r, "fieldlength", 100, 0, INT32_MAX, "bytes from 0 to 2147483647",
                  &w->fieldlength) < 0 ||
        get_int32(r, "minfieldlength", 1, 0, INT32_MAX, "bytes from 0 to 2147483647",
                  &w->minfieldlength) < 0 ||
        get_choice(r, "fieldlengthdistribution", lengths, YCSB_LENGTH_CONSTANT,
                   "constant, uniform or zipfian", &dist) < 0 ||
        get_bool(r, "readallfields", true, &w->readallfields) < 0 ||
        get_bool(r, "writeallfields", false, &w->writeallfields) < 0 ||
        get_bool(r, "dataintegrity", false, &dataintegrity) < 0)
        return -1;
    w->fieldcount = (int32_t)fieldcount;
    w->fieldlengthdistribution = (ycsb_lengthdist)dist;
    if (dist == YCSB_LENGTH_HISTOGRAM)
        return refuse(r, find_entry(r->p, "fieldlengthdistribution"),
                      "constant, uniform or zipfian (histogram reads YCSB's histogram file, "
                      "which regionsim does not)");
    if (dist != YCSB_LENGTH_CONSTANT && w->minfieldlength > w->fieldlength)
        return fail(r->err, r->errcap, "%s: minfieldlength: expected minfieldlength <= "
                    "fieldlength (%d, %s), found %d", origin_of(r, "minfieldlength"),
                    w->fieldlength, origin_of(r, "fieldlength"), w->minfieldlength);
    if (dataintegrity && dist != YCSB_LENGTH_CONSTANT)
        return fail(r->err, r->errcap, "%s: dataintegrity: expected fieldlengthdistribution="
                    "constant with dataintegrity=true (\"Must have constant field size to check "
                    "data integrity.\"), found %s (%s)", origin_of(r, "dataintegrity"),
                    lengths[dist], origin_of(r, "fieldlengthdistribution"));
    if ((uint64_t)w->fieldcount * (uint64_t)w->fieldlength > YCSB_RECORD_BYTES_MAX)
        return fail(r->err, r->errcap, "%s: fieldlength: expected fieldcount x fieldlength <= "
                    "4294967295 bytes a record (regionsim's limit), found %d x %d",
                    origin_of(r, "fieldlength"), w->fieldcount, w->fieldlength);
    return 0;
}

/* The scan length generator: a scan of 0 rows divides by zero in
 * doTransactionScan's measurement. */
static int resolve_scans(resolver *r, ycsb_workload *w)
{
    static const char *const dists[] = { "uniform", "zipfian", NULL };
    int dist;
    if (get_int32(r, "minscanlength", 1, 1, INT32_MAX, "rows from 1 to 2147483647",
                  &w->minscanlength) < 0 ||
        get_int32(r, "maxscanlength", 1000, 1, INT32_MAX, "rows from 1 to 2147483647",
                  &w->maxscanlength) < 0 ||
        get_choice(r, "scanlengthdistribution", dists, 0, "uniform or zipfian", &dist) < 0)
        return -1;
    w->scanlengthdistribution = dist == 0 ? YCSB_LENGTH_UNIFORM : YCSB_LENGTH_ZIPFIAN;
    if (w->minscanlength > w->maxscanlength) {
        const char *name = find_entry(r->p, "minscanlength") ? "minscanlength" : "maxscanlength";
        return fail(r->err, r->errcap, "%s: %s: expected minscanlength <= maxscanlength, found "
                    "%d (%s) > %d (%s)", origin_of(r, name), name, w->minscanlength,
                    origin_of(r, "minscanlength"), w->maxscanlength, origin_of(r, "maxscanlength"));
    }
    return 0;
}

/* CoreWorkload.init reads these and the simulator has no use for them:
 * checked as YCSB parses them. */
static int check_unused_core(resolver *r)
{
    int32_t ignored;
    bool b;
    if (get_int32(r, "core_workload_insertion_retry_limit", 0, 0, INT32_MAX,
                  "a count of retries from 0 to 2147483647", &ignored) < 0 ||
        get_int32(r, "core_workload_insertion_retry_interval", 3, 0, INT32_MAX,
                  "seconds from 0 to 2147483647", &ignored) < 0 ||
        get_bool(r, "readallfieldsbyname", false, &b) < 0 ||
        get_bool(r, "core_workload_insertion_keep_going_on_error", false, &b) < 0)
        return -1;
    return 0;
}

int ycsb_workload_resolve(const ycsb_properties *p, ycsb_workload *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    ycsb_props_default(&out->core);
    resolver r = { p, err, errcap };
    if (check_client_classes(&r) < 0 || resolve_client(&r, out) < 0 ||
        resolve_counts(&r, out) < 0 || resolve_proportions(&r, out) < 0 ||
        resolve_keys(&r, out) < 0 || resolve_fields(&r, out) < 0 || resolve_scans(&r, out) < 0 ||
        check_unused_core(&r) < 0)
        return -1;
    return 0;
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
