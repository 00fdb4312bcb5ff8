/* advise.c -- the key-design space, its Pareto front, and the staged search.
 *
 * The space is built from a small grammar (docs/advise.md#the-space):
 *
 *   candidate = [ prefix ] body
 *   prefix    = salt(N) | osalt(N)             N from the bucket counts
 *   body      = time-only | arrangement placed around a time field
 *
 * where an arrangement is an order of all the record's identifying fields
 * (time series: the metric's UID and the tags, or the series id `entity`
 * alone; other patterns: `entity`, a trace's `key`), and the time field
 * (`ts`, `revts`, `hour(ts)`) goes last, first (`ts` only), or after the
 * first field (`ts`, `hour(ts)`). Time-only bodies are `ts` and
 * `reverse(ts)`; OpenTSDB's layout is the time series' `uid(metric, 3)
 * hour(ts) tags`. One more body is the MD5 of the whole key (`md5(ids
 * ts)`: full randomisation), never prefixed. Reversal, promotion (a field
 * first), time bucketing (`hour(ts)`), salting (random, `salt`) and
 * hashing the entity (`osalt` hashes the non-time fields after it: for
 * `entity ts` that is the entity; `hash(N, entity) entity ts` would be the
 * same bytes, so it is not generated) are all points of this grammar.
 * Candidates are deduplicated by their normalised expression
 * (keyscheme_expr).
 *
 * The search is staged so that a budget of a few dozen runs still looks
 * at every layout: stage 1 simulates every body unprefixed (a seeded
 * sample when they exceed half the budget: anchors first), stage 2 adds
 * the two prefixes at the server count to the bodies in stage-1 order
 * (front first, by score), stage 3 tries the other bucket counts around
 * the bucketed front members, nearest counts first, and whatever budget
 * is left goes to the untried candidates in generation order. Trade-off: a body
 * whose unprefixed form ranks low gets its prefixed forms late or not at
 * all under a small budget; the report says how many were tried.
 *
 * Scores come only from the figure registry (figure_named): the same
 * numbers `compare` prints, each the median across the scenario's seeds
 * (samples, 5 by default) so that a pick is not one seed's luck. Everything is ordered by generation index, so
 * the result is a function of the scenario, its seed and the options.
 */
#include "planners/advise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/figures.h"
#include "engine/engine.h"
#include "scenario/units.h"
#include "workloads/keyscheme.h"
#include "workloads/rng.h"

#define RNG_STREAM_ADVISE 0xAD715Eu /* the stage-1 sample's stream */
#define MAX_BODIES 256

/* ---- weights ---------------------------------------------------------- */

static const char *const group_names[ADVISE_GROUPS] = { "writes", "reads", "latency", "keys" };

const char *advise_group_name(advise_group g)
{
    return group_names[g];
}

void advise_default_weights(advise_weights *w)
{
    w->w[ADVISE_WRITES] = 1;
    w->w[ADVISE_READS] = 1;
    w->w[ADVISE_LATENCY] = 1;
    w->w[ADVISE_KEYS] = 0.25;
}

