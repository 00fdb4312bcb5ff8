/* test_ycsb_workload.c -- YCSB property files and their resolution
 * (workloads/ycsb_workload.h): java.util.Properties syntax, the stock
 * workloads a..f (YCSB d9faaac8 workloads/workloada..f), every property's
 * default, a value taking effect and a bad value refused with its origin,
 * unknown names with the nearest suggestion, -p over files, describe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/support.h"
#include "workloads/ycsb_workload.h"

#define assert_near(a, b) assert_true(fabs((double)(a) - (double)(b)) <= 1e-12)

/* ---- helpers ------------------------------------------------------------- */

static char err[2048];
static char path[128]; /* the last file written by load_text */

/* Loads text as a workload file into p; returns load_file's result. */
static int load_text(ycsb_properties *p, const char *text)
{
    snprintf(path, sizeof path, "%s", test_temp_file("ycsbw", text));
    err[0] = '\0';
    int rc = ycsb_properties_load_file(p, path, err, sizeof err);
    unlink(path);
    return rc;
}

/* A file (NULL: none), then -p pairs (NULL-terminated), resolved. */
static int resolve(const char *file, const char *const *pairs, ycsb_workload *w)
{
    ycsb_properties *p = ycsb_properties_new();
    assert_non_null(p);
    if (file && load_text(p, file) < 0) {
        ycsb_properties_free(p);
        return -2;
    }
    for (size_t i = 0; pairs && pairs[i]; i++)
        if (ycsb_properties_set_pair(p, pairs[i], err, sizeof err) < 0) {
            ycsb_properties_free(p);
            return -3;
        }
    err[0] = '\0';
    int rc = ycsb_workload_resolve(p, w, err, sizeof err);
    ycsb_properties_free(p);
    return rc;
}

/* Resolves operationcount=1 plus one -p setting. */
static int resolve_one(const char *pair, ycsb_workload *w)
{
    const char *pairs[] = { "operationcount=1", pair, NULL };
    return resolve(NULL, pairs, w);
}

static void assert_starts(const char *s, const char *prefix)
{
    if (strncmp(s, prefix, strlen(prefix)) != 0) {
        fprintf(stderr, "'%s' does not start with '%s'\n", s, prefix);
        fail();
    }
}

/* ---- defaults and every property's effect ------------------------------- */

static void test_defaults(void **state)
{
    (void)state;
    ycsb_workload w;
    const char *pairs[] = { "operationcount=7", NULL };
    assert_int_equal(resolve(NULL, pairs, &w), 0);
    /* recordcount 0 is Integer.MAX_VALUE (CoreWorkload.init); insertcount
     * defaults to recordcount - insertstart */
    assert_true(w.core.recordcount == INT32_MAX);
    assert_true(w.core.insertstart == 0);
    assert_true(w.core.insertcount == INT32_MAX);
    assert_int_equal(w.core.operationcount, 7);
    assert_near(w.core.readproportion, 0.95);
    assert_near(w.core.updateproportion, 0.05);
    assert_near(w.core.insertproportion, 0);
    assert_near(w.core.scanproportion, 0);
    assert_near(w.core.readmodifywriteproportion, 0);
    assert_int_equal(w.core.requestdistribution, YCSB_REQ_UNIFORM);
    assert_int_equal(w.core.zeropadding, 1);
    assert_false(w.core.orderedinserts);
    assert_near(w.core.hotspotdatafraction, 0.2);
    assert_near(w.core.hotspotopnfraction, 0.8);
    assert_near(w.core.exponential_percentile, 95);
    assert_near(w.core.exponential_frac, 0.8571428571);
    assert_int_equal(w.fieldcount, 10);
    assert_int_equal(w.fieldlength, 100);
    assert_int_equal(w.minfieldlength, 1);
    assert_int_equal(w.fieldlengthdistribution, YCSB_LENGTH_CONSTANT);
    assert_true(w.readallfields);
    assert_false(w.writeallfields);
    assert_int_equal(w.minscanlength, 1);
    assert_int_equal(w.maxscanlength, 1000);
    assert_int_equal(w.scanlengthdistribution, YCSB_LENGTH_UNIFORM);
    assert_near(w.target, 0);
    assert_int_equal(w.threadcount, 1);
    assert_int_equal(w.maxexecutiontime, 0);
}

