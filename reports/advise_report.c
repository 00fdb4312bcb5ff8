/* advise_report.c -- what `regionsim advise` prints: the Pareto front, the
 * pick and why, in text or JSON.
 *
 * The text is for a planner: the front as a table sorted by weighted
 * score, then the recommendation and a "why" in plain words built from the
 * same figures with fixed thresholds (write balance in the words of
 * reports/verdict.h, the HTML summary's: even, nearly even, uneven, on one
 * server; a read figure is worth a comparison when it differs by 1.2x or
 * more), comparing the
 * pick with the runner-up and with the layout unprefixed (or the pattern's
 * natural key). The JSON lists every candidate simulated, its objectives
 * (null when undefined), whether it is on the front, and the pick. Both
 * are functions of the search's outcome only: byte-identical for a seed.
 */
#include "reports/advise_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "reports/format.h"
#include "reports/report.h"
#include "reports/verdict.h"

static void put_value(FILE *out, const advise_objective *o, double v, int width)
{
    char buf[32];
    if (isnan(v))
        fprintf(out, "%*s", width, "-");
    else if (o->group == ADVISE_LATENCY)
        fprintf(out, "%*s", width, fmt_latency(buf, (uint64_t)llround(v)));
    else if (v >= 1000)
        fprintf(out, "%*.0f", width, v);
    else
        fprintf(out, "%*.2f", width, v);
}

/* An objective's column in the front's table: its label's width, at
 * least 8. */
static int column_width(const advise_objective *o)
{
    size_t len = strlen(o->label);
    return (int)(len > 8 ? len : 8);
}

static const char *kind_name(int k) { return query_kind_name((query_kind)k); }

/* "writes even (1.01)": the steady-state write max/mean v over n servers
 * in reports/verdict.h's words, the HTML summary's. */
static void describe_writes(char *out, size_t cap, double v, uint32_t n)
{
    spread_class c = verdict_spread(v, n);
    if (c == SPREAD_UNDEFINED)
        snprintf(out, cap, "writes unmeasured");
    else if (c == SPREAD_ONE_SERVER)
        snprintf(out, cap, "writes on one server (%.2f of %u)", v, (unsigned)n);
    else
        snprintf(out, cap, "writes %s (%.2f)", verdict_spread_word(c), v);
}

/* The read objectives' RPC entries (each followed by its rows entry), the
 * kinds with the largest share of the mix first (ties: registry order). */
static size_t read_order(const advise_outcome *oc, size_t *idx)
{
    size_t n = 0;
    for (size_t o = 0; o + 1 < oc->nobj; o++)
        if (oc->obj[o].group == ADVISE_READS && !strncmp(oc->obj[o].figure, "rpcs_", 5))
            idx[n++] = o;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && oc->obj[idx[j]].weight > oc->obj[idx[j - 1]].weight; j--) {
            size_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    return n;
}

/* "writes even (1.00); metric reads 20.0 RPCs, 0.02 rows read per row
 * returned; ..."; a read kind of the mix the run measured no read of is
 * "no metric reads measured" (its figures are undefined: never "nan"). */
static size_t describe(char *out, size_t cap, const advise_candidate *c, const advise_outcome *oc,
                       uint32_t nservers)
{
    size_t at = 0, idx[ADVISE_MAX_OBJECTIVES];
    char w[64];
    describe_writes(w, sizeof w, c->value[0], nservers);
    at += (size_t)snprintf(out + at, cap - at, "%s", w);
    size_t n = read_order(oc, idx);
    for (size_t i = 0; i < n && at < cap; i++) {
        size_t o = idx[i];
        const char *kind = kind_name(oc->obj[o].kind);
        double rpcs = c->value[o], rows = c->value[o + 1];
        if (isnan(rpcs)) /* the mix has the kind, but the run measured none of its reads */
            at += (size_t)snprintf(out + at, cap - at, "; no %s reads measured", kind);
        else if (isnan(rows)) /* reads, but no row came back to divide by */
            at += (size_t)snprintf(out + at, cap - at, "; %s reads %.1f RPCs, no rows returned",
                                   kind, rpcs);
        else
            at += (size_t)snprintf(out + at, cap - at, "; %s reads %.1f RPCs, %.2f rows read per "
                                   "row returned", kind, rpcs, rows);
    }
    if (at < cap)
        at += (size_t)snprintf(out + at, cap - at, "; %.0f key bytes", c->value[oc->nobj - 1]);
    return at;
}