int advise_parse_weights(const char *text, advise_weights *w, unsigned *named, char *err,
                         size_t errcap)
{
    advise_weights out = *w;
    unsigned seen = 0, before = named ? *named : 0;
    const char *p = text;
    char shown[256];
    if (!*p) {
        snprintf(err, errcap, "expected NAME=NUMBER[,NAME=NUMBER...] (names: writes, reads, "
                 "latency, keys), found nothing");
        return -1;
    }
    while (*p) {
        const char *eq = strchr(p, '='), *comma = strchr(p, ',');
        if (!comma)
            comma = p + strlen(p);
        char token[64];
        size_t tlen = (size_t)((eq && eq < comma ? eq : comma) - p);
        snprintf(token, sizeof token, "%.*s", (int)(tlen < 60 ? tlen : 60), p);
        if (!eq || eq > comma) {
            snprintf(token, sizeof token, "%.*s", (int)(comma - p < 60 ? comma - p : 60), p);
            snprintf(err, errcap, "expected NAME=NUMBER, found '%s'",
                     escape_text(token, 60, shown, sizeof shown));
            return -1;
        }
        size_t g = 0;
        while (g < ADVISE_GROUPS && (strlen(group_names[g]) != (size_t)(eq - p) ||
                                     strncmp(group_names[g], p, (size_t)(eq - p)) != 0))
            g++;
        if (g == ADVISE_GROUPS) {
            snprintf(err, errcap, "expected a weight name (writes, reads, latency, keys), "
                     "found '%s'", escape_text(token, 60, shown, sizeof shown));
            return -1;
        }
        if ((seen | before) & 1u << g) {
            snprintf(err, errcap, "'%s' named twice (%s): each weight is named once",
                     group_names[g], seen & 1u << g ? "twice in this list"
                                                   : "once here, once in an earlier --weights");
            return -1;
        }
        seen |= 1u << g;
        char num[64];
        size_t len = (size_t)(comma - eq - 1);
        double v = NAN;
        if (len > 0 && len < sizeof num) {
            memcpy(num, eq + 1, len);
            num[len] = '\0';
            char *end = num;
            if ((num[0] >= '0' && num[0] <= '9') || num[0] == '.')
                v = strtod(num, &end);
            if (*end != '\0')
                v = NAN;
        }
        if (!(v >= 0 && v <= 1e6)) {
            snprintf(token, sizeof token, "%.*s", (int)(len < 60 ? len : 60), eq + 1);
            snprintf(err, errcap, "%s: expected a number 0..1000000, found '%s'",
                     group_names[g], escape_text(token, 60, shown, sizeof shown));
            return -1;
        }
        out.w[g] = v;
        p = *comma ? comma + 1 : comma;
        if (*comma && !*p) {
            snprintf(err, errcap, "expected NAME=NUMBER after ',', found nothing");
            return -1;
        }
    }
    double sum = 0;
    for (size_t g = 0; g < ADVISE_GROUPS; g++)
        sum += out.w[g];
    if (sum <= 0) {
        snprintf(err, errcap, "expected at least one weight above 0, found all 0");
        return -1;
    }
    *w = out;
    if (named)
        *named |= seen;
    return 0;
}

/* ---- the space -------------------------------------------------------- */

typedef struct strlist {
    char **v;
    size_t n, cap;
} strlist;

static int strlist_add(strlist *l, const char *s)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 32;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    char *c = strdup(s);
    if (!c)
        return -1;
    l->v[l->n++] = c;
    return 0;
}

static void strlist_free(strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* Joins fields [0, n) with spaces into out. */
static void join(char *out, size_t cap, const char *const *f, size_t n)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && at < cap; i++)
        at += (size_t)snprintf(out + at, cap - at, "%s%s", i ? " " : "", f[i]);
}

/* Adds the bodies of one arrangement (fields a[0..n)). */
static int add_arrangement(strlist *bodies, const char *const *a, size_t n)
{
    static const char *const last[] = { "ts", "revts", "hour(ts)" };
    static const char *const middle[] = { "ts", "hour(ts)" };
    const char *f[8];
    char buf[256];
    for (size_t t = 0; t < 3; t++) {
        for (size_t i = 0; i < n; i++)
            f[i] = a[i];
        f[n] = last[t];
        join(buf, sizeof buf, f, n + 1);
        if (strlist_add(bodies, buf) < 0)
            return -1;
    }
    f[0] = "ts";
    for (size_t i = 0; i < n; i++)
        f[i + 1] = a[i];
    join(buf, sizeof buf, f, n + 1);
    if (strlist_add(bodies, buf) < 0)
        return -1;
    for (size_t t = 0; n >= 2 && t < 2; t++) {
        f[0] = a[0];
        f[1] = middle[t];
        for (size_t i = 1; i < n; i++)
            f[i + 1] = a[i];
        join(buf, sizeof buf, f, n + 1);
        if (strlist_add(bodies, buf) < 0)
            return -1;
    }
    return 0;
}

/* Every order of all of ids[0..nids) (nids <= 4): a key must hold every
 * identifying field, or records of different entities would share rows.
 * Lexicographic order of the index lists (deterministic). */