static void test_counts_take_effect(void **state)
{
    (void)state;
    ycsb_workload w;
    const char *pairs[] = { "operationcount=2147483647", "recordcount=5000", "insertstart=1000",
                            "insertcount=3000", NULL };
    assert_int_equal(resolve(NULL, pairs, &w), 0);
    assert_true(w.core.recordcount == 5000);
    assert_true(w.core.insertstart == 1000);
    assert_true(w.core.insertcount == 3000);
    assert_int_equal(w.core.operationcount, INT32_MAX);
    /* insertcount's default: recordcount - insertstart */
    const char *pairs2[] = { "operationcount=1", "recordcount=5000", "insertstart=1000", NULL };
    assert_int_equal(resolve(NULL, pairs2, &w), 0);
    assert_true(w.core.insertcount == 4000);
    /* Long.parseLong: past Integer.MAX_VALUE, up to regionsim's limit */
    assert_int_equal(resolve_one("recordcount=4294967295", &w), 0);
    assert_true(w.core.recordcount == 4294967295LL);
    assert_true(w.core.insertcount == 4294967295LL);
    assert_int_equal(resolve_one("recordcount=+12", &w), 0); /* parseLong takes a '+' */
    assert_true(w.core.recordcount == 12);
}

static void test_client_takes_effect(void **state)
{
    (void)state;
    ycsb_workload w;
    const char *pairs[] = { "operationcount=1", "threadcount=16", "target=2500",
                            "maxexecutiontime=600", NULL };
    assert_int_equal(resolve(NULL, pairs, &w), 0);
    assert_int_equal(w.threadcount, 16);
    assert_near(w.target, 2500);
    assert_int_equal(w.maxexecutiontime, 600);
    assert_int_equal(resolve_one("threadcount=1000000", &w), 0);
    assert_int_equal(w.threadcount, 1000000);
}

static void test_proportions_take_effect(void **state)
{
    (void)state;
    ycsb_workload w;
    const char *pairs[] = { "operationcount=1", "readproportion=0.1", "updateproportion=0.2",
                            "insertproportion=0.3", "scanproportion=0.15",
                            "readmodifywriteproportion=0.25", NULL };
    assert_int_equal(resolve(NULL, pairs, &w), 0);
    assert_near(w.core.readproportion, 0.1);
    assert_near(w.core.updateproportion, 0.2);
    assert_near(w.core.insertproportion, 0.3);
    assert_near(w.core.scanproportion, 0.15);
    assert_near(w.core.readmodifywriteproportion, 0.25);
    /* weights need not add up to 1 (DiscreteGenerator normalises) */
    const char *pairs2[] = { "operationcount=1", "readproportion=3", "updateproportion=1", NULL };
    assert_int_equal(resolve(NULL, pairs2, &w), 0);
    assert_near(w.core.readproportion, 3);
    /* Double.parseDouble's forms: trimmed, exponent, suffix, hex */
    assert_int_equal(resolve_one("readproportion= 5e-1 ", &w), 0);
    assert_near(w.core.readproportion, 0.5);
    assert_int_equal(resolve_one("readproportion=0.5d", &w), 0);
    assert_near(w.core.readproportion, 0.5);
    assert_int_equal(resolve_one("readproportion=.25F", &w), 0);
    assert_near(w.core.readproportion, 0.25);
    assert_int_equal(resolve_one("readproportion=0x1p-2", &w), 0);
    assert_near(w.core.readproportion, 0.25);
    assert_int_equal(resolve_one("readproportion=+1.", &w), 0);
    assert_near(w.core.readproportion, 1);
}

static void test_keys_take_effect(void **state)
{
    (void)state;
    static const struct { const char *v; ycsb_requestdist d; } dists[] = {
        { "uniform", YCSB_REQ_UNIFORM }, { "zipfian", YCSB_REQ_ZIPFIAN },
        { "latest", YCSB_REQ_LATEST }, { "hotspot", YCSB_REQ_HOTSPOT },
        { "sequential", YCSB_REQ_SEQUENTIAL }, { "exponential", YCSB_REQ_EXPONENTIAL },
    };
    ycsb_workload w;
    for (size_t i = 0; i < sizeof dists / sizeof dists[0]; i++) {
        char pair[64];
        snprintf(pair, sizeof pair, "requestdistribution=%s", dists[i].v);
        assert_int_equal(resolve_one(pair, &w), 0);
        assert_int_equal(w.core.requestdistribution, dists[i].d);
    }
    const char *pairs[] = { "operationcount=1", "insertorder=ordered", "zeropadding=12",
                            "hotspotdatafraction=0.1", "hotspotopnfraction=0.9",
                            "exponential.percentile=99", "exponential.frac=0.5", NULL };
    assert_int_equal(resolve(NULL, pairs, &w), 0);
    assert_true(w.core.orderedinserts);
    assert_int_equal(w.core.zeropadding, 12);
    assert_near(w.core.hotspotdatafraction, 0.1);
    assert_near(w.core.hotspotopnfraction, 0.9);
    assert_near(w.core.exponential_percentile, 99);
    assert_near(w.core.exponential_frac, 0.5);
    assert_int_equal(resolve_one("insertorder=hashed", &w), 0);
    assert_false(w.core.orderedinserts);
}

