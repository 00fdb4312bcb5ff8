/* json.c -- the machine report: the versioned JSON schema.
 *
 * Design: a tiny streaming emitter (struct jw: the stream, the depth, and
 * whether the next member needs a comma) writes straight to the FILE, so
 * nothing is built in memory and nothing can fail halfway but the stream.
 * Layout is fixed for diffs and for eyes: 2-space indentation, one member
 * per line, but small records (a server, a window) and arrays of numbers on
 * one line, so a run's windows read as a table.
 *
 * Determinism: integers print exactly; doubles as "%.6g", and NAN or
 * infinity (undefined figures) as null, so equal results give equal bytes.
 * Strings are escaped per RFC 8259: '"' and '\' get a backslash, control
 * characters become \u00XX, and bytes that are not valid UTF-8 become
 * \ufffd so the output always parses. Derived figures come from stats.h.
 */
#include "reports/report.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>

#include "reports/figures.h"
#include "reports/format.h"
#include "reports/samples.h"
#include "reports/stats.h"
#include "reports/verdict.h"

/* How many regions "hot_regions" lists. */
#define HOT_REGIONS 10

typedef struct jw {
    FILE *out;
    int depth;
    int need_comma;  /* a member or element precedes at this depth */
    int per_server;  /* windows carry one count per server (else totals and maxima) */
    int estimated;   /* the sampled store: read costs are estimates */
} jw;

/* ---- scalars ---- */

void json_put_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', out);
    while (*p) {
        size_t n = utf8_sequence_len(p);
        if (n == 0) {
            fputs("\\ufffd", out);
            p++;
        } else if (n > 1) {
            fwrite(p, 1, n, out);
            p += n;
        } else if (*p == '"' || *p == '\\') {
            fputc('\\', out);
            fputc(*p++, out);
        } else if (*p < 0x20) {
            fprintf(out, "\\u%04x", *p++);
        } else {
            fputc(*p++, out);
        }
    }
    fputc('"', out);
}

static void put_double(FILE *out, double x)
{
    if (isfinite(x)) fprintf(out, "%.6g", x);
    else fputs("null", out);
}

static void put_u64_row(FILE *out, const uint64_t *v, size_t n)
{
    fputc('[', out);
    for (size_t i = 0; i < n; i++) fprintf(out, "%s%" PRIu64, i ? ", " : "", v ? v[i] : 0);
    fputc(']', out);
}

void json_put_figure_value(FILE *out, double x)
{
    char buf[CELL];
    fputs(isfinite(x) ? fmt_number(buf, x) : "null", out);
}

/* {"name": value, ...} of every registry figure of `scope` for run (and
 * server `index`), on one line. */
static void put_figures_inline(FILE *out, const run_result *run, figure_scope scope, size_t index)
{
    int first = 1;
    fputc('{', out);
    for (const figure *f = figure_first(scope); f; f = figure_next(f)) {
        fprintf(out, "%s\"%s\": ", first ? "" : ", ", f->name);
        json_put_figure_value(out, figure_value(f, run, index));
        first = 0;
    }
    fputc('}', out);
}

/* ---- structure ---- */

/* Starts a new line for the next member or element, after a comma if due. */
static void next_line(jw *w)
{
    fprintf(w->out, "%s\n%*s", w->need_comma ? "," : "", 2 * w->depth, "");
    w->need_comma = 1;
}

static void key(jw *w, const char *name)
{
    next_line(w);
    fprintf(w->out, "\"%s\": ", name);
}

static void open_(jw *w, char bracket)
{
    fputc(bracket, w->out);
    w->depth++;
    w->need_comma = 0;
}

/* Closes the innermost object or array; an empty one closes on its line. */
static void close_(jw *w, char bracket)
{
    assert(w->depth > 0);
    w->depth--;
    if (w->need_comma) fprintf(w->out, "\n%*s", 2 * w->depth, "");
    fputc(bracket, w->out);
    w->need_comma = 1;
}

static void key_u64(jw *w, const char *name, uint64_t v)
{
    key(w, name);
    fprintf(w->out, "%" PRIu64, v);
}

static void key_bool(jw *w, const char *name, int v)
{
    key(w, name);
    fputs(v ? "true" : "false", w->out);
}

static void key_double(jw *w, const char *name, double x)
{
    key(w, name);
    put_double(w->out, x);
}