static int add_arrangements(strlist *bodies, const char *const *ids, size_t nids)
{
    size_t idx[4] = { 0 };
    for (;;) {
        int distinct = 1;
        for (size_t i = 0; i < nids && distinct; i++)
            for (size_t j = 0; j < i; j++)
                distinct &= idx[i] != idx[j];
        if (distinct) {
            const char *a[4];
            for (size_t i = 0; i < nids; i++)
                a[i] = ids[idx[i]];
            if (add_arrangement(bodies, a, nids) < 0)
                return -1;
        }
        size_t k = nids;
        while (k > 0 && ++idx[k - 1] == nids)
            idx[--k] = 0;
        if (k == 0)
            return 0;
    }
}

/* The bodies for sc's pattern, and which one is the natural key. */
static int make_bodies(const scenario *sc, strlist *bodies, const char **natural)
{
    const phase *ph = scenario_phase(sc, 0);
    pattern_kind kind = ph->pattern.kind;
    if (strlist_add(bodies, "ts") < 0 || strlist_add(bodies, "reverse(ts)") < 0)
        return -1;
    if (kind == PATTERN_TIMESERIES) {
        /* the series: its metric and its tags (host, and the extra tag) */
        const char *ids[2] = { "uid(metric, 3)", ph->pattern.tags > 1 ? "tags(2)" : "tags" };
        static const char *const entity[] = { "entity" };
        if (add_arrangements(bodies, ids, 2) < 0 || add_arrangements(bodies, entity, 1) < 0)
            return -1;
        *natural = ph->pattern.tags > 1 ? "uid(metric, 3) hour(ts) tags(2)"
                                        : "uid(metric, 3) hour(ts) tags";
        return strlist_add(bodies, ph->pattern.tags > 1 ? "md5(uid(metric, 3) tags(2) ts)"
                                                        : "md5(uid(metric, 3) tags ts)");
    }
    static const char *const entity[] = { "entity" }, *const key[] = { "key" };
    *natural = kind == PATTERN_TRACE ? "key ts" : "entity ts";
    if (add_arrangements(bodies, kind == PATTERN_TRACE ? key : entity, 1) < 0)
        return -1;
    return strlist_add(bodies, kind == PATTERN_TRACE ? "md5(key ts)" : "md5(entity ts)");
}

/* Whether a body spreads every row by itself, so that no prefix is put
 * before it: the MD5 of the whole key, or nothing but the time (osalt
 * would hash nothing: one bucket for every row; salt(N) ts is kept). */
static int takes_no_osalt(const char *body)
{
    return !strcmp(body, "ts") || !strcmp(body, "reverse(ts)") || !strncmp(body, "md5(", 4);
}

/* Parses expr into its normalised form (owned), or NULL with err. */
static char *normalise(const char *expr, uint32_t *buckets, char *err, size_t errcap)
{
    keyscheme *ks;
    if (keyscheme_parse(expr, &ks, err, errcap) < 0)
        return NULL;
    size_t width;
    if (buckets)
        *buckets = keyscheme_buckets(ks, &width);
    char *c = strdup(keyscheme_expr(ks));
    if (!c)
        snprintf(err, errcap, "out of memory");
    keyscheme_free(ks);
    return c;
}

/* Whether expr's fields begin with fix's (a whole-field prefix). */
static int starts_with_fields(const char *expr, const char *fix)
{
    size_t n = strlen(fix);
    return !strncmp(expr, fix, n) && (expr[n] == '\0' || expr[n] == ' ');
}

static void add_count(advise_space *s, uint32_t n)
{
    if (n < 2 || n > 65536 || s->nbuckets == sizeof s->buckets / sizeof s->buckets[0])
        return;
    size_t i = 0;
    while (i < s->nbuckets && s->buckets[i] < n)
        i++;
    if (i < s->nbuckets && s->buckets[i] == n)
        return;
    memmove(s->buckets + i + 1, s->buckets + i, (s->nbuckets - i) * sizeof *s->buckets);
    s->buckets[i] = n;
    s->nbuckets++;
}

static int add_candidate(advise_space *s, size_t *cap, const char *expr, size_t body,
                         advise_prefix prefix, uint32_t buckets, const char *fix, char *err,
                         size_t errcap)
{
    char *norm = normalise(expr, NULL, err, errcap);
    if (!norm)
        return -1;
    int keep = !fix || starts_with_fields(norm, fix);
    for (size_t i = 0; keep && i < s->ncand; i++)
        keep = strcmp(s->cand[i].expr, norm) != 0;
    if (!keep) {
        free(norm);
        return 0;
    }
    if (s->ncand == *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        advise_candidate *c = realloc(s->cand, nc * sizeof *c);
        if (!c) {
            free(norm);
            snprintf(err, errcap, "out of memory");
            return -1;
        }
        s->cand = c;
        *cap = nc;
    }
    advise_candidate *c = &s->cand[s->ncand++];
    memset(c, 0, sizeof *c);
    c->expr = norm;
    c->body = body;
    c->prefix = prefix;
    c->buckets = buckets;
    c->score = NAN;
    return 0;
}