static void test_fields_and_scans_take_effect(void **state)
{
    (void)state;
    ycsb_workload w;
    const char *pairs[] = { "operationcount=1", "fieldcount=3", "fieldlength=400",
                            "minfieldlength=20", "fieldlengthdistribution=uniform",
                            "readallfields=false", "writeallfields=TRUE", "minscanlength=5",
                            "maxscanlength=50", "scanlengthdistribution=zipfian", NULL };
    assert_int_equal(resolve(NULL, pairs, &w), 0);
    assert_int_equal(w.fieldcount, 3);
    assert_int_equal(w.fieldlength, 400);
    assert_int_equal(w.minfieldlength, 20);
    assert_int_equal(w.fieldlengthdistribution, YCSB_LENGTH_UNIFORM);
    assert_false(w.readallfields);
    assert_true(w.writeallfields);
    assert_int_equal(w.minscanlength, 5);
    assert_int_equal(w.maxscanlength, 50);
    assert_int_equal(w.scanlengthdistribution, YCSB_LENGTH_ZIPFIAN);
    assert_int_equal(resolve_one("fieldlengthdistribution=zipfian", &w), 0);
    assert_int_equal(w.fieldlengthdistribution, YCSB_LENGTH_ZIPFIAN);
    assert_int_equal(resolve_one("fieldlengthdistribution=constant", &w), 0);
    assert_int_equal(w.fieldlengthdistribution, YCSB_LENGTH_CONSTANT);
    /* minfieldlength > fieldlength only matters for uniform/zipfian */
    const char *pairs2[] = { "operationcount=1", "minfieldlength=500", NULL };
    assert_int_equal(resolve(NULL, pairs2, &w), 0);
    assert_int_equal(w.minfieldlength, 500);
}

/* Properties CoreWorkload reads without an effect on the simulation, and
 * the checked ones among the Client's and measurements'. */
static void test_checked_properties_without_effect(void **state)
{
    (void)state;
    static const char *const accepted[] = {
        "workload=site.ycsb.workloads.CoreWorkload", "workload=com.yahoo.ycsb.workloads.CoreWorkload",
        "measurementtype=raw", "measurementtype=hdrhistogram+histogram",
        "measurement.interval=both", "dataintegrity=true", "readallfieldsbyname=true",
        "core_workload_insertion_retry_limit=5", "core_workload_insertion_retry_interval=0",
        "core_workload_insertion_keep_going_on_error=false",
    };
    ycsb_workload w;
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
        if (resolve_one(accepted[i], &w) != 0)
            fprintf(stderr, "%s: %s\n", accepted[i], err);
        assert_int_equal(resolve_one(accepted[i], &w), 0);
    }
}

/* Every property without effect whose value is not checked: accepted with
 * any value. */
static void test_unchecked_properties_are_accepted(void **state)
{
    (void)state;
    static const char *const names[] = {
        "table", "fieldnameprefix", "fieldlengthhistogram", "db", "exporter", "exportfile",
        "dotransactions", "status", "label", "status.interval", "spin.sleep",
        "measurement.trackjvm", "measurement.histogram.verbose", "measurement.raw.output_file",
        "measurement.raw.no_summary", "hdrhistogram.percentiles", "hdrhistogram.fileoutput",
        "hdrhistogram.output.path", "histogram.buckets", "timeseries.granularity",
        "reportlatencyforeacherror", "latencytrackederrors", "basicdb.count", "basicdb.verbose",
        "basicdb.simulatedelay", "basicdb.randomizedelay", "columnfamily", "debug", "principal",
        "keytab", "clientbuffering", "writebuffersize", "durability", "hbase.usepagefilter",
        "hbase.usescanvaluefiltering", "hbase.scanfilteroperator", "hbase.scanfiltervalue",
        "maxscanrate", "scanoptimelimit", "discardscannedrecord",
        "htrace.sampler.classes", "hbase.zookeeper.quorum",
    };
    ycsb_workload w, base;
    assert_int_equal(resolve_one("table=usertable", &base), 0);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char pair[128];
        snprintf(pair, sizeof pair, "%s=anything at all", names[i]);
        assert_int_equal(resolve_one(pair, &w), 0);
        assert_memory_equal(&w, &base, sizeof w); /* no effect */
    }
}

/* ---- refused values: the origin, the name, what was expected -------------- */

typedef struct bad_case {
    const char *setting;  /* name=value */
    const char *expected; /* part of the message after "NAME: " */
} bad_case;