static void key_string(jw *w, const char *name, const char *s)
{
    key(w, name);
    json_put_string(w->out, s);
}

/* ---- the schema ---- */

static void write_cluster(jw *w, const sim_results *res)
{
    key(w, "cluster");
    open_(w, '{');
    key_u64(w, "servers", res->servers);
    key_string(w, "split_policy", res->split_policy);
    key_u64(w, "region_max_bytes", res->region_max_bytes);
    key_u64(w, "flush_bytes", res->flush_bytes);
    key_double(w, "split_jitter", res->split_jitter);
    key_u64(w, "discharge_us", res->discharge_us);
    key_string(w, "balancer", res->balancer);
    key_u64(w, "balancer_period_us", res->balancer_period_us);
    key_u64(w, "balancer_first_us", res->balancer_first_us);
    key_u64(w, "status_first_us", res->status_first_us);
    key_u64(w, "window_us", res->window_us);
    /* the start codes of the servers (by id): drawn from the seed, so
     * the same in every run of the file (a server that never ran: 0) */
    key(w, "start_codes");
    fputc('[', w->out);
    const run_result *run0 = res->nruns ? &res->runs[0] : NULL;
    for (uint32_t s = 0; run0 && s < run0->nservers; s++)
        fprintf(w->out, "%s%" PRIu64, s ? ", " : "", run0->servers[s].start_code);
    fputc(']', w->out);
    close_(w, '}');

    key(w, "workload");
    open_(w, '{');
    key_string(w, "description", res->workload);
    key_u64(w, "cell_overhead_bytes", res->cell_overhead_bytes);
    close_(w, '}');
}

/* {"p50": .., "p99": .., "p999": .., "max": ..} on one line, or null. */
static void put_latency_inline(FILE *out, const latency_summary *l)
{
    if (l->count == 0) {
        fputs("null", out);
        return;
    }
    fprintf(out, "{\"p50\": %" PRIu64 ", \"p99\": %" PRIu64 ", \"p999\": %" PRIu64
            ", \"max\": %" PRIu64 "}", l->p50_us, l->p99_us, l->p999_us, l->max_us);
}

static void write_servers(jw *w, const run_result *run)
{
    key(w, "servers");
    open_(w, '[');
    for (uint32_t s = 0; s < run->nservers; s++) {
        const server_result *sv = &run->servers[s];
        next_line(w);
        fputs("{\"name\": ", w->out);
        json_put_string(w->out, sv->name);
        fprintf(w->out, ", \"writes\": %" PRIu64 ", \"reads\": %" PRIu64 ", \"regions\": %" PRIu64
                ", \"system_regions\": %" PRIu64 ", \"rows_scanned\": %" PRIu64
                ", \"bytes\": %" PRIu64 ", \"rpcs\": %" PRIu64 ", \"busy\": ",
                sv->writes, sv->reads, sv->regions, sv->system_regions, sv->rows_scanned,
                sv->bytes, sv->rpcs);
        put_double(w->out, sv->busy);
        fprintf(w->out, ", \"longest_queue\": %" PRIu64 ", \"latency_us\": ", sv->longest_queue);
        put_latency_inline(w->out, &sv->latency);
        fputs(", \"figures\": ", w->out);
        put_figures_inline(w->out, run, FIGURE_SERVER, s);
        fputc('}', w->out);
    }
    close_(w, ']');
}

/* One imbalance object, or null when undefined (nothing to spread). */
static void write_imbalance(jw *w, const char *name, const imbalance *im, const run_result *run)
{
    key(w, name);
    if (!im->defined) {
        fputs("null", w->out);
        return;
    }
    open_(w, '{');
    key_double(w, "max_mean", im->max_mean);
    key_double(w, "cov", im->cov);
    key_double(w, "gini", im->gini);
    key_double(w, "jain", im->jain);
    key_string(w, "hottest", run->servers[im->hottest].name);
    key_double(w, "hottest_share", im->hottest_share);
    close_(w, '}');
}

static void write_balance(jw *w, const run_result *run)
{
    imbalance writes = stats_server_writes(run), reads = stats_server_reads(run);
    window_stats ws = stats_window_writes(run);

    key(w, "imbalance");
    open_(w, '{');
    write_imbalance(w, "writes", &writes, run);
    write_imbalance(w, "reads", &reads, run);
    close_(w, '}');

    key(w, "window_imbalance");
    open_(w, '{');
    key(w, "writes");
    open_(w, '{');
    key_u64(w, "windows", ws.windows);
    key_double(w, "mean_max_mean", ws.mean_max_mean);
    key_double(w, "worst_max_mean", ws.worst_max_mean);
    close_(w, '}');
    close_(w, '}');
}