int advise_space_build(const scenario *sc, const char *fix, advise_space *out, char *err,
                       size_t errcap)
{
    memset(out, 0, sizeof *out);
    strlist bodies = { 0 };
    const char *natural = NULL;
    char *fixnorm = NULL;
    uint32_t fixbuckets = 0;
    char shown_fix[4 * 120 + 1]; /* the user's text in messages, control bytes escaped */
    escape_text(fix ? fix : "", 120, shown_fix, sizeof shown_fix);
    if (fix && fix[0]) {
        char perr[512], shown_err[4 * 511 + 1];
        fixnorm = normalise(fix, &fixbuckets, perr, sizeof perr);
        if (!fixnorm) {
            snprintf(err, errcap, "--fix '%s': %s", shown_fix,
                     escape_text(perr, 511, shown_err, sizeof shown_err));
            return -1;
        }
    }
    if (make_bodies(sc, &bodies, &natural) < 0 || bodies.n > MAX_BODIES) {
        snprintf(err, errcap, "out of memory");
        goto fail;
    }
    uint32_t s = sc->servers;
    add_count(out, s / 2);
    add_count(out, s);
    add_count(out, s * 2 <= 65536 ? s * 2 : 65536);
    add_count(out, s * 4 <= 65536 ? s * 4 : 65536);
    for (uint32_t p = 2; p <= 65536 && p <= 4 * (uint64_t)s; p *= 2)
        add_count(out, p);
    if (fixbuckets)
        add_count(out, fixbuckets);
    size_t cap = 0;
    char buf[320];
    /* unprefixed, then salt and osalt at each count; the fix's own prefix
     * when it is not one of these */
    for (size_t b = 0; b < bodies.n; b++)
        if (add_candidate(out, &cap, bodies.v[b], b, ADVISE_PREFIX_NONE, 0, fixnorm, err,
                          errcap) < 0)
            goto fail;
    for (size_t k = 0; k < out->nbuckets; k++) {
        for (size_t b = 0; b < bodies.n; b++) {
            if (!strncmp(bodies.v[b], "md5(", 4))
                continue; /* the whole key hashed: a prefix adds bytes, not spread */
            snprintf(buf, sizeof buf, "salt(%u) %s", (unsigned)out->buckets[k], bodies.v[b]);
            if (add_candidate(out, &cap, buf, b, ADVISE_PREFIX_SALT, out->buckets[k], fixnorm,
                              err, errcap) < 0)
                goto fail;
            if (takes_no_osalt(bodies.v[b]))
                continue;
            snprintf(buf, sizeof buf, "osalt(%u) %s", (unsigned)out->buckets[k], bodies.v[b]);
            if (add_candidate(out, &cap, buf, b, ADVISE_PREFIX_OSALT, out->buckets[k], fixnorm,
                              err, errcap) < 0)
                goto fail;
        }
    }
    if (fixnorm) {
        /* a fixed part that is not itself a generated prefix: it leads every body */
        for (size_t b = 0; b < bodies.n; b++) {
            snprintf(buf, sizeof buf, "%s %s", fixnorm, bodies.v[b]);
            if (strlen(fixnorm) + strlen(bodies.v[b]) + 2 > sizeof buf)
                continue;
            /* add_candidate drops what is there already ("salt(4)" + "ts") */
            if (add_candidate(out, &cap, buf, b, ADVISE_PREFIX_FIXED, fixbuckets, fixnorm, err,
                              errcap) < 0)
                goto fail;
        }
        if (out->ncand == 0) {
            snprintf(err, errcap, "--fix '%s': no candidate key starts with it", shown_fix);
            goto fail;
        }
    }
    out->nbodies = bodies.n;
    out->bodies = bodies.v;
    for (size_t b = 0; b < bodies.n; b++)
        if (!strcmp(bodies.v[b], natural))
            out->natural = b;
    free(fixnorm);
    return 0;
fail:
    free(fixnorm);
    strlist_free(&bodies);
    out->nbodies = 0;
    out->bodies = NULL;
    advise_space_free(out);
    return -1;
}