static const bad_case bad_cases[] = {
    { "recordcount=abc", "expected a count of records" },
    { "recordcount=-1", "expected a count of records" },
    { "recordcount=4294967296", "4294967295 (regionsim's limit)" },
    { "recordcount=1 000", "expected a count of records" },
    { "recordcount=1000 ", "(white space at its end)" },
    { "operationcount=0", "YCSB's 0 runs without end" },
    { "operationcount=2147483648", "from 1 to 2147483647" },
    { "operationcount=1.5", "from 1 to 2147483647" },
    { "insertstart=-5", "expected a record number" },
    { "insertcount=x", "expected a count of records" },
    { "fieldcount=0", "from 1 to 2147483647" },
    { "fieldlength=-1", "bytes from 0" },
    { "minfieldlength=-1", "bytes from 0" },
    { "fieldlengthdistribution=histogram", "does not)" },
    { "fieldlengthdistribution=Uniform", "constant, uniform or zipfian" },
    { "readallfields=yes", "true or false" },
    { "writeallfields=1", "true or false" },
    { "readallfieldsbyname=no", "true or false" },
    { "dataintegrity=", "true or false" },
    { "core_workload_insertion_keep_going_on_error=y", "true or false" },
    { "readproportion=-0.1", "a proportion >= 0" },
    { "updateproportion=NaN", "a proportion >= 0" },
    { "insertproportion=Infinity", "a proportion >= 0" },
    { "scanproportion=0.5x", "a proportion >= 0" },
    { "readmodifywriteproportion=1,5", "a proportion >= 0" },
    { "requestdistribution=zipf", "uniform, zipfian, latest" },
    { "zeropadding=256", "digits from 0 to 255" },
    { "minscanlength=0", "rows from 1" },
    { "maxscanlength=0", "rows from 1" },
    { "scanlengthdistribution=latest", "uniform or zipfian" },
    { "insertorder=random", "hashed or ordered" },
    { "hotspotdatafraction=1.5", "a fraction from 0 to 1" },
    { "hotspotopnfraction=-0.5", "a fraction from 0 to 1" },
    { "exponential.percentile=100", "above 0 and below 100" },
    { "exponential.frac=0", "above 0" },
    { "core_workload_insertion_retry_limit=-1", "a count of retries" },
    { "core_workload_insertion_retry_interval=3s", "seconds from 0" },
    { "threadcount=0", "from 1 to 1000000" },
    { "threadcount=1000001", "from 1 to 1000000" },
    { "target=-1", "from 0 (unthrottled)" },
    { "target=100.5", "from 0 (unthrottled)" },
    { "maxexecutiontime=-1", "seconds from 0 (no limit)" },
    { "workload=site.ycsb.workloads.TimeSeriesWorkload", "CoreWorkload only" },
    { "measurementtype=hdr", "histogram, hdrhistogram" },
    { "measurement.interval=ops", "op, intended or both" },
};

/* Each bad value, given with -p and on line 3 of a file: refused, the
 * message "ORIGIN: NAME: expected ..., found 'VALUE'". */
static void test_bad_values_are_refused_with_their_origin(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        const char *eq = strchr(c->setting, '=');
        char name[128], prefix[512], found[256];
        snprintf(name, sizeof name, "%.*s", (int)(eq - c->setting), c->setting);
        snprintf(found, sizeof found, "found '%s'", eq + 1);
        ycsb_workload w;
        int rc = resolve_one(c->setting, &w);
        if (rc != -1)
            fprintf(stderr, "%s: accepted (%d)\n", c->setting, rc);
        assert_int_equal(rc, -1);
        snprintf(prefix, sizeof prefix, "-p %s: %s: expected ", c->setting, name);
        assert_starts(err, prefix);
        assert_contains(err, c->expected);
        assert_contains(err, found);

        char file[512];
        snprintf(file, sizeof file, "# a comment\noperationcount=1\n%s\n", c->setting);
        assert_int_equal(resolve(file, NULL, &w), -1);
        snprintf(prefix, sizeof prefix, "%s:3: %s: expected ", path, name);
        assert_starts(err, prefix);
        assert_contains(err, c->expected);
    }
}

