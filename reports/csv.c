/* csv.c -- the spreadsheet report: eight CSV files in one directory.
 *
 * Files and columns (a header line each, then one line per record; every
 * file starts with `scheme`, the run's scheme name, so a compare of many
 * schemes fits in one set of files and loads as one table per file):
 *
 *   servers.csv   scheme,server,writes,reads,rows_scanned,bytes,regions,rpcs,
 *                 busy,longest_queue,latency_p50_us,latency_p99_us,
 *                 latency_max_us,write_share,read_share,store
 *                 one line per run per server. Shares are of the column's
 *                 total over the run's servers (writes: the run's writes;
 *                 reads: its read RPCs, which is what servers count), so they
 *                 sum to 1; empty when that total is 0. The
 *                 latency fields are empty for a server that timed nothing.
 *   windows.csv   scheme,window,start_s,end_s,server,writes,reads
 *                 per run, window and server: writes and read RPCs.
 *   regions.csv   scheme,region_id,start_key,end_key,server,opened_s,closed_s,
 *                 state,writes,reads,rows,bytes,write_share,read_share,store
 *                 every region of the run (run->history): state "split" or
 *                 "live"; write_share = writes / the run's writes, read_share
 *                 = reads / the read RPCs of all its regions (empty when 0).
 *   keyspace.csv  scheme,window,start_s,bucket,bucket_start_key,writes,reads
 *                 the key space x time heatmap, one line per window and bucket.
 *   events.csv    scheme,time_s,kind,from_server,to_server,key,reason,
 *                 size_bytes,threshold_bytes,ran,moves,regions_least,
 *                 regions_most,average,floor,ceiling,cost_before,cost_after
 *                 the timeline. kind: split, move, reassign, servers_added,
 *                 decommission, failure, balancer. Servers are filled where
 *                 the kind has them, empty otherwise: split, decommission,
 *                 failure use from_server only; move, reassign and
 *                 servers_added (the first and last id that joined) use
 *                 both. key is the split key or the moved region's start
 *                 key, empty for server events and balancer runs. A split
 *                 fills reason (size or busy), size_bytes (the region when
 *                 it split) and threshold_bytes (what the policy's size rule
 *                 asked for). A balancer run fills reason (why it ran or
 *                 was skipped), ran (1 or 0), moves, the regions on the
 *                 emptiest and the fullest server, the average per server
 *                 and the slop's floor and ceiling (empty when it was
 *                 skipped before counting: regions in transition, one
 *                 server), and for the stochastic balancer its total cost
 *                 over the sum of multipliers before and after the plan.
 *   balancer_costs.csv  scheme,time_s,function,multiplier,before,after,
 *                 weighted_before,weighted_after
 *                 each stochastic balancer run's cost functions (HBase's
 *                 class names), each cost in [0, 1] before and after the
 *                 plan, and multiplied by its multiplier (its part of the
 *                 weighted total).
 *   figures.csv   scheme,figure,value,unit,samples,min,median,max,store
 *                 every scheme-scope figure of the registry
 *                 (reports/figures.h), one line per run and figure, in the
 *                 registry's order; value empty when undefined. value is
 *                 the first sample's (the seed's own run, which every other
 *                 file shows); samples is how many samples ran (--samples,
 *                 1 for a single run) and min, median, max the figure
 *                 across the samples that define it (reports/samples.h),
 *                 all three empty when none does. With one sample they
 *                 equal value; the columns are there either way, so a
 *                 file's columns never depend on the run.
 *   server_figures.csv  scheme,server,figure,value,unit,store
 *                 every server-scope figure, one line per run, server and
 *                 figure.
 *
 * store, the last column of the four files holding rows, rows scanned or
 * read costs: "exact", or "sampled" when the run's row store was sampled
 * and those numbers are estimates (docs/store.md); the same on every line
 * of a run, there so that a file read alone says what its numbers are.
 *
 * Values: servers as "rs<id>"; keys in HBase shell form, and an EMPTY KEY
 * FIELD MEANS UNBOUNDED (the first region's start, the last one's end, the
 * first bucket); integers exactly; times in seconds printed from the
 * integer microseconds (s.uuuuuu), so they are exact; shares and busy as
 * "%.6f"; a registry figure's value integral below 2^53 exactly, any other
 * as "%.6g". The same results give the same bytes.
 *
 * Quoting (RFC 4180): a field containing a comma, a double quote, CR or LF
 * is wrapped in double quotes and its quotes are doubled; other fields are
 * written as they are (scheme names are user text and may hold anything).
 * Lines end in LF.
 *
 * Files: csv_render renders every table into memory and writes nothing.
 * The program writes the eight as one set into -o DIR (cli/output.h:
 * created if missing, each file by the rules every output follows, all
 * renamed into place only once all are written), so that this module, like
 * every report writer, does no file system work of its own.
 */