/* "windows": one entry a report window, with per-server arrays of writes
 * and read RPCs, or (w->per_server 0) their totals and maxima, which keep
 * the report's size independent of the servers. */
static void write_windows(jw *w, const run_result *run)
{
    if (!w->per_server)
        key_bool(w, "windows_per_server", 0);
    key(w, "windows");
    open_(w, '[');
    for (uint32_t i = 0; i < run->nwindows; i++) {
        size_t row = (size_t)i * run->nservers;
        const uint64_t *wr = run->window_writes ? run->window_writes + row : NULL;
        const uint64_t *rd = run->window_reads ? run->window_reads + row : NULL;
        next_line(w);
        fprintf(w->out, "{\"t_us\": %" PRIu64 ", ", (uint64_t)i * run->window_us);
        if (w->per_server) {
            fputs("\"writes\": ", w->out);
            put_u64_row(w->out, wr, run->nservers);
            fputs(", \"reads\": ", w->out);
            put_u64_row(w->out, rd, run->nservers);
        } else {
            uint64_t wt, wm, rt, rm; /* from the matrix or, a reduced run, its digest */
            stats_window_total_max(run, 0, i, &wt, &wm);
            stats_window_total_max(run, 1, i, &rt, &rm);
            fprintf(w->out, "\"writes_total\": %" PRIu64 ", \"writes_max\": %" PRIu64
                    ", \"reads_total\": %" PRIu64 ", \"reads_max\": %" PRIu64, wt, wm, rt, rm);
        }
        if (run->window_regions)
            fprintf(w->out, ", \"regions\": %" PRIu64, run->window_regions[i]);
        fputc('}', w->out);
    }
    close_(w, ']');
}

/* The key space x time heatmap: bucket start keys and one row of bucket
 * counts per window, for writes and for read RPCs. */
static void write_keyspace(jw *w, const run_result *run)
{
    const keyspace_heatmap *h = &run->keyspace;
    key(w, "keyspace");
    open_(w, '{');
    key_u64(w, "sample", h->sample);
    key(w, "exact");
    fputs(h->exact ? "true" : "false", w->out);
    key(w, "buckets"); /* on one line */
    fputc('[', w->out);
    for (uint32_t b = 0; b < h->nbuckets; b++) {
        if (b) fputs(", ", w->out);
        json_put_string(w->out, h->bucket_start[b]);
    }
    fputc(']', w->out);
    for (int kind = 0; kind < 2; kind++) {
        const uint64_t *m = kind ? h->reads : h->writes;
        key(w, kind ? "reads" : "writes");
        open_(w, '[');
        for (uint32_t i = 0; h->nbuckets && i < run->nwindows; i++) {
            next_line(w);
            put_u64_row(w->out, m + (size_t)i * h->nbuckets, h->nbuckets);
        }
        close_(w, ']');
    }
    close_(w, '}');
}

/* Every region of the run, one per line, and the hottest ones as indices
 * into that list. */
static void write_region_log(jw *w, const run_result *run)
{
    key(w, "region_log");
    open_(w, '[');
    for (size_t i = 0; i < run->nhistory; i++) {
        const region_result *r = &run->history[i];
        next_line(w);
        fputs("{\"start\": ", w->out);
        json_put_string(w->out, r->start);
        fputs(", \"end\": ", w->out);
        json_put_string(w->out, r->end);
        fprintf(w->out, ", \"id\": %" PRIu64 ", \"server\": \"rs%" PRIu32 "\", \"state\": \"%s\", "
                "\"opened_us\": %" PRIu64 ", \"closed_us\": %" PRIu64 ", \"writes\": %" PRIu64
                ", \"reads\": %" PRIu64 ", \"rows\": %" PRIu64 ", \"bytes\": %" PRIu64 "}",
                r->id, r->server, r->split ? "split" : "live", r->opened_us, r->closed_us,
                r->writes, r->reads, r->rows, r->bytes);
    }
    close_(w, ']');
    size_t top[HOT_REGIONS];
    size_t n = stats_top_regions(run, HOT_REGIONS, top);
    key(w, "hot_regions"); /* on one line */
    fputc('[', w->out);
    for (size_t i = 0; i < n; i++)
        fprintf(w->out, "%s%zu", i ? ", " : "", top[i]);
    fputc(']', w->out);
}