void advise_space_free(advise_space *s)
{
    for (size_t i = 0; i < s->ncand; i++)
        free(s->cand[i].expr);
    free(s->cand);
    for (size_t b = 0; b < s->nbodies; b++)
        free(s->bodies[b]);
    free(s->bodies);
    memset(s, 0, sizeof *s);
}

/* ---- objectives, front, pick ------------------------------------------ */

size_t advise_objectives(const scenario *sc, const advise_weights *w, advise_objective *obj)
{
    /* each kind's share of the reads, averaged over the phases that read */
    double share[QUERY_KINDS] = { 0 };
    size_t reading = 0;
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const phase *ph = scenario_phase(sc, i);
        if (!(ph->reads.fraction > 0) || ph->pattern.kind == PATTERN_TRACE)
            continue;
        uint32_t wt[QUERY_KINDS];
        scenario_read_weights(ph, wt);
        double sum = 0;
        for (int k = 0; k < QUERY_KINDS; k++)
            sum += wt[k];
        for (int k = 0; sum > 0 && k < QUERY_KINDS; k++)
            share[k] += wt[k] / sum;
        reading++;
    }
    static const char *const rpcs[QUERY_KINDS] = {
        "rpcs_per_read_get", "rpcs_per_read_range", "rpcs_per_read_latest",
        "rpcs_per_read_window", "rpcs_per_read_metric", "rpcs_per_read_scan" };
    static const char *const rows[QUERY_KINDS] = {
        "rows_scanned_per_row_get", "rows_scanned_per_row_range", "rows_scanned_per_row_latest",
        "rows_scanned_per_row_window", "rows_scanned_per_row_metric",
        "rows_scanned_per_row_scan" };
    static const char *const rpc_label[QUERY_KINDS] = {
        "get RPCs", "range RPCs", "latest RPCs", "window RPCs", "metric RPCs", "scan RPCs" };
    static const char *const row_label[QUERY_KINDS] = {
        "get rows/rec", "range rows/rec", "latest rows/rec", "window rows/rec",
        "metric rows/rec", "scan rows/rec" };
    size_t n = 0;
    obj[n++] = (advise_objective){ "write_max_mean", "write max/mean", ADVISE_WRITES, -1,
                                   w->w[ADVISE_WRITES] };
    for (int k = 0; k < QUERY_KINDS; k++) {
        if (!(share[k] > 0))
            continue;
        double wk = w->w[ADVISE_READS] * share[k] / (double)reading / 2;
        obj[n++] = (advise_objective){ rpcs[k], rpc_label[k], ADVISE_READS, k, wk };
        obj[n++] = (advise_objective){ rows[k], row_label[k], ADVISE_READS, k, wk };
    }
    obj[n++] = (advise_objective){ "p99_latency_us", "p99", ADVISE_LATENCY, -1,
                                   w->w[ADVISE_LATENCY] };
    obj[n++] = (advise_objective){ "key_bytes_mean", "key B", ADVISE_KEYS, -1,
                                   w->w[ADVISE_KEYS] };
    return n;
}

/* a <= b, NaN the worst of all */
static int no_worse(double a, double b)
{
    if (isnan(b))
        return 1;
    if (isnan(a))
        return 0;
    return a <= b;
}

static int dominates(const advise_candidate *a, const advise_candidate *b, size_t nobj)
{
    int better = 0;
    for (size_t o = 0; o < nobj; o++) {
        if (!no_worse(a->value[o], b->value[o]))
            return 0;
        if (!no_worse(b->value[o], a->value[o]))
            better = 1;
    }
    return better;
}

size_t advise_pareto(advise_candidate *c, size_t n, size_t nobj)
{
    size_t front = 0;
    for (size_t i = 0; i < n; i++) {
        c[i].front = 0;
        if (!c[i].stage)
            continue;
        int dominated = 0;
        for (size_t j = 0; j < n && !dominated; j++)
            dominated = j != i && c[j].stage && dominates(&c[j], &c[i], nobj);
        c[i].front = !dominated;
        front += c[i].front;
    }
    return front;
}

