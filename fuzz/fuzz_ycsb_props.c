/* fuzz_ycsb_props.c -- YCSB property files (workloads/ycsb_workload.h).
 *
 * Input: the bytes of a workload file in java.util.Properties syntax, read
 * through a file of its own (ycsb_properties_load_file takes a path);
 * also, up to its first NUL and at most 256 bytes, one -p argument.
 *
 * Oracles:
 *  - loading: 0, or -1 with "FILE:LINE: ..." naming the path given and a
 *    LINE of the file (1 .. its lines, '\n', '\r' and "\r\n" each ending
 *    one, as Properties reads them); a failed load adds nothing;
 *  - describe's items, one a line, load back to the same description
 *    (its escaping round-trips any name and value), and resolve to the
 *    same result: both refused, or the same workload;
 *  - resolving: 0, or -1 with a message that says what was expected and
 *    what was found ("expected ..., found ..."), starting with an origin
 *    (FILE:LINE of the file, "default") or with "operationcount: " (not
 *    set);
 *  - a resolved workload keeps every promise of ycsb_workload's fields
 *    (counts, proportions, lengths, fractions within their ranges), and
 *    CoreWorkload's choosers build from it (ycsb_keychooser_init succeeds;
 *    the operation chooser yields an operation), except that latest over
 *    more than 2^20 records is not built (O(recordcount));
 *  - the same file after stock workload a resolves to 0 or -1 likewise;
 *  - the -p argument: 0, or -1 with "-p ARG: ..." (names unknown, no '=').
 */
#include "fuzz/fuzz.h"

#include <math.h>

#include "workloads/ycsb_workload.h"

#define PAIR_MAX 256

/* Lines as Properties counts them: \n, \r, \r\n each end one; a last line
 * without an end counts too. */
static unsigned long long properties_lines(const uint8_t *d, size_t n)
{
    unsigned long long lines = 0;
    for (size_t i = 0; i < n; i++)
        if (d[i] == '\n' || (d[i] == '\r' && !(i + 1 < n && d[i + 1] == '\n')))
            lines++;
    return lines + (n > 0 && d[n - 1] != '\n' && d[n - 1] != '\r');
}

static void check_placed(const char *msg, const char *path, unsigned long long lines)
{
    unsigned long long line = 0;
    const char *rest = fuzz_after_place(msg, path, &line);
    FUZZ_CHECK(rest && line >= 1 && line <= lines, "'%s' names no line 1 .. %llu of %s", msg,
               lines, path);
}

static void check_workload(const ycsb_workload *w)
{
    const ycsb_props *c = &w->core;
    FUZZ_CHECK(w->threadcount >= 1 && w->threadcount <= YCSB_THREADS_MAX, "threadcount %d",
               w->threadcount);
    FUZZ_CHECK(w->target >= 0 && w->maxexecutiontime >= 0, "target %g, maxexecutiontime %d",
               w->target, w->maxexecutiontime);
    FUZZ_CHECK(c->recordcount >= 1 && c->recordcount <= (int64_t)YCSB_RECORDS_MAX &&
                   c->insertstart >= 0 && c->insertcount >= 0 &&
                   c->insertstart + c->insertcount <= c->recordcount && c->operationcount >= 1,
               "counts: recordcount %lld insertstart %lld insertcount %lld operationcount %d",
               (long long)c->recordcount, (long long)c->insertstart, (long long)c->insertcount,
               c->operationcount);
    const double share[] = { c->readproportion, c->updateproportion, c->insertproportion,
                             c->scanproportion, c->readmodifywriteproportion };
    double sum = 0;
    for (size_t i = 0; i < 5; i++) {
        FUZZ_CHECK(share[i] >= 0 && isfinite(share[i]), "proportion %zu is %g", i, share[i]);
        sum += share[i];
    }
    FUZZ_CHECK(sum > 0 && isfinite(sum), "proportions add up to %g", sum);
    FUZZ_CHECK(w->fieldcount >= 1 && w->fieldlength >= 0 && w->minfieldlength >= 0 &&
                   (uint64_t)w->fieldcount * (uint64_t)w->fieldlength <= YCSB_RECORD_BYTES_MAX,
               "fields %d x %d (min %d)", w->fieldcount, w->fieldlength, w->minfieldlength);
    FUZZ_CHECK(w->fieldlengthdistribution != YCSB_LENGTH_HISTOGRAM &&
                   (w->fieldlengthdistribution == YCSB_LENGTH_CONSTANT ||
                    w->minfieldlength <= w->fieldlength),
               "field lengths %d: %d .. %d", (int)w->fieldlengthdistribution, w->minfieldlength,
               w->fieldlength);
    FUZZ_CHECK(w->minscanlength >= 1 && w->minscanlength <= w->maxscanlength &&
                   (w->scanlengthdistribution == YCSB_LENGTH_UNIFORM ||
                    w->scanlengthdistribution == YCSB_LENGTH_ZIPFIAN),
               "scans %d .. %d (%d)", w->minscanlength, w->maxscanlength,
               (int)w->scanlengthdistribution);
    FUZZ_CHECK(c->zeropadding >= 0 && c->zeropadding <= 255 && c->hotspotdatafraction >= 0 &&
                   c->hotspotdatafraction <= 1 && c->hotspotopnfraction >= 0 &&
                   c->hotspotopnfraction <= 1 && c->exponential_percentile > 0 &&
                   c->exponential_percentile < 100 && c->exponential_frac > 0 &&
                   isfinite(c->exponential_frac),
               "zeropadding %d, hotspot %g %g, exponential %g %g", c->zeropadding,
               c->hotspotdatafraction, c->hotspotopnfraction, c->exponential_percentile,
               c->exponential_frac);
    if (c->requestdistribution == YCSB_REQ_LATEST && c->recordcount > (1 << 20))
        return;
    ycsb_keychooser *k = malloc(sizeof *k);
    if (!k)
        abort();
    FUZZ_CHECK(ycsb_keychooser_init(k, c) == 0, "%s", "ycsb_keychooser_init refused a resolved workload");
    rng r;
    rng_seed(&r, 1);
    int op = ycsb_keychooser_next_op(k, &r);
    FUZZ_CHECK(op >= YCSB_OP_READ && op <= YCSB_OP_READMODIFYWRITE, "next_op gave %d", op);
    free(k);
}