/* What the split policy saw: the sizes, and the busy rule's ratio. */
static void put_split_why(FILE *out, const split_why *why)
{
    fprintf(out, ", \"reason\": \"%s\", \"size_bytes\": %" PRIu64
            ", \"threshold_bytes\": %" PRIu64 ", \"regions_on_server\": %" PRIu64,
            why->busy ? "busy" : "size", why->size_bytes, why->threshold_bytes,
            why->regions_on_server);
    if (why->busy) {
        fputs(", \"blocked_ratio\": ", out);
        put_double(out, why->blocked_ratio);
        fputs(", \"busy_threshold\": ", out);
        put_double(out, why->busy_threshold);
    }
}

/* A balancer run's decision and the figures it rested on. */
static void put_balancer_run(FILE *out, const balancer_report *b)
{
    fprintf(out, ", \"ran\": %s, \"reason\": \"%s\", \"moves\": %" PRIu64
            ", \"servers\": %" PRIu32 ", \"regions\": %" PRIu64,
            b->ran ? "true" : "false", balancer_reason_text(b->reason), b->moves, b->servers,
            b->regions);
    if (b->reason == BALANCER_IN_TRANSITION) {
        fprintf(out, ", \"in_transition\": %" PRIu64, b->in_transition);
        return;
    }
    if (!balancer_report_counted(b))
        return;
    fprintf(out, ", \"least\": %" PRIu64 ", \"most\": %" PRIu64 ", \"average\": ", b->least,
            b->most);
    put_double(out, b->average);
    fprintf(out, ", \"floor\": %" PRId64 ", \"ceiling\": %" PRId64, b->floor, b->ceiling);
    if (b->kind == BALANCER_SIMPLE) {
        if (b->ran)
            fprintf(out, ", \"min\": %" PRId64 ", \"max\": %" PRId64 ", \"overloaded\": %"
                    PRIu32 ", \"underloaded\": %" PRIu32, b->target_min, b->target_max,
                    b->overloaded, b->underloaded);
        return;
    }
    fputs(", \"cost_before\": ", out);
    put_double(out, b->cost_before);
    fputs(", \"cost_after\": ", out);
    put_double(out, b->cost_after);
    fputs(", \"sum_multipliers\": ", out);
    put_double(out, b->sum_multipliers);
    fprintf(out, ", \"steps\": %" PRIu64 ", \"costs\": [", b->steps);
    for (size_t i = 0; i < b->ncosts; i++) {
        const balancer_cost *c = &b->costs[i];
        fprintf(out, "%s{\"name\": ", i ? ", " : "");
        json_put_string(out, c->name);
        fputs(", \"multiplier\": ", out);
        put_double(out, c->multiplier);
        fputs(", \"before\": ", out);
        put_double(out, c->before);
        fputs(", \"after\": ", out);
        put_double(out, c->after);
        fputs(", \"weighted_before\": ", out); /* multiplier x cost: its part of the total */
        put_double(out, c->multiplier * c->before);
        fputs(", \"weighted_after\": ", out);
        put_double(out, c->multiplier * c->after);
        fputc('}', out);
    }
    fputc(']', out);
}

/* The timeline: splits, moves, reassignments, server events and balancer
 * runs in order. */
static void write_timeline(jw *w, const run_result *run)
{
    key(w, "timeline");
    open_(w, '[');
    for (size_t i = 0; i < run->nevents; i++) {
        const timeline_event *e = &run->events[i];
        const timeline_kind_info *kind = stats_timeline_kind(e->kind);
        assert(kind);
        next_line(w);
        fprintf(w->out, "{\"t_us\": %" PRIu64 ", \"kind\": \"%s\"", e->t_us, kind->name);
        if (kind->uses_from)
            fprintf(w->out, ", \"from\": \"rs%" PRIu32 "\"", e->from);
        if (kind->uses_to)
            fprintf(w->out, ", \"to\": \"rs%" PRIu32 "\"", e->to);
        if (e->key) {
            fputs(", \"key\": ", w->out);
            json_put_string(w->out, e->key);
        }
        if (e->kind == TIMELINE_SPLIT)
            put_split_why(w->out, &e->split);
        if (e->kind == TIMELINE_BALANCER && e->balancer < run->balancer_runs)
            put_balancer_run(w->out, &run->balancer_log[e->balancer]);
        fputc('}', w->out);
    }
    close_(w, ']');
}