/* log2 of v over the best value: 0 at the best, 1 at twice it; a best
 * of 0 compares v + 1 with 1; an undefined value costs 10 (1024 times). */
static double penalty(double v, double best)
{
    if (isnan(v) || isnan(best))
        return isnan(v) && isnan(best) ? 0 : 10;
    if (best <= 0)
        return log2(1 + (v - best));
    return log2(v / best);
}

size_t advise_pick(advise_candidate *c, size_t n, const advise_objective *obj, size_t nobj)
{
    double best[ADVISE_MAX_OBJECTIVES];
    double wsum = 0;
    for (size_t o = 0; o < nobj; o++) {
        best[o] = NAN;
        for (size_t i = 0; i < n; i++)
            if (c[i].front && !isnan(c[i].value[o]) && (isnan(best[o]) || c[i].value[o] < best[o]))
                best[o] = c[i].value[o];
        wsum += obj[o].weight;
    }
    size_t pick = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        c[i].score = NAN;
        if (!c[i].front)
            continue;
        double s = 0;
        for (size_t o = 0; o < nobj; o++)
            if (obj[o].weight > 0)
                s += obj[o].weight * penalty(c[i].value[o], best[o]);
        c[i].score = wsum > 0 ? s / wsum : 0;
        if (pick == (size_t)-1 || c[i].score < c[pick].score)
            pick = i;
    }
    return pick;
}

/* ---- the search ------------------------------------------------------- */

/* The other seeds of a batch (engine_run_seeds' on_run): each run's
 * objective values into vals[((k - 1) * m + scheme) * nobj + o]. */
typedef struct seed_values {
    const advise_outcome *out;
    size_t m;
    double *vals;
} seed_values;

static void record_seed(void *ctx, uint32_t k, size_t scheme, const run_result *run)
{
    seed_values *sv = ctx;
    double *v = &sv->vals[((size_t)(k - 1) * sv->m + scheme) * sv->out->nobj];
    for (size_t o = 0; o < sv->out->nobj; o++)
        v[o] = figure_named(sv->out->obj[o].figure, run, 0);
}

/* The median of the defined values among v[0], v[stride], ... (n of
 * them); NAN when none is. Sorts a copy (n <= SCENARIO_MAX_SAMPLES). */
static double median_of(const double *v, size_t n, size_t stride)
{
    double sorted[SCENARIO_MAX_SAMPLES];
    size_t d = 0;
    for (size_t i = 0; i < n; i++) {
        double x = v[i * stride];
        if (isnan(x))
            continue;
        size_t at = d++;
        while (at > 0 && sorted[at - 1] > x) {
            sorted[at] = sorted[at - 1];
            at--;
        }
        sorted[at] = x;
    }
    if (d == 0)
        return NAN;
    return d % 2 ? sorted[d / 2] : (sorted[d / 2 - 1] + sorted[d / 2]) / 2;
}

/* Simulates candidates idx[0..n) under sc, filling their values: with
 * samples (sc->samples seeds, 5 by default) each value is the median of
 * its figure across the seeds, the other seeds run side by side
 * (engine_run_seeds); obs hears of the first seed's runs as the
 * candidates after those the earlier stages tried (out->stage_tried). */