/* Ratios of a against b worth saying (>= 1.2x either way), as words. */
static void compare_to(char *out, size_t cap, const advise_candidate *a,
                       const advise_candidate *b, const advise_outcome *oc)
{
    size_t at = (size_t)snprintf(out, cap, "the pick against it: ");
    int said = 0;
    for (size_t o = 0; o < oc->nobj && at < cap; o++) {
        double x = a->value[o], y = b->value[o];
        if (isnan(x) || isnan(y) || x <= 0 || y <= 0)
            continue;
        double r = x / y;
        if (r < 1.2 && r > 1 / 1.2)
            continue;
        at += (size_t)snprintf(out + at, cap - at, "%s%s %.3gx %s", said ? ", " : "",
                               oc->obj[o].label, r >= 1 ? r : 1 / r, r >= 1 ? "higher" : "lower");
        said = 1;
    }
    if (!said && at < cap)
        snprintf(out + at, cap - at, "within 1.2x on every objective");
}

/* text as lines of at most 100 columns, the first after `first`, the
 * rest indented by `indent` spaces; words are never cut. */
static void wrap(FILE *out, const char *first, const char *text, int indent)
{
    enum { WIDTH = 100 };
    int col = fprintf(out, "%s", first);
    const char *p = text;
    int fresh = 1;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        int len = (int)(e - p);
        if (!len)
            break;
        if (!fresh && col + 1 + len > WIDTH) {
            col = fprintf(out, "\n%*s", indent, "") - 1;
            fresh = 1;
        }
        col += fprintf(out, "%s%.*s", fresh ? "" : " ", len, p);
        fresh = 0;
        p = e;
    }
    fputc('\n', out);
}

static int by_score(const advise_space *s, size_t a, size_t b)
{
    double x = s->cand[a].score, y = s->cand[b].score;
    return x < y || (x == y && a < b);
}

void advise_write_text(FILE *out, const advise_space *s, const advise_outcome *oc,
                       const char *scenario_name, const scenario *sc)
{
    size_t order[ADVISE_MAX_BUDGET + 64], n = 0;
    for (size_t i = 0; i < s->ncand && n < sizeof order / sizeof *order; i++)
        if (s->cand[i].front)
            order[n++] = i;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && by_score(s, order[j], order[j - 1]); j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    if (sc->samples > 1)
        fprintf(out, "advise: %s, %u servers, seeds %llu..%llu (each figure the median of %u)\n",
                scenario_name, (unsigned)sc->servers, (unsigned long long)sc->seed,
                (unsigned long long)(sc->seed + sc->samples - 1), (unsigned)sc->samples);
    else
        fprintf(out, "advise: %s, %u servers, seed %llu\n", scenario_name,
                (unsigned)sc->servers, (unsigned long long)sc->seed);
    char summary[512];
    snprintf(summary, sizeof summary, "tried %zu of %zu candidate keys: stage 1, %zu layouts%s; "
             "stage 2, %zu salted at %u buckets; stage 3, %zu more (other bucket counts "
             "first). %zu on the Pareto front.", oc->tried, s->ncand, oc->stage_tried[1],
             oc->sampled ? " (a seeded sample)" : "", oc->stage_tried[2],
             (unsigned)oc->home_buckets, oc->stage_tried[3], oc->front);
    wrap(out, "", summary, 0);
    fputc('\n', out);
    fputs("Pareto front (lower is better in every column; score: weighted log2 of each figure "
          "over the front's best)\n", out);
    fprintf(out, "%6s", "score");
    for (size_t o = 0; o < oc->nobj; o++)
        fprintf(out, " %*s", column_width(&oc->obj[o]), oc->obj[o].label);
    fputs("  scheme\n", out);
    for (size_t r = 0; r < n; r++) {
        const advise_candidate *c = &s->cand[order[r]];
        fprintf(out, "%6.2f", c->score);
        for (size_t o = 0; o < oc->nobj; o++) {
            fputc(' ', out);
            put_value(out, &oc->obj[o], c->value[o], column_width(&oc->obj[o]));
        }
        fprintf(out, "  %s%s\n", c->expr, order[r] == oc->pick ? "  <- pick" : "");
    }
    if (oc->pick == (size_t)-1) {
        fputs("\nno recommendation: nothing was simulated\n", out);
        return;
    }
    const advise_candidate *p = &s->cand[oc->pick];
    char line[1024], head[512];
    describe(line, sizeof line, p, oc, sc->servers);
    fprintf(out, "\nrecommendation: %s\n", p->expr);
    wrap(out, "  ", line, 4);
    if (n > 1) {
        const advise_candidate *ru = &s->cand[order[1]];
        describe(line, sizeof line, ru, oc, sc->servers);
        snprintf(head, sizeof head, "runner-up %s:", ru->expr);
        wrap(out, "  ", head, 4);
        wrap(out, "    ", line, 4);
        compare_to(line, sizeof line, p, ru, oc);
        wrap(out, "    ", line, 4);
    }
    /* the pick's layout unprefixed, else the pattern's natural key */
    size_t base = (size_t)-1;
    for (size_t i = 0; i < s->ncand && base == (size_t)-1; i++)
        if (s->cand[i].stage && s->cand[i].prefix == ADVISE_PREFIX_NONE &&
            s->cand[i].body == p->body)
            base = i;
    for (size_t i = 0; i < s->ncand && base == (size_t)-1; i++)
        if (s->cand[i].stage && s->cand[i].prefix == ADVISE_PREFIX_NONE &&
            s->cand[i].body == s->natural)
            base = i;
    if (base != (size_t)-1 && base != oc->pick) {
        const advise_candidate *b = &s->cand[base];
        describe(line, sizeof line, b, oc, sc->servers);
        snprintf(head, sizeof head, "%s %s:", b->body == p->body ? "unsalted" : "the natural key",
                 b->expr);
        wrap(out, "  ", head, 4);
        wrap(out, "    ", line, 4);
        compare_to(line, sizeof line, p, b, oc);
        wrap(out, "    ", line, 4);
    }
    snprintf(line, sizeof line, "why: the best weighted score on the front (%.2f; weights "
             "writes %g, reads %g, latency %g, keys %g)", p->score,
             oc->weights.w[ADVISE_WRITES], oc->weights.w[ADVISE_READS],
             oc->weights.w[ADVISE_LATENCY], oc->weights.w[ADVISE_KEYS]);
    wrap(out, "  ", line, 4);
}