/* Whether the measured run reached a steady state, and if not why. */
static void write_steady(jw *w, const run_result *run)
{
    steady_state st = stats_steady(run);
    char note[256];
    stats_steady_note(run, &st, note, sizeof note);
    key(w, "steady");
    open_(w, '{');
    key(w, "steady");
    fputs(st.steady ? "true" : "false", w->out);
    key_string(w, "note", st.steady ? NULL : note);
    close_(w, '}');
}

/* "regime": what the run's figures measured (the span, the table then) and
 * the warm-up before it (the growing table), as stats_regime_note says it. */
static void write_regime(jw *w, const run_result *run)
{
    key(w, "regime");
    open_(w, '{');
    key_u64(w, "from_us", run->measure_from_us);
    key_u64(w, "to_us", run->duration_us);
    key_bool(w, "auto", run->measure_auto);
    key_u64(w, "table_age_us", run->measure_from_us); /* the table is created at 0 */
    key_u64(w, "regions_start", run->measure_regions);
    key_u64(w, "servers_start", run->measure_servers);
    key_double(w, "regions_per_server_start", stats_regions_per_server_start(run));
    key_u64(w, "regions_end", run->regions);
    key_u64(w, "servers_end", run->servers_end);
    key_double(w, "regions_per_server_end", stats_regions_per_server_end(run));
    key_u64(w, "bytes_start", run->bytes_start);
    key_u64(w, "bytes_end", run->bytes);
    key(w, "warmup");
    open_(w, '{');
    key_bool(w, "ended", run->warmup_ended);
    key_u64(w, "end_us", run->warmup_us);
    key_u64(w, "regions", run->warmup_regions);
    key_u64(w, "servers", run->warmup_servers);
    key_double(w, "write_max_mean",
               run->warmup_us ? stats_warmup_writes(run).max_mean : NAN);
    close_(w, '}');
    close_(w, '}');
}

/* "overload": whether the run was overloaded (reports/verdict.h), and its
 * note ("overloaded: 316 of 1000 ops/s done, ..."; null when not). */
static void write_overload(jw *w, const run_result *run)
{
    char note[256];
    int over = verdict_overload_note(note, sizeof note, run);
    key(w, "overload");
    open_(w, '{');
    key(w, "overloaded");
    fputs(over ? "true" : "false", w->out);
    key_string(w, "note", over ? note : NULL);
    close_(w, '}');
}

/* "latency_note": why a latency is longer than the measured run (what was
 * queued at its end was drained after it), or null when none is. */
static void write_latency_note(jw *w, const run_result *run)
{
    char note[512];
    key_string(w, "latency_note", verdict_drain_note(note, sizeof note, run) ? note : NULL);
}

/* "latency_us": count, mean and quantiles, or null when nothing was timed. */
static void write_latency(jw *w, const latency_summary *l)
{
    key(w, "latency_us");
    if (l->count == 0) {
        fputs("null", w->out);
        return;
    }
    open_(w, '{');
    key_u64(w, "count", l->count);
    key_double(w, "mean", l->mean_us);
    key_u64(w, "p50", l->p50_us);
    key_u64(w, "p99", l->p99_us);
    key_u64(w, "p999", l->p999_us);
    key_u64(w, "max", l->max_us);
    close_(w, '}');
}

/* What reads cost: RPCs per logical read (overall and by kind), rows read
 * per record returned, full-table scans; null when nothing was read. */
static void write_read_cost(jw *w, const run_result *run)
{
    key(w, "read_cost");
    if (run->reads == 0) {
        fputs("null", w->out);
        return;
    }
    open_(w, '{');
    key_double(w, "rpcs_per_read", (double)stats_read_rpcs(run) / (double)run->reads);
    key_double(w, "rows_scanned_per_row", run->records_returned
                                              ? (double)run->rows_scanned /
                                                    (double)run->records_returned
                                              : NAN);
    key_u64(w, "rows_scanned", run->rows_scanned);
    key_u64(w, "records_returned", run->records_returned);
    key_u64(w, "full_scans", run->full_scans);
    if (w->estimated) /* the sampled store: rows read are estimates */
        key_bool(w, "estimated", 1);
    key(w, "by_kind");
    open_(w, '{');
    for (int k = 0; k < QUERY_KINDS; k++) {
        key(w, query_kind_name((query_kind)k));
        open_(w, '{');
        key_u64(w, "reads", run->reads_by_kind[k]);
        key_u64(w, "rpcs", run->read_rpcs_by_kind[k]);
        key_u64(w, "rows_scanned", run->rows_scanned_by_kind[k]);
        key_u64(w, "records_returned", run->records_returned_by_kind[k]);
        close_(w, '}');
    }
    close_(w, '}');
    write_latency(w, &run->read_latency);
    close_(w, '}');
}

