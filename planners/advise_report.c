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
#include "planners/advise_report.h"

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

/* ---- the check ---- */

/* "2x duration" / "3x load" / "as written" */
static const char *regime_name(char *buf, size_t cap, const advise_regime *r)
{
    if (r->kind == ADVISE_REGIME_WRITTEN)
        snprintf(buf, cap, "as written");
    else
        snprintf(buf, cap, "%gx %s", r->factor,
                 r->kind == ADVISE_REGIME_DURATION ? "duration" : "load");
    return buf;
}

/* What the regime ran: "30m, measured from 10m" or "1000 ops/s offered". */
static const char *regime_run(char *buf, size_t cap, const advise_regime *r)
{
    char d[32], f[32];
    if (!r->run)
        snprintf(buf, cap, "not run");
    else if (r->kind == ADVISE_REGIME_LOAD)
        snprintf(buf, cap, "%.0f ops/s offered", r->offered[0].median);
    else if (r->measure_from_us == 0)
        snprintf(buf, cap, "%s, all of it", fmt_duration(d, r->duration_us));
    else
        snprintf(buf, cap, "%s from %s", fmt_duration(d, r->duration_us),
                 fmt_duration(f, r->measure_from_us));
    return buf;
}

/* How a spread is shown: a ratio or count, a share of time, a latency. */
enum { SHOW_PLAIN = 0, SHOW_PERCENT, SHOW_LATENCY };

static const char *one_value(char *buf, size_t cap, double v, int how)
{
    char lat[32];
    if (how == SHOW_PERCENT)
        snprintf(buf, cap, v < 0.1 ? "%.1f%%" : "%.0f%%", v * 100);
    else if (how == SHOW_LATENCY)
        snprintf(buf, cap, "%s", fmt_latency(lat, (uint64_t)llround(v)));
    else
        snprintf(buf, cap, v >= 1000 ? "%.0f" : "%.2f", v);
    return buf;
}

/* "1.37 (1.21-1.52)": a median and its range over the seeds ("1.00" when
 * every seed gave the same). */
static const char *spread_text(char *buf, size_t cap, const advise_spread *v, int how)
{
    char m[18], lo[18], hi[18];
    if (isnan(v->median)) {
        snprintf(buf, cap, "-");
        return buf;
    }
    one_value(m, sizeof m, v->median, how);
    one_value(lo, sizeof lo, v->min, how);
    one_value(hi, sizeof hi, v->max, how);
    if (!strcmp(m, lo) && !strcmp(m, hi))
        snprintf(buf, cap, "%s", m); /* the seeds agree as far as it is shown */
    else
        snprintf(buf, cap, "%s (%s%s%s)", m, lo, how == SHOW_LATENCY ? " to " : "-", hi);
    return buf;
}

/* Why regime r's pick is not the search's: the figures that flipped it,
 * the regions per server at the end and the busiest server's load, each
 * against the regime as written (w; for w itself, against the search's
 * own seed for the figures). */
static void explain_change(FILE *out, const advise_check *chk, const advise_regime *r,
                           const advise_regime *w, const advise_space *s,
                           const advise_outcome *oc)
{
    char line[2048], name[64], a[64], b[64], c[64], d[64];
    size_t at = 0, k = r->pick;
    at += (size_t)snprintf(line + at, sizeof line - at, "%s: the pick is %s (the %s)",
                           r == w ? "as written, over the seeds" : regime_name(name, sizeof name, r),
                           s->cand[chk->cand[k]].expr, chk->role[k]);
    for (int f = 0; f < 2 && r->flipped[f] >= 0 && at < sizeof line; f++) {
        size_t o = (size_t)r->flipped[f];
        int how = oc->obj[o].group == ADVISE_LATENCY ? SHOW_LATENCY : SHOW_PLAIN;
        advise_spread was_new = w->fig[k][o], was_pick = w->fig[0][o];
        if (r == w) { /* the search's one seed */
            double v = s->cand[chk->cand[k]].value[o], p = s->cand[chk->cand[0]].value[o];
            was_new = (advise_spread){ v, v, v };
            was_pick = (advise_spread){ p, p, p };
        }
        at += (size_t)snprintf(line + at, sizeof line - at, "%s %s %s %s, %s here (the search's "
                               "pick %s and %s)", f ? ";" : "; what flipped it:",
                               oc->obj[o].label, spread_text(a, sizeof a, &was_new, how),
                               r == w ? "at the search's seed" : "as written",
                               spread_text(b, sizeof b, &r->fig[k][o], how),
                               spread_text(c, sizeof c, &was_pick, how),
                               spread_text(d, sizeof d, &r->fig[0][o], how));
    }
    if (at < sizeof line)
        at += (size_t)snprintf(line + at, sizeof line - at, "; regions per server at the end %s",
                               spread_text(a, sizeof a, &r->regions_per_server[k], SHOW_PLAIN));
    if (r != w && at < sizeof line)
        at += (size_t)snprintf(line + at, sizeof line - at, ", as written %s",
                               spread_text(a, sizeof a, &w->regions_per_server[k], SHOW_PLAIN));
    if (at < sizeof line)
        at += (size_t)snprintf(line + at, sizeof line - at, "; the search's pick's %s",
                               spread_text(a, sizeof a, &r->regions_per_server[0], SHOW_PLAIN));
    if (r != w && at < sizeof line)
        at += (size_t)snprintf(line + at, sizeof line - at, ", as written %s",
                               spread_text(a, sizeof a, &w->regions_per_server[0], SHOW_PLAIN));
    if (at < sizeof line)
        snprintf(line + at, sizeof line - at, "; busiest server %s busy (the search's pick %s)",
                 spread_text(a, sizeof a, &r->busiest_busy[k], SHOW_PERCENT),
                 spread_text(b, sizeof b, &r->busiest_busy[0], SHOW_PERCENT));
    wrap(out, "  ", line, 4);
}