static void json_number(FILE *out, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", out);
    else
        fprintf(out, "%.17g", v);
}

void advise_write_json(FILE *out, const advise_space *s, const advise_outcome *oc,
                       const char *scenario_name, const scenario *sc)
{
    fputs("{\n  \"scenario\": ", out);
    json_put_string(out, scenario_name);
    fprintf(out, ",\n  \"servers\": %u,\n  \"seed\": %llu,\n  \"samples\": %u,\n"
            "  \"candidates_in_space\": %zu,\n"
            "  \"tried\": %zu,\n  \"stages\": [%zu, %zu, %zu],\n  \"stage1_sampled\": %s,\n",
            (unsigned)sc->servers, (unsigned long long)sc->seed,
            (unsigned)(sc->samples > 1 ? sc->samples : 1), s->ncand, oc->tried,
            oc->stage_tried[1], oc->stage_tried[2], oc->stage_tried[3],
            oc->sampled ? "true" : "false");
    fputs("  \"weights\": {", out);
    for (int g = 0; g < ADVISE_GROUPS; g++) {
        fprintf(out, "%s\"%s\": ", g ? ", " : "", advise_group_name((advise_group)g));
        json_number(out, oc->weights.w[g]);
    }
    fputs("},\n  \"objectives\": [", out);
    for (size_t o = 0; o < oc->nobj; o++) {
        fprintf(out, "%s\n    {\"figure\": \"%s\", \"weight\": ", o ? "," : "", oc->obj[o].figure);
        json_number(out, oc->obj[o].weight);
        fputc('}', out);
    }
    fputs("\n  ],\n  \"pick\": ", out);
    if (oc->pick == (size_t)-1)
        fputs("null", out);
    else
        json_put_string(out, s->cand[oc->pick].expr);
    fputs(",\n  \"candidates\": [", out);
    int first = 1;
    for (size_t i = 0; i < s->ncand; i++) {
        const advise_candidate *c = &s->cand[i];
        if (!c->stage)
            continue;
        fprintf(out, "%s\n    {\"scheme\": ", first ? "" : ",");
        first = 0;
        json_put_string(out, c->expr);
        fprintf(out, ", \"stage\": %d, \"front\": %s, \"score\": ", c->stage,
                c->front ? "true" : "false");
        json_number(out, c->score);
        fputs(", \"figures\": {", out);
        for (size_t o = 0; o < oc->nobj; o++) {
            fprintf(out, "%s\"%s\": ", o ? ", " : "", oc->obj[o].figure);
            json_number(out, c->value[o]);
        }
        fputs("}}", out);
    }
    fputs("\n  ]\n}\n", out);
}