/* "figures": every scheme-scope registry figure, one per line, by name. */
static void write_figures(jw *w, const run_result *run)
{
    key(w, "figures");
    open_(w, '{');
    for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f)) {
        key(w, f->name);
        json_put_figure_value(w->out, figure_value(f, run, 0));
    }
    close_(w, '}');
}

/* "spread" (only with samples): every scheme-scope figure's min, median
 * and max across the samples (reports/samples.h), by name. */
static void write_spread(jw *w, const sim_results *res, size_t r)
{
    if (res->nsamples <= 1)
        return;
    key(w, "spread");
    open_(w, '{');
    for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f)) {
        figure_spread s = samples_spread(f, res, r);
        next_line(w);
        json_put_string(w->out, f->name);
        fputs(": {\"min\": ", w->out);
        json_put_figure_value(w->out, s.min);
        fputs(", \"median\": ", w->out);
        json_put_figure_value(w->out, s.median);
        fputs(", \"max\": ", w->out);
        json_put_figure_value(w->out, s.max);
        fprintf(w->out, ", \"defined\": %u}", (unsigned)s.defined);
    }
    close_(w, '}');
}

static void write_run(jw *w, const sim_results *res, size_t r)
{
    const run_result *run = &res->runs[r];
    next_line(w);
    open_(w, '{');
    key_string(w, "scheme", run->scheme_name);
    key_string(w, "key", run->scheme_expr);
    key_string(w, "key_example", run->key_example);
    key_string(w, "presplit", run->presplit);
    key_u64(w, "writes", run->writes);
    key_u64(w, "reads", run->reads);
    key_u64(w, "duration_us", run->duration_us);
    write_regime(w, run);
    write_servers(w, run);
    write_balance(w, run);
    write_overload(w, run);
    write_steady(w, run);

    key(w, "regions");
    open_(w, '{');
    key_u64(w, "start", run->regions_start);
    key_u64(w, "count", run->regions);
    key_u64(w, "splits", run->splits);
    key_u64(w, "moves", run->moves);
    key_u64(w, "balancer_runs", run->balancer_runs);
    key_u64(w, "servers_added", run->servers_added);
    key_u64(w, "decommissions", run->decommissions);
    key_u64(w, "failures", run->failures);
    key_u64(w, "reassigned", run->reassigned);
    close_(w, '}');

    key_u64(w, "rows", run->rows);
    key_u64(w, "bytes", run->bytes);
    key(w, "key_bytes");
    open_(w, '{');
    key_u64(w, "min", run->key_bytes_min);
    key_double(w, "mean", run->key_bytes_mean);
    key_u64(w, "max", run->key_bytes_max);
    close_(w, '}');

    key(w, "throughput");
    open_(w, '{');
    /* Rates need time: a run that covered none has neither. */
    key_double(w, "offered", run->duration_us ? run->offered_per_s : NAN);
    key_double(w, "achieved", run->duration_us ? run->achieved_per_s : NAN);
    key_u64(w, "unfinished", run->unfinished);
    key_u64(w, "left_out", run->left_out);
    close_(w, '}');

    write_read_cost(w, run);
    write_latency(w, &run->latency);
    write_latency_note(w, run);
    write_figures(w, run);
    write_spread(w, res, r);
    write_windows(w, run);
    write_keyspace(w, run);
    write_region_log(w, run);
    write_timeline(w, run);
    close_(w, '}');
}

/* "assertions": every CI assertion's result on every run it applies to
 * (res->checks), one object a line; with samples, passed in every sample,
 * the value the worst one's (its seed), and how many failed. */