#include "reports/report.h"
#include "reports/figures.h"
#include "reports/format.h"
#include "reports/samples.h"
#include "reports/stats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- fields ---- */

void csv_put_text(FILE *out, const char *s)
{
    if (!s) return;
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* The col_* functions write one field after the first: a comma, then it. */
static void col_text(FILE *out, const char *s)
{
    fputc(',', out);
    csv_put_text(out, s);
}

static void col_u64(FILE *out, uint64_t v) { fprintf(out, ",%" PRIu64, v); }

static void col_double(FILE *out, double x) { fprintf(out, ",%.6f", x); }

static void col_empty(FILE *out) { fputc(',', out); }

/* n empty fields. */
static void col_empties(FILE *out, int n)
{
    while (n-- > 0) col_empty(out);
}

/* events.csv's columns after `key`: reason, size_bytes, threshold_bytes
 * (reason also a balancer run's), then the balancer's 9 from ran on. */
enum { SPLIT_COLS = 3, BALANCER_COLS = 9 };

static void col_server(FILE *out, uint32_t id) { fprintf(out, ",rs%" PRIu32, id); }

/* Microseconds as exact seconds, "12.000250". */
static void col_seconds(FILE *out, uint64_t us)
{
    fprintf(out, ",%" PRIu64 ".%06" PRIu64, us / 1000000, us % 1000000);
}

/* part / total, or an empty field when the total is 0. */
static void col_share(FILE *out, uint64_t part, uint64_t total)
{
    if (total) col_double(out, (double)part / (double)total);
    else col_empty(out);
}

/* p50, p99 and max, or three empty fields when nothing was timed. */
static void col_latency(FILE *out, const latency_summary *l)
{
    if (l->count == 0) {
        fputs(",,,", out);
        return;
    }
    col_u64(out, l->p50_us);
    col_u64(out, l->p99_us);
    col_u64(out, l->max_us);
}

/* m[i], with a missing matrix read as zeros. */
static uint64_t cell(const uint64_t *m, size_t i) { return m ? m[i] : 0; }

/* The last column of the files whose numbers the sampled store estimates:
 * the store the run's rows came from. */
static void col_store(FILE *out, const sim_results *res)
{
    col_text(out, res->store_sampled ? "sampled" : "exact");
}

/* ---- the tables: each writes the lines of one run of res ---- */

static void servers_rows(FILE *out, const sim_results *res, size_t run_index)
{
    const run_result *run = &res->runs[run_index];
    uint64_t writes = 0, reads = 0;
    for (uint32_t s = 0; s < run->nservers; s++) {
        writes += run->servers[s].writes;
        reads += run->servers[s].reads;
    }
    for (uint32_t s = 0; s < run->nservers; s++) {
        const server_result *sv = &run->servers[s];
        csv_put_text(out, run->scheme_name);
        col_text(out, sv->name);
        col_u64(out, sv->writes);
        col_u64(out, sv->reads);
        col_u64(out, sv->rows_scanned);
        col_u64(out, sv->bytes);
        col_u64(out, sv->regions);
        col_u64(out, sv->rpcs);
        col_double(out, sv->busy);
        col_u64(out, sv->longest_queue);
        col_latency(out, &sv->latency);
        col_share(out, sv->writes, writes);
        col_share(out, sv->reads, reads);
        col_store(out, res);
        fputc('\n', out);
    }
}

static void windows_rows(FILE *out, const sim_results *res, size_t run_index)
{
    const run_result *run = &res->runs[run_index];
    for (uint32_t w = 0; w < run->nwindows; w++) {
        for (uint32_t s = 0; s < run->nservers; s++) {
            size_t i = (size_t)w * run->nservers + s;
            csv_put_text(out, run->scheme_name);
            col_u64(out, w);
            col_seconds(out, (uint64_t)w * run->window_us);
            col_seconds(out, (uint64_t)(w + 1) * run->window_us);
            col_server(out, s);
            col_u64(out, cell(run->window_writes, i));
            col_u64(out, cell(run->window_reads, i));
            fputc('\n', out);
        }
    }
}

static void regions_rows(FILE *out, const sim_results *res, size_t run_index)
{
    const run_result *run = &res->runs[run_index];
    uint64_t reads = stats_region_read_rpcs(run);
    for (size_t i = 0; i < run->nhistory; i++) {
        const region_result *r = &run->history[i];
        csv_put_text(out, run->scheme_name);
        col_u64(out, r->id);
        col_text(out, r->start);
        col_text(out, r->end);
        col_server(out, r->server);
        col_seconds(out, r->opened_us);
        col_seconds(out, r->closed_us);
        col_text(out, r->split ? "split" : "live");
        col_u64(out, r->writes);
        col_u64(out, r->reads);
        col_u64(out, r->rows);
        col_u64(out, r->bytes);
        col_share(out, r->writes, run->writes);
        col_share(out, r->reads, reads);
        col_store(out, res);
        fputc('\n', out);
    }
}

static void keyspace_rows(FILE *out, const sim_results *res, size_t run_index)
{
    const run_result *run = &res->runs[run_index];
    const keyspace_heatmap *ks = &run->keyspace;
    for (uint32_t w = 0; w < run->nwindows; w++) {
        for (uint32_t b = 0; b < ks->nbuckets; b++) {
            size_t i = (size_t)w * ks->nbuckets + b;
            csv_put_text(out, run->scheme_name);
            col_u64(out, w);
            col_seconds(out, (uint64_t)w * run->window_us);
            col_u64(out, b);
            col_text(out, ks->bucket_start ? ks->bucket_start[b] : NULL);
            col_u64(out, cell(ks->writes, i));
            col_u64(out, cell(ks->reads, i));
            fputc('\n', out);
        }
    }
}

/* The balancer's figures of an events.csv line (from `ran` on). */
static void balancer_fields(FILE *out, const balancer_report *b)
{
    col_u64(out, b->ran != 0);
    col_u64(out, b->moves);
    if (!balancer_report_counted(b)) {
        col_empties(out, BALANCER_COLS - 2);
        return;
    }
    col_u64(out, b->least);
    col_u64(out, b->most);
    col_double(out, b->average);
    fprintf(out, ",%" PRId64 ",%" PRId64, b->floor, b->ceiling);
    if (b->kind == BALANCER_STOCHASTIC) {
        col_double(out, b->cost_before);
        col_double(out, b->cost_after);
    } else {
        col_empties(out, 2);
    }
}

static void events_rows(FILE *out, const sim_results *res, size_t run_index)
{
    const run_result *run = &res->runs[run_index];
    for (size_t i = 0; i < run->nevents; i++) {
        const timeline_event *e = &run->events[i];
        const timeline_kind_info *kind = stats_timeline_kind(e->kind);
        csv_put_text(out, run->scheme_name);
        col_seconds(out, e->t_us);
        col_text(out, kind ? kind->name : "unknown");
        if (kind && kind->uses_from) col_server(out, e->from);
        else col_empty(out);
        if (kind && kind->uses_to) col_server(out, e->to);
        else col_empty(out);
        col_text(out, e->key);
        if (e->kind == TIMELINE_SPLIT) {
            col_text(out, e->split.busy ? "busy" : "size");
            col_u64(out, e->split.size_bytes);
            col_u64(out, e->split.threshold_bytes);
            col_empties(out, BALANCER_COLS);
        } else if (e->kind == TIMELINE_BALANCER && e->balancer < run->balancer_runs) {
            const balancer_report *b = &run->balancer_log[e->balancer];
            col_text(out, balancer_reason_text(b->reason));
            col_empties(out, SPLIT_COLS - 1); /* reason is shared: sizes only */
            balancer_fields(out, b);
        } else {
            col_empties(out, SPLIT_COLS + BALANCER_COLS);
        }
        fputc('\n', out);
    }
}

static void balancer_costs_rows(FILE *out, const sim_results *res, size_t run_index)
{
    const run_result *run = &res->runs[run_index];
    for (size_t i = 0; i < run->nevents; i++) {
        const timeline_event *e = &run->events[i];
        if (e->kind != TIMELINE_BALANCER || e->balancer >= run->balancer_runs)
            continue;
        const balancer_report *b = &run->balancer_log[e->balancer];
        for (size_t k = 0; k < b->ncosts; k++) {
            csv_put_text(out, run->scheme_name);
            col_seconds(out, e->t_us);
            col_text(out, b->costs[k].name);
            col_double(out, b->costs[k].multiplier);
            col_double(out, b->costs[k].before);
            col_double(out, b->costs[k].after);
            col_double(out, b->costs[k].multiplier * b->costs[k].before);
            col_double(out, b->costs[k].multiplier * b->costs[k].after);
            fputc('\n', out);
        }
    }
}

/* The fields of figures.csv / server_figures.csv after the scheme (and
 * server): the figure's name, value (empty when undefined) and unit. */
static void figure_fields(FILE *out, const figure *f, double v)
{
    char buf[CELL];
    col_text(out, f->name);
    col_text(out, fmt_number(buf, v));
    col_text(out, f->unit);
}

/* figures.csv's last fields: how many samples ran, and f's min, median
 * and max across them for run run_index (empty when no sample defines it). */
static void spread_fields(FILE *out, const figure *f, const sim_results *res, size_t run_index)
{
    char buf[CELL];
    figure_spread s = samples_spread(f, res, run_index);
    col_u64(out, res->nsamples > 1 ? res->nsamples : 1);
    col_text(out, fmt_number(buf, s.min));
    col_text(out, fmt_number(buf, s.median));
    col_text(out, fmt_number(buf, s.max));
}

static void figures_rows(FILE *out, const sim_results *res, size_t run_index)
{
    const run_result *run = &res->runs[run_index];
    for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f)) {
        csv_put_text(out, run->scheme_name);
        figure_fields(out, f, figure_value(f, run, 0));
        spread_fields(out, f, res, run_index);
        col_store(out, res);
        fputc('\n', out);
    }
}