static int simulate(const scenario *sc, advise_space *s, const size_t *idx, size_t n, int stage,
                    const advise_outcome *out, const advise_observer *obs, char *err,
                    size_t errcap)
{
    engine_observer eo = { NULL, obs ? obs->on_progress : NULL, obs ? obs->ctx : NULL };
    size_t tried = out->stage_tried[1] + out->stage_tried[2] + out->stage_tried[3];
    for (size_t at = 0; at < n; at += SCENARIO_MAX_SCHEMES) {
        size_t m = n - at < SCENARIO_MAX_SCHEMES ? n - at : SCENARIO_MAX_SCHEMES;
        scenario run = *sc; /* shares sc's owned strings: never released */
        run.nschemes = m;
        for (size_t i = 0; i < m; i++) {
            const char *expr = s->cand[idx[at + i]].expr;
            run.schemes[i] = (scheme_choice){ expr, expr, NULL };
        }
        sim_results res;
        if (obs && obs->on_batch)
            obs->on_batch(obs->ctx, tried);
        if (engine_run_all(&run, eo.on_progress ? &eo : NULL, &res, err, errcap) < 0)
            return -1;
        tried += m;
        uint32_t seeds = sc->samples > 1 ? sc->samples : 1;
        double *vals = calloc((size_t)seeds * m * out->nobj, sizeof *vals);
        if (!vals) {
            sim_results_free(&res);
            snprintf(err, errcap, "out of memory");
            return -1;
        }
        for (size_t i = 0; i < m; i++) /* seed 0: the batch's own runs */
            for (size_t o = 0; o < out->nobj; o++)
                vals[i * out->nobj + o] = figure_named(out->obj[o].figure, &res.runs[i], 0);
        sim_results_free(&res);
        seed_values sv = { out, m, vals + m * out->nobj };
        engine_seed_observer so = { record_seed, NULL, &sv };
        if (seeds > 1 && engine_run_seeds(&run, 1, seeds, &so, err, errcap) < 0) {
            free(vals);
            return -1;
        }
        for (size_t i = 0; i < m; i++) {
            advise_candidate *c = &s->cand[idx[at + i]];
            c->stage = stage;
            for (size_t o = 0; o < out->nobj; o++)
                c->value[o] = median_of(&vals[i * out->nobj + o], seeds, m * out->nobj);
        }
        free(vals);
    }
    return 0;
}

/* Candidate index of (body, prefix, buckets), or (size_t)-1. */
static size_t find(const advise_space *s, size_t body, advise_prefix p, uint32_t n)
{
    for (size_t i = 0; i < s->ncand; i++)
        if (s->cand[i].body == body && s->cand[i].prefix == p && s->cand[i].buckets == n)
            return i;
    return (size_t)-1;
}

/* Simulated candidates' ranking: front by score, then the rest in order. */
static size_t rank_of(const advise_candidate *c, size_t n, size_t i)
{
    size_t r = 0;
    for (size_t j = 0; j < n; j++) {
        if (!c[j].stage || j == i)
            continue;
        int before;
        if (c[j].front != c[i].front)
            before = c[j].front;
        else if (c[j].front && c[j].score != c[i].score)
            before = c[j].score < c[i].score;
        else
            before = j < i;
        r += before;
    }
    return r;
}

static int by_rank(const void *a, const void *b)
{
    const size_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1];
}