static void test_combinations_refused(void **state)
{
    (void)state;
    ycsb_workload w;
    /* CoreWorkload.init: recordcount < insertstart + insertcount exits */
    const char *a[] = { "operationcount=1", "recordcount=1000", "insertstart=500",
                        "insertcount=600", NULL };
    assert_int_equal(resolve(NULL, a, &w), -1);
    assert_starts(err, "-p insertcount=600: insertcount: expected insertstart + insertcount <= "
                       "recordcount");
    assert_contains(err, "recordcount 1000 (-p recordcount=1000)");
    /* insertstart alone past recordcount */
    const char *b[] = { "operationcount=1", "recordcount=10", "insertstart=11", NULL };
    assert_int_equal(resolve(NULL, b, &w), -1);
    assert_starts(err, "-p insertstart=11: insertstart: expected insertstart + insertcount");
    /* operationcount not set: YCSB would run without end */
    assert_int_equal(resolve("recordcount=10\n", NULL, &w), -1);
    assert_starts(err, "operationcount: expected a count of operations");
    assert_contains(err, "not set");
    /* every proportion 0 */
    const char *c[] = { "operationcount=1", "readproportion=0", "updateproportion=0", NULL };
    assert_int_equal(resolve(NULL, c, &w), -1);
    assert_starts(err, "-p readproportion=0: readproportion: expected the proportions");
    /* minscanlength > maxscanlength */
    const char *d[] = { "operationcount=1", "minscanlength=10", "maxscanlength=5", NULL };
    assert_int_equal(resolve(NULL, d, &w), -1);
    assert_starts(err, "-p minscanlength=10: minscanlength: expected minscanlength <= "
                       "maxscanlength");
    const char *d2[] = { "operationcount=1", "maxscanlength=5", "minscanlength=5", NULL };
    assert_int_equal(resolve(NULL, d2, &w), 0);
    /* minfieldlength > fieldlength with uniform lengths */
    const char *e[] = { "operationcount=1", "fieldlengthdistribution=uniform",
                        "minfieldlength=200", NULL };
    assert_int_equal(resolve(NULL, e, &w), -1);
    assert_starts(err, "-p minfieldlength=200: minfieldlength: expected minfieldlength <= "
                       "fieldlength (100, default)");
    /* dataintegrity needs constant lengths (CoreWorkload.init exits) */
    const char *f[] = { "operationcount=1", "dataintegrity=true",
                        "fieldlengthdistribution=zipfian", NULL };
    assert_int_equal(resolve(NULL, f, &w), -1);
    assert_starts(err, "-p dataintegrity=true: dataintegrity: expected "
                       "fieldlengthdistribution=constant");
    /* a record's bytes past a uint32 */
    const char *g[] = { "operationcount=1", "fieldcount=100", "fieldlength=50000000", NULL };
    assert_int_equal(resolve(NULL, g, &w), -1);
    assert_starts(err, "-p fieldlength=50000000: fieldlength: expected fieldcount x fieldlength");
    /* an empty key range for a uniform read */
    const char *h[] = { "operationcount=1", "recordcount=10", "insertcount=0", NULL };
    assert_int_equal(resolve(NULL, h, &w), -1);
    assert_starts(err, "-p insertcount=0: insertcount: expected at least 1 record");
    const char *h2[] = { "operationcount=1", "recordcount=10", "insertcount=0",
                         "readproportion=0", "updateproportion=0", "insertproportion=1", NULL };
    assert_int_equal(resolve(NULL, h2, &w), 0); /* inserts only: no key is chosen */
    /* transaction inserts past regionsim's records */
    const char *k[] = { "operationcount=2", "recordcount=4294967294", "insertproportion=0.5",
                        NULL };
    assert_int_equal(resolve(NULL, k, &w), -1);
    assert_starts(err, "-p operationcount=2: operationcount: expected recordcount + "
                       "operationcount <= 4294967295");
    const char *k2[] = { "operationcount=1", "recordcount=4294967294", "insertproportion=0.5",
                         NULL };
    assert_int_equal(resolve(NULL, k2, &w), 0);
}

/* ---- stock workloads ------------------------------------------------------ */

static void test_builtins_resolve_to_their_mixes(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        double read, update, insert, scan, rmw;
        ycsb_requestdist dist;
        int32_t maxscan;
    } mixes[] = {
        { "a", 0.5, 0.5, 0, 0, 0, YCSB_REQ_ZIPFIAN, 1000 },
        { "b", 0.95, 0.05, 0, 0, 0, YCSB_REQ_ZIPFIAN, 1000 },
        { "c", 1, 0, 0, 0, 0, YCSB_REQ_ZIPFIAN, 1000 },
        { "d", 0.95, 0, 0.05, 0, 0, YCSB_REQ_LATEST, 1000 },
        { "e", 0, 0, 0.05, 0.95, 0, YCSB_REQ_ZIPFIAN, 100 },
        { "f", 0.5, 0, 0, 0, 0.5, YCSB_REQ_ZIPFIAN, 1000 },
    };
    for (size_t i = 0; i < sizeof mixes / sizeof mixes[0]; i++) {
        char longname[16];
        snprintf(longname, sizeof longname, "workload%s", mixes[i].name);
        assert_true(ycsb_builtin_exists(mixes[i].name));
        assert_true(ycsb_builtin_exists(longname));
        ycsb_properties *p = ycsb_properties_new();
        assert_int_equal(ycsb_properties_load_builtin(p, longname), 0);
        ycsb_workload w;
        assert_int_equal(ycsb_workload_resolve(p, &w, err, sizeof err), 0);
        ycsb_properties_free(p);
        assert_true(w.core.recordcount == 1000);
        assert_true(w.core.insertcount == 1000);
        assert_int_equal(w.core.operationcount, 1000);
        assert_near(w.core.readproportion, mixes[i].read);
        assert_near(w.core.updateproportion, mixes[i].update);
        assert_near(w.core.insertproportion, mixes[i].insert);
        assert_near(w.core.scanproportion, mixes[i].scan);
        assert_near(w.core.readmodifywriteproportion, mixes[i].rmw);
        assert_int_equal(w.core.requestdistribution, mixes[i].dist);
        assert_int_equal(w.maxscanlength, mixes[i].maxscan);
        assert_int_equal(w.scanlengthdistribution, YCSB_LENGTH_UNIFORM);
        assert_true(w.readallfields);
        assert_int_equal(w.fieldcount, 10);
        assert_int_equal(w.fieldlength, 100);
    }
    assert_false(ycsb_builtin_exists("g"));
    assert_false(ycsb_builtin_exists("A"));
    assert_false(ycsb_builtin_exists("workload"));
    assert_false(ycsb_builtin_exists(""));
    ycsb_properties *p = ycsb_properties_new();
    assert_int_equal(ycsb_properties_load_builtin(p, "workloadz"), -1);
    ycsb_properties_free(p);
}