static void server_figures_rows(FILE *out, const sim_results *res, size_t run_index)
{
    const run_result *run = &res->runs[run_index];
    for (uint32_t s = 0; s < run->nservers; s++) {
        for (const figure *f = figure_first(FIGURE_SERVER); f; f = figure_next(f)) {
            csv_put_text(out, run->scheme_name);
            col_text(out, run->servers[s].name);
            figure_fields(out, f, figure_value(f, run, s));
            col_store(out, res);
            fputc('\n', out);
        }
    }
}

typedef struct table {
    const char *name;
    const char *header;
    void (*rows)(FILE *out, const sim_results *res, size_t run_index); /* one run's lines */
} table;

enum { NTABLES = CSV_FILES };

static const table tables[NTABLES] = {
    { "servers.csv",
      "scheme,server,writes,reads,rows_scanned,bytes,regions,rpcs,busy,longest_queue,"
      "latency_p50_us,latency_p99_us,latency_max_us,write_share,read_share,store",
      servers_rows },
    { "windows.csv", "scheme,window,start_s,end_s,server,writes,reads", windows_rows },
    { "regions.csv",
      "scheme,region_id,start_key,end_key,server,opened_s,closed_s,state,writes,reads,"
      "rows,bytes,write_share,read_share,store",
      regions_rows },
    { "keyspace.csv", "scheme,window,start_s,bucket,bucket_start_key,writes,reads",
      keyspace_rows },
    { "events.csv",
      "scheme,time_s,kind,from_server,to_server,key,reason,size_bytes,threshold_bytes,ran,"
      "moves,regions_least,regions_most,average,floor,ceiling,cost_before,cost_after",
      events_rows },
    { "balancer_costs.csv",
      "scheme,time_s,function,multiplier,before,after,weighted_before,weighted_after",
      balancer_costs_rows },
    { "figures.csv", "scheme,figure,value,unit,samples,min,median,max,store", figures_rows },
    { "server_figures.csv", "scheme,server,figure,value,unit,store", server_figures_rows },
};

