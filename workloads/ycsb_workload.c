/* ycsb_workload.c -- YCSB's stock workloads, and the resolution of a
 * property set into a ycsb_workload.
 *
 * Design. The stock workloads a..f are tables of the settings of YCSB's
 * workload files, each with its line there; loading one puts them into
 * the set as a file would, with origin "workload<x>:LINE", so a message
 * names YCSB's own file. Resolution reads each property with an effect by
 * name, parses it as YCSB parses it (Java's Integer.parseInt,
 * Long.parseLong and Double.parseDouble, whose grammar is checked below:
 * C's strtol and strtod accept more) and checks its range, then the
 * combinations YCSB refuses or would crash on; one function a group
 * (client, counts, proportions, keys, fields, scans). The first error ends
 * it, naming the origin of the value (ycsb_properties.c keeps it) or
 * "default".
 *
 * Upstream (brianfrankcooper/YCSB at d9faaac8), facts taken, not code:
 *  - properties, defaults, parsing and the checks YCSB makes:
 *    core/src/main/java/site/ycsb/workloads/CoreWorkload.java (init,
 *    getFieldLengthGenerator, createOperationGenerator), Client.java
 *    (main, initDb, parseArguments), ClientThread.java,
 *    generator/ExponentialGenerator.java, generator/HotspotIntegerGenerator,
 *    measurements/Measurements.java (setProperties), DBWrapper.java,
 *    BasicDB.java, hbase1/hbase2 HBaseClient{1,2}.java (init);
 *  - stock workloads: workloads/workloada .. workloadf.
 * (The file syntax: ycsb_propfile.c.)
 *
 * Where regionsim is stricter than YCSB (each documented in docs/ycsb.md):
 * booleans must be true or false (any case; Boolean.parseBoolean takes
 * anything else as false, so "yes" or "1" would silently mean false);
 * insertorder must be hashed or ordered (YCSB takes anything but "hashed"
 * as ordered); fractions must lie in their range (HotspotIntegerGenerator
 * clamps with a warning); counts must fit the simulator.
 */
#include "workloads/ycsb_workload_impl.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        if (yp_put_entry(p, w->s[i].name, w->s[i].value, origin, LEVEL_FILE, NULL, 0) < 0)
            return -1;
    }
    return 0;
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
    yp_show(e->value, shown, sizeof shown);
    size_t n = strlen(e->value);
    const char *hint = n && is_prop_space(e->value[n - 1]) ? " (white space at its end)" : "";
    return yp_fail(r->err, r->errcap, "%s: %s: expected %s, found '%s'%s", e->origin, e->name,
                   expect, shown, hint);
}

/* An integer property (Integer.parseInt if is_int, else Long.parseLong)
 * within [lo, hi]; def if not set. */
static int get_integer(resolver *r, const char *name, bool is_int, int64_t def, int64_t lo,
                       int64_t hi, const char *expect, int64_t *out)
{
    const entry *e = yp_find_entry(r->p, name);
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
    const entry *e = yp_find_entry(r->p, name);
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
    const entry *e = yp_find_entry(r->p, name);
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
    const entry *e = yp_find_entry(r->p, name);
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
    const entry *e = yp_find_entry(r->p, name);
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
    if (!yp_find_entry(r->p, "operationcount"))
        return yp_fail(r->err, r->errcap, "operationcount: expected a count of operations from 1 "
                       "to 2147483647, found nothing: it is not set (YCSB's default 0 runs without "
                       "end; the stock workloads set 1000)");
    if (recordcount == 0)
        recordcount = INT32_MAX; /* CoreWorkload.init */
    if (insertcount < 0)
        insertcount = recordcount - insertstart < 0 ? 0 : recordcount - insertstart;
    if (insertstart + insertcount > recordcount) {
        const char *name = yp_find_entry(r->p, "insertcount") ? "insertcount" : "insertstart";
        return yp_fail(r->err, r->errcap, "%s: %s: expected insertstart + insertcount <= "
                       "recordcount (CoreWorkload.init exits otherwise), found insertstart %lld "
                       "(%s) + insertcount %lld > recordcount %lld (%s)", origin_of(r, name), name,
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
        return yp_fail(r->err, r->errcap, "%s: readproportion: expected the proportions (read, "
                       "update, insert, scan, readmodifywrite) to add up to more than 0 (YCSB's "
                       "threads stop at once otherwise), found %g", origin_of(r, "readproportion"),
                       sum);
    return 0;
}

/* requestdistribution's values, in ycsb_requestdist's order. */
static const char *const dists[] = { "uniform", "zipfian", "latest", "hotspot", "sequential",
                                     "exponential", NULL };

const char *ycsb_requestdist_name(ycsb_requestdist d)
{
    return (unsigned)d <= YCSB_REQ_EXPONENTIAL ? dists[d] : "?";
}

/* The request distribution and what it reads. */
static int resolve_keys(resolver *r, ycsb_workload *w)
{
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
        return yp_fail(r->err, r->errcap, "%s: insertcount: expected at least 1 record for "
                       "requestdistribution=%s to choose from, found 0",
                       origin_of(r, "insertcount"), dists[dist]);
    /* Transaction inserts number records from recordcount on. */
    if (c->insertproportion > 0 &&
        (uint64_t)c->recordcount + (uint64_t)c->operationcount > YCSB_RECORDS_MAX)
        return yp_fail(r->err, r->errcap, "%s: operationcount: expected recordcount + "
                       "operationcount <= 4294967295 (regionsim's limit of records; with "
                       "insertproportion > 0 each operation may insert one), found %lld + %lld",
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
        return refuse(r, yp_find_entry(r->p, "fieldlengthdistribution"),
                         "constant, uniform or zipfian (histogram reads YCSB's histogram file, "
                         "which regionsim does not)");
    if (dist != YCSB_LENGTH_CONSTANT && w->minfieldlength > w->fieldlength)
        return yp_fail(r->err, r->errcap, "%s: minfieldlength: expected minfieldlength <= "
                       "fieldlength (%d, %s), found %d", origin_of(r, "minfieldlength"),
                       w->fieldlength, origin_of(r, "fieldlength"), w->minfieldlength);
    if (dataintegrity && dist != YCSB_LENGTH_CONSTANT)
        return yp_fail(r->err, r->errcap, "%s: dataintegrity: expected fieldlengthdistribution="
                       "constant with dataintegrity=true (\"Must have constant field size to check "
                       "data integrity.\"), found %s (%s)", origin_of(r, "dataintegrity"),
                       lengths[dist], origin_of(r, "fieldlengthdistribution"));
    if ((uint64_t)w->fieldcount * (uint64_t)w->fieldlength > YCSB_RECORD_BYTES_MAX)
        return yp_fail(r->err, r->errcap, "%s: fieldlength: expected fieldcount x fieldlength <= "
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
        const char *name = yp_find_entry(r->p, "minscanlength") ? "minscanlength" : "maxscanlength";
        return yp_fail(r->err, r->errcap, "%s: %s: expected minscanlength <= maxscanlength, found "
                       "%d (%s) > %d (%s)", origin_of(r, name), name, w->minscanlength,
                       origin_of(r, "minscanlength"), w->maxscanlength,
                       origin_of(r, "maxscanlength"));
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