int advise_search(const scenario *sc, advise_space *s, const advise_weights *w, size_t budget,
                  const advise_observer *obs, advise_outcome *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    out->nobj = advise_objectives(sc, w, out->obj);
    out->weights = *w;
    out->pick = (size_t)-1;
    size_t *idx = malloc((s->ncand + 1) * 2 * sizeof *idx);
    if (!idx) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    size_t n = 0;
    /* stage 1: the unprefixed layouts (with --fix: whatever survived it
     * that has the fewest buckets: each body once) */
    size_t *first = idx + s->ncand + 1;
    size_t nfirst = 0;
    for (size_t b = 0; b < s->nbodies; b++) {
        size_t i = 0; /* each body's first candidate: unprefixed unless --fix says otherwise */
        while (i < s->ncand && s->cand[i].body != b)
            i++;
        if (i < s->ncand)
            first[nfirst++] = i;
    }
    /* at least half the budget; all of it when nothing else could use it */
    size_t others = s->ncand - nfirst;
    size_t share1 = budget - (others < budget / 2 ? others : budget / 2);
    if (nfirst > share1) {
        /* a seeded sample: the natural layout always, the rest drawn */
        rng r = rng_stream(sc->seed, RNG_STREAM_ADVISE);
        for (size_t i = 0; i < nfirst; i++)
            if (s->cand[first[i]].body == s->natural && i != 0) {
                size_t t = first[0];
                first[0] = first[i];
                first[i] = t;
            }
        for (size_t i = 1; i < share1; i++) {
            size_t j = i + (size_t)rng_below(&r, nfirst - i);
            size_t t = first[i];
            first[i] = first[j];
            first[j] = t;
        }
        out->sampled = share1;
        nfirst = share1;
        /* back into generation order */
        for (size_t i = 1; i < nfirst; i++)
            for (size_t j = i; j > 0 && first[j - 1] > first[j]; j--) {
                size_t t = first[j];
                first[j] = first[j - 1];
                first[j - 1] = t;
            }
    }
    memcpy(idx, first, nfirst * sizeof *idx);
    n = nfirst;
    if (simulate(sc, s, idx, n, 1, out, obs, err, errcap) < 0)
        goto fail;
    out->stage_tried[1] = n;
    size_t left = budget - n;

    /* stage 2: salt and osalt at the server count (or the count nearest
     * it), on the bodies in stage-1 rank order */
    advise_pareto(s->cand, s->ncand, out->nobj);
    advise_pick(s->cand, s->ncand, out->obj, out->nobj);
    uint32_t home = s->nbuckets ? s->buckets[0] : 0;
    for (size_t k = 0; k < s->nbuckets; k++)
        if (s->buckets[k] <= sc->servers)
            home = s->buckets[k];
    out->home_buckets = home;
    size_t (*pairs)[2] = malloc((s->ncand + 1) * sizeof *pairs);
    if (!pairs) {
        snprintf(err, errcap, "out of memory");
        goto fail;
    }
    size_t np = 0;
    for (size_t i = 0; i < nfirst; i++) {
        size_t r = rank_of(s->cand, s->ncand, first[i]);
        for (int p = ADVISE_PREFIX_SALT; p <= ADVISE_PREFIX_OSALT; p++) {
            size_t c = find(s, s->cand[first[i]].body, (advise_prefix)p, home);
            if (c != (size_t)-1 && !s->cand[c].stage) {
                pairs[np][0] = r * 2 + (size_t)(p - ADVISE_PREFIX_SALT);
                pairs[np++][1] = c;
            }
        }
    }
    qsort(pairs, np, sizeof *pairs, by_rank);
    n = 0;
    for (size_t i = 0; i < np && n < left / 2 + left % 2; i++)
        idx[n++] = pairs[i][1];
    if (simulate(sc, s, idx, n, 2, out, obs, err, errcap) < 0) {
        free(pairs);
        goto fail;
    }
    out->stage_tried[2] = n;
    left -= n;

    /* stage 3: other bucket counts of the bucketed front members, nearest
     * counts first (by |log2 ratio|), then by the member's rank */
    advise_pareto(s->cand, s->ncand, out->nobj);
    advise_pick(s->cand, s->ncand, out->obj, out->nobj);
    np = 0;
    for (size_t i = 0; i < s->ncand; i++) {
        const advise_candidate *m = &s->cand[i];
        if (!m->front || !m->buckets || m->prefix == ADVISE_PREFIX_FIXED)
            continue;
        size_t r = rank_of(s->cand, s->ncand, i);
        for (size_t k = 0; k < s->nbuckets; k++) {
            size_t c = find(s, m->body, m->prefix, s->buckets[k]);
            if (c == (size_t)-1 || s->cand[c].stage)
                continue;
            double d = fabs(log2((double)s->buckets[k] / m->buckets));
            pairs[np][0] = (size_t)(d * 16) * 4096 + r;
            pairs[np++][1] = c;
        }
    }
    qsort(pairs, np, sizeof *pairs, by_rank);
    n = 0;
    for (size_t i = 0; i < np && n < left; i++) {
        int dup = 0;
        for (size_t j = 0; j < n && !dup; j++)
            dup = idx[j] == pairs[i][1];
        if (!dup)
            idx[n++] = pairs[i][1];
    }
    free(pairs);
    /* budget the refinement could not use: the candidates not tried yet, in
     * generation order */
    for (size_t i = 0; i < s->ncand && n < left; i++) {
        int dup = s->cand[i].stage != 0;
        for (size_t j = 0; j < n && !dup; j++)
            dup = idx[j] == i;
        if (!dup)
            idx[n++] = i;
    }
    if (simulate(sc, s, idx, n, 3, out, obs, err, errcap) < 0)
        goto fail;
    out->stage_tried[3] = n;

    out->front = advise_pareto(s->cand, s->ncand, out->nobj);
    out->pick = advise_pick(s->cand, s->ncand, out->obj, out->nobj);
    out->tried = out->stage_tried[1] + out->stage_tried[2] + out->stage_tried[3];
    free(idx);
    return 0;
fail:
    free(idx);
    return -1;
}