/* ---- rendering ---- */

const char *csv_file_name(size_t i)
{
    return i < NTABLES ? tables[i].name : NULL;
}

/* One table of every run, rendered into f. */
static int render_table(const table *tb, const sim_results *res, csv_file *f, char *err,
                        size_t errcap)
{
    FILE *out = open_memstream(&f->text, &f->len);
    int bad = !out;
    if (out) {
        fprintf(out, "%s\n", tb->header);
        for (size_t r = 0; r < res->nruns; r++) tb->rows(out, res, r);
        bad = ferror(out);
        bad |= fclose(out) != 0;
    }
    if (bad && err && errcap) snprintf(err, errcap, "csv: %s: %s", tb->name, strerror(ENOMEM));
    return bad ? -1 : 0;
}

int csv_render(const sim_results *res, csv_file files[CSV_FILES], char *err, size_t errcap)
{
    memset(files, 0, CSV_FILES * sizeof *files);
    for (int i = 0; i < NTABLES; i++) {
        files[i].name = tables[i].name;
        if (render_table(&tables[i], res, &files[i], err, errcap) < 0) return -1;
    }
    return 0;
}

void csv_files_free(csv_file files[CSV_FILES])
{
    for (int i = 0; i < NTABLES; i++) {
        free(files[i].text);
        files[i].text = NULL;
        files[i].len = 0;
    }
}
