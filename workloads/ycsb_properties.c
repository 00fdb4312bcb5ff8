/* ycsb_properties.c -- the YCSB property set: settings with where each
 * came from, which one wins, and the names YCSB knows.
 *
 * Design. A ycsb_properties is a small array of settings (name, value,
 * origin, level), in the order they were last set; a setting replaces the
 * one of the same name unless that came from a higher level (-p over
 * files, as Client.parseArguments copies the command line's properties
 * over the files'). Names are checked when set, against the table of
 * known properties below (plus a few prefixes); values stay text until
 * ycsb_workload_resolve (ycsb_workload.c), so a message can name the
 * file:line of a bad value whatever set it later. The table is the single
 * list of names: suggestions ("did you mean") and docs/ycsb.md follow it.
 *
 * Trade-offs. The array is searched linearly by name: a workload sets
 * tens of properties, and ENTRIES_MAX bounds the worst case. A suggestion
 * is the known name at the smallest edit distance, computed against every
 * name, only when a name is refused.
 *
 * The other files of the workload (workloads/ycsb_workload_impl.h): the
 * java.util.Properties text is read and written in ycsb_propfile.c; the
 * stock workloads and resolution are in ycsb_workload.c. This file offers
 * them the set's primitives and the message helpers (prefix yp_).
 *
 * Upstream (brianfrankcooper/YCSB at d9faaac8), facts taken, not code: the
 * names and the classes that read them (CoreWorkload, Client,
 * ClientThread, ExponentialGenerator, Measurements, DBWrapper, BasicDB,
 * HBaseClient{1,2}); which setting wins: Client.parseArguments.
 */
#include "workloads/ycsb_workload_impl.h"

#include "core/nearest.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The known name nearest `name` (letters' case aside: core/nearest.h),
 * if at most half its letters differ. */
static const char *nearest_known_name(const char *name)
{
    nearest n = nearest_start(name, NEAREST_MAX_LEN, 1);
    for (size_t i = 0; i < NKNOWN; i++)
        nearest_offer(&n, known_names[i]);
    if (!n.best)
        return NULL;
    size_t longer = strlen(name) > strlen(n.best) ? strlen(name) : strlen(n.best);
    return 2 * n.distance <= longer ? n.best : NULL;
}

/* ---- messages ------------------------------------------------------------ */

void yp_show(const char *s, char *out, size_t cap)
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

int yp_fail(char *err, size_t errcap, const char *fmt, ...)
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
    yp_show(name, shown, sizeof shown);
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

#define ENTRIES_MAX 4096

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

const entry *yp_find_entry(const ycsb_properties *p, const char *name)
{
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->v[i].name, name))
            return &p->v[i];
    return NULL;
}

int yp_put_entry(ycsb_properties *p, const char *name, const char *value,
                 const char *origin, int level, char *err, size_t errcap)
{
    const entry *old = yp_find_entry(p, name);
    if (old && old->level > level)
        return 0; /* Client: the command line's properties win over files' */
    entry e = { strdup(name), strdup(value), strdup(origin), level };
    if (!e.name || !e.value || !e.origin) {
        entry_free(&e);
        return yp_fail(err, errcap, "%s: out of memory", origin);
    }
    if (old) {
        size_t i = (size_t)(old - p->v);
        entry_free(&p->v[i]);
        memmove(&p->v[i], &p->v[i + 1], (p->n - i - 1) * sizeof(entry));
        p->n--;
    } else if (p->n >= ENTRIES_MAX) {
        entry_free(&e);
        return yp_fail(err, errcap, "%s: more than %d properties", origin, ENTRIES_MAX);
    }
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 32;
        entry *v = realloc(p->v, cap * sizeof(entry));
        if (!v) {
            entry_free(&e);
            return yp_fail(err, errcap, "%s: out of memory", origin);
        }
        p->v = v;
        p->cap = cap;
    }
    p->v[p->n++] = e;
    return 0;
}

int yp_set_at_level(ycsb_properties *p, const char *name, const char *value,
                    const char *origin, int level, char *err, size_t errcap)
{
    if (!is_known_name(name)) {
        char why[512];
        describe_unknown(name, why, sizeof why);
        return yp_fail(err, errcap, "%s: %s", origin, why);
    }
    return yp_put_entry(p, name, value, origin, level, err, errcap);
}

int ycsb_properties_set(ycsb_properties *p, const char *name, const char *value,
                        const char *origin, char *err, size_t errcap)
{
    return yp_set_at_level(p, name, value, origin, LEVEL_FILE, err, errcap);
}

/* Client.parseArguments: "-p name=value", split at the first '='. */
int ycsb_properties_set_pair(ycsb_properties *p, const char *pair, char *err, size_t errcap)
{
    char shown[300], origin[320];
    yp_show(pair, shown, sizeof shown);
    snprintf(origin, sizeof origin, "-p %s", shown);
    const char *eq = strchr(pair, '=');
    if (!eq)
        return yp_fail(err, errcap, "%s: expected NAME=VALUE (e.g. -p operationcount=99999), "
                       "found '%s'", origin, shown);
    size_t n = (size_t)(eq - pair);
    char *name = malloc(n + 1);
    if (!name)
        return yp_fail(err, errcap, "%s: out of memory", origin);
    memcpy(name, pair, n);
    name[n] = '\0';
    int rc = yp_set_at_level(p, name, eq + 1, origin, LEVEL_COMMAND_LINE, err, errcap);
    free(name);
    return rc;
}