/* ", " between items, " and " before the last of n */
static const char *joiner(size_t i, size_t n)
{
    return i == 0 ? "" : i + 1 == n ? " and " : ", ";
}

static void write_check_text(FILE *out, const advise_check *chk, const advise_space *s,
                             const advise_outcome *oc)
{
    char line[2048], name[64], run[64], rps[64], busy[64];
    if (!chk) {
        fputc('\n', out);
        wrap(out, "", "check: skipped (--no-check): the pick is one run's, at one seed, of "
             "the scenario as written; it may not hold in a longer run, at a higher load or at "
             "another seed (docs/advise.md#the-check)", 2);
        return;
    }
    if (!chk->ncand)
        return;
    size_t at = (size_t)snprintf(line, sizeof line, "check: does the pick hold? %zu of the front "
                                 "re-run at seeds %llu-%llu (%zu runs), each regime judged on "
                                 "the median over the seeds:", chk->ncand,
                                 (unsigned long long)chk->seed,
                                 (unsigned long long)(chk->seed + chk->nseeds - 1), chk->runs);
    for (size_t k = 0; k < chk->ncand && at < sizeof line; k++)
        at += (size_t)snprintf(line + at, sizeof line - at, "%s %s %s", k ? ";" : "",
                               chk->role[k], s->cand[chk->cand[k]].expr);
    fputc('\n', out);
    wrap(out, "", line, 2);
    fprintf(out, "  %-14s %-24s %-10s %-20s %-16s %s\n", "regime", "run", "seeds", "regions/server",
            "busiest busy", "pick");
    size_t holds = 0, ran = 0;
    for (size_t r = 0; r < chk->nregimes; r++) {
        const advise_regime *g = &chk->regime[r];
        regime_name(name, sizeof name, g);
        regime_run(run, sizeof run, g);
        if (!g->run) {
            fprintf(out, "  %-14s %-24s not run: %s\n", name, run, g->why_not);
            continue;
        }
        ran++;
        holds += advise_check_holds(g);
        char seeds[32];
        snprintf(seeds, sizeof seeds, "%u of %u", (unsigned)g->seeds_holding,
                 (unsigned)chk->nseeds);
        fprintf(out, "  %-14s %-24s %-10s %-20s %-16s %s%s\n", name, run, seeds,
                spread_text(rps, sizeof rps, &g->regions_per_server[0], SHOW_PLAIN),
                spread_text(busy, sizeof busy, &g->busiest_busy[0], SHOW_PERCENT),
                advise_check_holds(g) ? "holds" : "changes to ",
                advise_check_holds(g) ? "" : s->cand[chk->cand[g->pick]].expr);
    }
    /* the verdict: where it holds, where it changes */
    size_t nhold = 0, nchange = 0;
    if (holds == ran)
        at = (size_t)snprintf(line, sizeof line, "the pick holds in every regime run (%zu)", ran);
    else if (holds == 0)
        at = (size_t)snprintf(line, sizeof line, "the pick holds in none of the %zu regimes run; "
                              "it changes", ran);
    else
        at = (size_t)snprintf(line, sizeof line, "the pick holds");
    for (size_t r = 0; holds && holds != ran && r < chk->nregimes && at < sizeof line; r++)
        if (advise_check_holds(&chk->regime[r]))
            at += (size_t)snprintf(line + at, sizeof line - at, "%s%s%s",
                                   nhold ? joiner(nhold, holds) : " ",
                                   chk->regime[r].kind == ADVISE_REGIME_WRITTEN ? "" : "at ",
                                   regime_name(name, sizeof name, &chk->regime[r])),
                nhold++;
    if (holds && holds != ran && at < sizeof line)
        at += (size_t)snprintf(line + at, sizeof line - at, "; it changes");
    for (size_t r = 0; r < chk->nregimes && at < sizeof line; r++) {
        const advise_regime *g = &chk->regime[r];
        if (!g->run || advise_check_holds(g))
            continue;
        at += (size_t)snprintf(line + at, sizeof line - at, "%s%s%s",
                               nchange ? joiner(nchange, ran - holds) : " ",
                               g->kind == ADVISE_REGIME_WRITTEN ? "across the seeds as written"
                                                                : "at ",
                               g->kind == ADVISE_REGIME_WRITTEN ? ""
                                   : regime_name(name, sizeof name, g));
        nchange++;
    }
    if (ran < chk->nregimes && at < sizeof line)
        snprintf(line + at, sizeof line - at, " (%zu of the %zu regimes could not be run)",
                 chk->nregimes - ran, chk->nregimes);
    wrap(out, "  ", line, 4);
    for (size_t r = 0; r < chk->nregimes; r++)
        if (chk->regime[r].run && !advise_check_holds(&chk->regime[r]) &&
            chk->regime[r].pick != (size_t)-1)
            explain_change(out, chk, &chk->regime[r], &chk->regime[0], s, oc);
}