static void write_assertions(jw *w, const sim_results *res)
{
    key(w, "assertions");
    open_(w, '[');
    for (size_t i = 0; i < res->nchecks; i++) {
        const check_result *c = &res->checks[i];
        next_line(w);
        fputs("{\"name\": ", w->out);
        json_put_string(w->out, c->name);
        fputs(", \"expression\": ", w->out);
        json_put_string(w->out, c->expression);
        fputs(", \"scheme\": ", w->out);
        json_put_string(w->out, c->scheme);
        fputs(", \"value\": ", w->out);
        put_double(w->out, c->value);
        fputs(", \"bound\": ", w->out);
        put_double(w->out, c->bound);
        fprintf(w->out, ", \"passed\": %s, \"seed\": %llu, \"samples\": %u, "
                "\"samples_failed\": %u}", c->passed ? "true" : "false",
                (unsigned long long)c->seed, (unsigned)c->samples, (unsigned)c->samples_failed);
    }
    close_(w, ']');
}

int json_windows_per_server(const sim_results *res, json_windows windows)
{
    for (size_t r = 0; r < res->nruns; r++)
        if (res->runs[r].digest.present)
            return 0; /* reduced (the program asked for no arrays): totals and maxima only */
    if (windows != JSON_WINDOWS_AUTO)
        return windows == JSON_WINDOWS_YES;
    double cells = 0;
    for (size_t r = 0; r < res->nruns; r++)
        cells += (double)res->runs[r].nwindows * res->runs[r].nservers;
    return cells <= JSON_WINDOWS_AUTO_CELLS;
}

void json_write(FILE *out, const sim_results *res)
{
    json_write_windows(out, res, JSON_WINDOWS_AUTO);
}

void json_write_windows(FILE *out, const sim_results *res, json_windows windows)
{
    jw w = { out, 0, 0, json_windows_per_server(res, windows), res->store_sampled };
    assert(out && res && (res->runs || res->nruns == 0));

    open_(&w, '{');
    key_u64(&w, "regionsim", REPORT_JSON_SCHEMA);
    key_string(&w, "scenario", res->scenario);
    key_u64(&w, "seed", res->seed);
    key_u64(&w, "samples", res->nsamples ? res->nsamples : 1);
    key_u64(&w, "measure_from_us", res->measure_from_us);
    key_bool(&w, "measure_auto", res->measure_auto); /* each run's: its "regime" */
    if (res->store_sampled) { /* absent with the exact store */
        key(&w, "store");
        open_(&w, '{');
        key_string(&w, "kind", "sampled");
        key_bool(&w, "auto", res->store_auto);
        key_u64(&w, "sample_keys", res->sample_keys);
        close_(&w, '}');
    }
    if (res->engine_weighted) { /* absent per-op */
        key(&w, "engine");
        open_(&w, '{');
        key_string(&w, "kind", "weighted");
        key_bool(&w, "auto", res->engine_auto);
        key_u64(&w, "weight", res->engine_weight);
        close_(&w, '}');
    }
    write_cluster(&w, res);

    key(&w, "runs");
    open_(&w, '[');
    for (size_t r = 0; r < res->nruns; r++) write_run(&w, res, r);
    close_(&w, ']');

    write_assertions(&w, res);
    close_(&w, '}');
    fputc('\n', out);
    assert(w.depth == 0);
}

void json_write_figure_list(FILE *out)
{
    jw w = { out, 0, 0, 1, 0 };
    open_(&w, '{');
    key_u64(&w, "regionsim", REPORT_JSON_SCHEMA);
    key(&w, "figures");
    open_(&w, '[');
    for (size_t i = 0; i < figure_count(); i++) {
        const figure *f = figure_get(i);
        next_line(&w);
        fputs("{\"name\": ", out);
        json_put_string(out, f->name);
        fputs(", \"unit\": ", out);
        json_put_string(out, f->unit);
        fprintf(out, ", \"scope\": \"%s\", \"better\": \"%s\", \"seeds\": \"%s\", "
                "\"read_kind\": ", figure_scope_name(f->scope), figure_better_name(f->better),
                figure_seeds_name(figure_seed_class(f)));
        json_put_string(out, f->kind >= 0 ? query_kind_name((query_kind)f->kind) : NULL);
        fputs(", \"meaning\": ", out);
        json_put_string(out, f->meaning);
        fputc('}', out);
    }
    close_(&w, ']');
    close_(&w, '}');
    fputc('\n', out);
    assert(w.depth == 0);
}