/* The stock files' lines are the origins. */
static void test_builtin_origins(void **state)
{
    (void)state;
    ycsb_properties *p = ycsb_properties_new();
    assert_int_equal(ycsb_properties_load_builtin(p, "a"), 0);
    assert_int_equal(ycsb_properties_set_pair(p, "insertstart=10", err, sizeof err), 0);
    assert_int_equal(ycsb_properties_set_pair(p, "insertcount=1000", err, sizeof err), 0);
    ycsb_workload w;
    assert_int_equal(ycsb_workload_resolve(p, &w, err, sizeof err), -1);
    assert_contains(err, "recordcount 1000 (workloada:25)");
    ycsb_properties_free(p);
}

/* ---- file syntax ------------------------------------------------------------ */

static void test_file_syntax(void **state)
{
    (void)state;
    const char *file =
        "# a comment\n"
        "! another comment \\\n"
        "recordcount=99\n"                     /* the comment's backslash continues nothing */
        "   operationcount : 5\n"              /* leading space, ':' with spaces */
        "fieldcount 3\n"                       /* a space as the separator */
        "\tfieldlength\t=\t77\n"
        "readproportion = 0.\\\n"              /* a continuation ... */
        "      25\n"                           /* ... its leading space skipped */
        "updateproportion:=0.75\n"             /* ':' then '=' is part of the value */
        "table=user\\ttable\\u0041\\n\r\n"     /* \t \uXXXX \n escapes; CRLF */
        "requestdistribution=latest\r"         /* CR alone ends a line */
        "requestdistribution=hotspot\n"        /* the last setting wins */
        "\n"
        "   \n"
        "insertorder\\\n"
        "=ordered";                            /* no newline at the end */
    ycsb_properties *p = ycsb_properties_new();
    assert_int_equal(load_text(p, file), 0);
    ycsb_workload w;
    int rc = ycsb_workload_resolve(p, &w, err, sizeof err);
    /* updateproportion's value is "=0.75": refused, naming line 9 */
    assert_int_equal(rc, -1);
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s:9: updateproportion: expected a proportion >= 0", path);
    assert_starts(err, prefix);
    assert_contains(err, "found '=0.75'");
    assert_int_equal(ycsb_properties_set_pair(p, "updateproportion=0.75", err, sizeof err), 0);
    assert_int_equal(ycsb_workload_resolve(p, &w, err, sizeof err), 0);
    assert_true(w.core.recordcount == 99);
    assert_int_equal(w.core.operationcount, 5);
    assert_int_equal(w.fieldcount, 3);
    assert_int_equal(w.fieldlength, 77);
    assert_near(w.core.readproportion, 0.25);
    assert_near(w.core.updateproportion, 0.75);
    assert_int_equal(w.core.requestdistribution, YCSB_REQ_HOTSPOT);
    assert_true(w.core.orderedinserts);
    char text[1024];
    ycsb_properties_describe(p, text, sizeof text);
    assert_contains(text, "table=user\\ttableA\\n");
    ycsb_properties_free(p);
}

/* A key with escaped separators; a value keeping its inner and trailing
 * spaces; an empty value. */
static void test_file_escapes_in_keys_and_values(void **state)
{
    (void)state;
    ycsb_properties *p = ycsb_properties_new();
    assert_int_equal(load_text(p, "label=a b  \nhbase.x\\:y\\=z=1\nexportfile\n"), 0);
    char text[512];
    ycsb_properties_describe(p, text, sizeof text);
    assert_string_equal(text, "label=a\\ b\\ \\  hbase.x\\:y\\=z=1 exportfile=");
    ycsb_properties_free(p);
}