static void check_resolve(const ycsb_properties *p, const char *path, unsigned long long lines,
                          ycsb_workload *w, int *rc)
{
    char err[2048] = "";
    *rc = ycsb_workload_resolve(p, w, err, sizeof err);
    FUZZ_CHECK(*rc == 0 || *rc == -1, "resolve returned %d", *rc);
    if (*rc == 0) {
        check_workload(w);
        return;
    }
    FUZZ_CHECK(strstr(err, "expected ") && strstr(err, ", found "), "message '%s'", err);
    if (!strncmp(err, "default: ", 9) || !strncmp(err, "operationcount: ", 16) ||
        !strncmp(err, "workloada:", 10))
        return;
    check_placed(err, path, lines);
}

/* Describe's unescaped spaces become line ends. */
static void items_as_lines(char *text)
{
    bool backslash = false;
    for (char *c = text; *c; c++) {
        bool was = backslash;
        backslash = *c == '\\' ? !backslash : false;
        if (*c == ' ' && !was)
            *c = '\n';
    }
}

static void check_round_trip(const ycsb_properties *p, const char *path,
                             unsigned long long lines)
{
    size_t n = ycsb_properties_describe(p, NULL, 0);
    char *text = malloc(n + 1), *again = malloc(n + 1);
    if (!text || !again)
        abort();
    FUZZ_CHECK(ycsb_properties_describe(p, text, n + 1) == n, "%s", "describe's length changed");
    items_as_lines(text);
    char p2[64], err[2048] = "";
    int fd = fuzz_memfile((const uint8_t *)text, n, p2, sizeof p2);
    ycsb_properties *q = ycsb_properties_new();
    if (!q)
        abort();
    int rc = ycsb_properties_load_file(q, p2, err, sizeof err);
    close(fd);
    FUZZ_CHECK(rc == 0, "describe's items do not load back: %s", err);
    ycsb_properties_describe(p, text, n + 1);
    size_t m = ycsb_properties_describe(q, again, n + 1);
    FUZZ_CHECK(m == n && !strcmp(text, again), "describe '%s' loads back as '%s'", text, again);
    ycsb_workload w1, w2;
    int rc1, rc2;
    check_resolve(p, path, lines, &w1, &rc1);
    rc2 = ycsb_workload_resolve(q, &w2, err, sizeof err);
    FUZZ_CHECK(rc1 == rc2 && (rc1 != 0 || !memcmp(&w1, &w2, sizeof w1)),
               "resolved %d, described and loaded back %d (%s)", rc1, rc2, err);
    ycsb_properties_free(q);
    free(text);
    free(again);
}

static void check_pair(const uint8_t *data, size_t size)
{
    char *pair = fuzz_cstr(data, size < PAIR_MAX ? size : PAIR_MAX);
    ycsb_properties *p = ycsb_properties_new();
    char err[1024] = "";
    if (!p)
        abort();
    int rc = ycsb_properties_set_pair(p, pair, err, sizeof err);
    FUZZ_CHECK(rc == 0 || (rc == -1 && !strncmp(err, "-p ", 3)), "set_pair('%s'): %d '%s'", pair,
               rc, err);
    ycsb_properties_free(p);
    free(pair);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[2048] = "";
    int fd = fuzz_memfile(data, size, path, sizeof path);
    unsigned long long lines = properties_lines(data, size);
    ycsb_properties *p = ycsb_properties_new();
    if (!p)
        abort();
    int rc = ycsb_properties_load_file(p, path, err, sizeof err);
    FUZZ_CHECK(rc == 0 || rc == -1, "load returned %d", rc);
    if (rc < 0) {
        check_placed(err, path, lines);
        FUZZ_CHECK(ycsb_properties_describe(p, NULL, 0) == 0, "%s", "a failed load added properties");
    } else {
        check_round_trip(p, path, lines);
        ycsb_properties *a = ycsb_properties_new();
        if (!a)
            abort();
        FUZZ_CHECK(ycsb_properties_load_builtin(a, "a") == 0, "%s", "stock workload a");
        FUZZ_CHECK(ycsb_properties_load_file(a, path, err, sizeof err) == 0,
                   "the file loaded alone, not after workload a: %s", err);
        ycsb_workload w;
        int arc;
        check_resolve(a, path, lines, &w, &arc);
        ycsb_properties_free(a);
    }
    close(fd);
    ycsb_properties_free(p);
    check_pair(data, size);
    return 0;
}