void advise_write_text(FILE *out, const advise_space *s, const advise_outcome *oc,
                       const advise_check *chk, const char *scenario_name, const scenario *sc)
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
    write_check_text(out, chk, s, oc);
}

static void json_number(FILE *out, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", out);
    else
        fprintf(out, "%.17g", v);
}

static void json_spread(FILE *out, const advise_spread *v)
{
    fputs("{\"median\": ", out);
    json_number(out, v->median);
    fputs(", \"min\": ", out);
    json_number(out, v->min);
    fputs(", \"max\": ", out);
    json_number(out, v->max);
    fputc('}', out);
}

static void write_check_json(FILE *out, const advise_check *chk, const advise_space *s,
                             const advise_outcome *oc)
{
    static const char *const kinds[] = { "as_written", "duration", "load" };
    if (!chk || !chk->ncand) { /* skipped, or nothing to check (no pick) */
        fputs("null", out);
        return;
    }
    fprintf(out, "{\"seeds\": [");
    for (uint32_t k = 0; k < chk->nseeds; k++)
        fprintf(out, "%s%llu", k ? ", " : "", (unsigned long long)(chk->seed + k));
    fprintf(out, "], \"runs\": %zu,\n    \"shortlist\": [", chk->runs);
    for (size_t k = 0; k < chk->ncand; k++) {
        fprintf(out, "%s{\"scheme\": ", k ? ", " : "");
        json_put_string(out, s->cand[chk->cand[k]].expr);
        fprintf(out, ", \"role\": \"%s\"}", chk->role[k]);
    }
    size_t holds = 0, ran = 0;
    fputs("],\n    \"regimes\": [", out);
    for (size_t r = 0; r < chk->nregimes; r++) {
        const advise_regime *g = &chk->regime[r];
        ran += g->run != 0;
        holds += advise_check_holds(g);
        fprintf(out, "%s\n      {\"regime\": \"%s\", \"factor\": ", r ? "," : "",
                kinds[g->kind]);
        json_number(out, g->factor);
        fprintf(out, ", \"run\": %s", g->run ? "true" : "false");
        if (!g->run) {
            fputs(", \"why_not\": ", out);
            json_put_string(out, g->why_not);
            fputc('}', out);
            continue;
        }
        fprintf(out, ", \"duration_us\": %llu, \"measure_from_us\": %llu, \"holds\": %s, "
                "\"pick\": ", (unsigned long long)g->duration_us,
                (unsigned long long)g->measure_from_us, advise_check_holds(g) ? "true" : "false");
        if (g->pick == (size_t)-1)
            fputs("null", out);
        else
            json_put_string(out, s->cand[chk->cand[g->pick]].expr);
        fprintf(out, ", \"seeds_holding\": %u, \"flipped_figures\": [",
                (unsigned)g->seeds_holding);
        for (int f = 0; f < 2 && g->flipped[f] >= 0; f++)
            fprintf(out, "%s\"%s\"", f ? ", " : "", oc->obj[g->flipped[f]].figure);
        fputc(']', out);
        fputs(",\n       \"candidates\": [", out);
        for (size_t k = 0; k < chk->ncand; k++) {
            fprintf(out, "%s\n        {\"scheme\": ", k ? "," : "");
            json_put_string(out, s->cand[chk->cand[k]].expr);
            fprintf(out, ", \"front\": %s, \"score\": ", g->front[k] ? "true" : "false");
            json_number(out, g->score[k]);
            fputs(", \"regions_per_server\": ", out);
            json_spread(out, &g->regions_per_server[k]);
            fputs(", \"busiest_busy\": ", out);
            json_spread(out, &g->busiest_busy[k]);
            fputs(", \"offered_ops_per_s\": ", out);
            json_spread(out, &g->offered[k]);
            fputs(", \"figures\": {", out);
            for (size_t o = 0; o < oc->nobj; o++) {
                fprintf(out, "%s\"%s\": ", o ? ", " : "", oc->obj[o].figure);
                json_spread(out, &g->fig[k][o]);
            }
            fputs("}}", out);
        }
        fputs("]}", out);
    }
    fprintf(out, "\n    ],\n    \"holds\": %s}", holds == ran ? "true" : "false");
}

void advise_write_json(FILE *out, const advise_space *s, const advise_outcome *oc,
                       const advise_check *chk, const char *scenario_name, const scenario *sc)
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
    fputs("\n  ],\n  \"check\": ", out);
    write_check_json(out, chk, s, oc);
    fputs("\n}\n", out);
}