static void test_file_errors_name_the_line(void **state)
{
    (void)state;
    ycsb_properties *p = ycsb_properties_new();
    char prefix[256];
    /* a malformed \uXXXX */
    assert_int_equal(load_text(p, "recordcount=1\n\ntable=\\u12G4\n"), -1);
    snprintf(prefix, sizeof prefix, "%s:3: malformed \\uXXXX escape '\\u12G4'", path);
    assert_starts(err, prefix);
    /* a continued line: the line it starts on */
    assert_int_equal(load_text(p, "recordcount=1\nrecordcont\\\n = 5\n"), -1);
    snprintf(prefix, sizeof prefix, "%s:2: unknown property 'recordcont' (did you mean "
             "'recordcount'?)", path);
    assert_string_equal(err, prefix);
    /* a NUL byte (its line: \r\n is one line end), and a \u0000 */
    char nulpath[] = "/tmp/ycsbw-nul-XXXXXX";
    int fd = mkstemp(nulpath);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "a=1\r\nb=\0\n", 9), 9);
    close(fd);
    assert_int_equal(ycsb_properties_load_file(p, nulpath, err, sizeof err), -1);
    unlink(nulpath);
    snprintf(prefix, sizeof prefix, "%s:2: NUL byte; expected a text file", nulpath);
    assert_string_equal(err, prefix);
    assert_int_equal(load_text(p, "recordcount=1\ntable=\\u0000\n"), -1);
    snprintf(prefix, sizeof prefix, "%s:2: escape '\\u0000'", path);
    assert_starts(err, prefix);
    /* nothing was added by the failed loads */
    char text[64];
    assert_int_equal(ycsb_properties_describe(p, text, sizeof text), 0);
    /* a missing file, a directory */
    assert_int_equal(ycsb_properties_load_file(p, "/nonexistent/w", err, sizeof err), -1);
    assert_starts(err, "/nonexistent/w: cannot open the workload file: ");
    assert_int_equal(ycsb_properties_load_file(p, "/tmp", err, sizeof err), -1);
    assert_string_equal(err, "/tmp: is a directory; expected a workload file");
    ycsb_properties_free(p);
}

static void test_unknown_names_suggest_the_nearest(void **state)
{
    (void)state;
    static const struct { const char *name, *suggestion; } cases[] = {
        { "recordcont", "recordcount" }, { "RecordCount", "recordcount" },
        { "opcount", NULL }, { "readprop", "readproportion" },
        { "threadcnt", "threadcount" }, { "requestdistrib", "requestdistribution" },
        { "exponential.percent", "exponential.percentile" },
        { "fieldlengthdist", NULL },
    };
    ycsb_properties *p = ycsb_properties_new();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char pair[128], want[256];
        snprintf(pair, sizeof pair, "%s=1", cases[i].name);
        assert_int_equal(ycsb_properties_set_pair(p, pair, err, sizeof err), -1);
        snprintf(want, sizeof want, "-p %s: unknown property '%s' (", pair, cases[i].name);
        assert_starts(err, want);
        if (cases[i].suggestion) {
            snprintf(want, sizeof want, "(did you mean '%s'?)", cases[i].suggestion);
            assert_contains(err, want);
        }
    }
    /* another binding's property; a name YCSB does not have */
    assert_int_equal(ycsb_properties_set_pair(p, "mongodb.url=x", err, sizeof err), -1);
    assert_contains(err, "only HBase's are accepted");
    assert_int_equal(ycsb_properties_set_pair(p, "zipfianconstant=0.9", err, sizeof err), -1);
    assert_contains(err, "fixed at 0.99");
    /* ycsb_properties_set names its origin */
    assert_int_equal(ycsb_properties_set(p, "fieldcout", "1", "scenario.ini:12", err, sizeof err),
                     -1);
    assert_string_equal(err, "scenario.ini:12: unknown property 'fieldcout' (did you mean "
                             "'fieldcount'?)");
    /* a -p without '=' */
    assert_int_equal(ycsb_properties_set_pair(p, "recordcount", err, sizeof err), -1);
    assert_string_equal(err, "-p recordcount: expected NAME=VALUE (e.g. -p operationcount=99999), "
                             "found 'recordcount'");
    char text[64];
    assert_int_equal(ycsb_properties_describe(p, text, sizeof text), 0);
    ycsb_properties_free(p);
}

/* Client.parseArguments: -p wins over files whatever the order. */
static void test_command_line_overrides_files(void **state)
{
    (void)state;
    ycsb_properties *p = ycsb_properties_new();
    assert_int_equal(ycsb_properties_set_pair(p, "recordcount=77", err, sizeof err), 0);
    assert_int_equal(ycsb_properties_load_builtin(p, "a"), 0);
    assert_int_equal(load_text(p, "recordcount=88\nreadproportion=0.25\n"), 0);
    assert_int_equal(ycsb_properties_set(p, "recordcount", "99", "x.ini:1", err, sizeof err), 0);
    ycsb_workload w;
    assert_int_equal(ycsb_workload_resolve(p, &w, err, sizeof err), 0);
    assert_true(w.core.recordcount == 77);
    assert_near(w.core.readproportion, 0.25); /* the later file over workload a */
    /* among -p settings, the last */
    assert_int_equal(ycsb_properties_set_pair(p, "recordcount=66", err, sizeof err), 0);
    assert_int_equal(ycsb_workload_resolve(p, &w, err, sizeof err), 0);
    assert_true(w.core.recordcount == 66);
    /* -p's value is taken as given: no escapes, spaces kept */
    assert_int_equal(ycsb_properties_set_pair(p, "table=a\\tb c", err, sizeof err), 0);
    char text[1024];
    ycsb_properties_describe(p, text, sizeof text);
    assert_contains(text, "table=a\\\\tb\\ c");
    ycsb_properties_free(p);
}

static void test_describe(void **state)
{
    (void)state;
    ycsb_properties *p = ycsb_properties_new();
    char text[1024];
    assert_int_equal(ycsb_properties_describe(p, text, sizeof text), 0);
    assert_string_equal(text, "");
    assert_int_equal(ycsb_properties_load_builtin(p, "c"), 0);
    assert_int_equal(ycsb_properties_set_pair(p, "recordcount=5", err, sizeof err), 0);
    size_t n = ycsb_properties_describe(p, text, sizeof text);
    assert_string_equal(text, "operationcount=1000 workload=site.ycsb.workloads.CoreWorkload "
                              "readallfields=true readproportion=1 updateproportion=0 "
                              "scanproportion=0 insertproportion=0 requestdistribution=zipfian "
                              "recordcount=5");
    assert_int_equal(n, strlen(text));
    /* cut short: NUL-terminated, the full length returned */
    char small[10];
    assert_int_equal(ycsb_properties_describe(p, small, sizeof small), n);
    assert_string_equal(small, "operation");
    /* control bytes as escapes */
    assert_int_equal(ycsb_properties_set(p, "label", "\x01#x\x7f", "t", err, sizeof err), 0);
    ycsb_properties_describe(p, text, sizeof text);
    assert_contains(text, " label=\\u0001\\#x\\u007F");
    ycsb_properties_free(p);
    ycsb_properties_free(NULL);
}

/* What describe writes, one item a line, loads back to the same. */
static void test_describe_round_trips(void **state)
{
    (void)state;
    ycsb_properties *p = ycsb_properties_new();
    assert_int_equal(load_text(p, "label= \\ a=b:c \\\\ #!\\t\\u00e9\\uD83D\\uDE00 \n"
                                  "table=x\n"), 0);
    char text[1024], lines[1024], again[1024];
    ycsb_properties_describe(p, text, sizeof text);
    /* unescaped spaces separate the items */
    size_t o = 0;
    bool backslash = false;
    for (const char *c = text; *c; c++) {
        lines[o++] = (*c == ' ' && !backslash) ? '\n' : *c;
        backslash = *c == '\\' ? !backslash : false;
    }
    lines[o] = '\0';
    ycsb_properties *q = ycsb_properties_new();
    assert_int_equal(load_text(q, lines), 0);
    ycsb_properties_describe(q, again, sizeof again);
    assert_string_equal(text, again);
    assert_contains(text, "label=\\ a\\=b\\:c\\ \\\\\\ \\#\\!\\t\xc3\xa9\xf0\x9f\x98\x80\\ ");
    ycsb_properties_free(p);
    ycsb_properties_free(q);
}

int main(void)
{
    setenv("LC_ALL", "C", 1);
    setenv("TZ", "UTC", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_counts_take_effect),
        cmocka_unit_test(test_client_takes_effect),
        cmocka_unit_test(test_proportions_take_effect),
        cmocka_unit_test(test_keys_take_effect),
        cmocka_unit_test(test_fields_and_scans_take_effect),
        cmocka_unit_test(test_checked_properties_without_effect),
        cmocka_unit_test(test_unchecked_properties_are_accepted),
        cmocka_unit_test(test_bad_values_are_refused_with_their_origin),
        cmocka_unit_test(test_combinations_refused),
        cmocka_unit_test(test_builtins_resolve_to_their_mixes),
        cmocka_unit_test(test_builtin_origins),
        cmocka_unit_test(test_file_syntax),
        cmocka_unit_test(test_file_escapes_in_keys_and_values),
        cmocka_unit_test(test_file_errors_name_the_line),
        cmocka_unit_test(test_unknown_names_suggest_the_nearest),
        cmocka_unit_test(test_command_line_overrides_files),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_describe_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
