/* sweep_report.c -- a sweep's text, JSON and CSV reports.
 *
 * Design: every number comes from the sweep_table, which holds the
 * registry's own values (reports/figures.h) for every point and scheme;
 * nothing is recomputed here. The text is one table, a row per point and
 * scheme, showing the figures that matter when choosing a setting
 * (sweep_shown_figures: the writes' and reads' spread, the p99, what each
 * kind of read costs in RPCs, the rows scanned per row returned), with
 * short headers explained under the table by their registry names. JSON
 * and CSV carry every scheme figure of the registry, so a later tool can
 * rebuild any chart without running anything again. Trade-off: the text
 * leaves out the read kinds no run issued (a column of dashes says
 * nothing); JSON and CSV keep every column, so their shape depends only
 * on the registry. The text and the points' labels (messages, JUnit
 * names) show names and values with control bytes escaped (core/text.h):
 * a sweep's own file cannot hold them, but a merged plan's JSON can.
 */
#include "core/text.h"
#include "reports/sweep_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/format.h"
#include "reports/report.h"
#include "reports/verdict.h"

size_t sweep_figure_count(void)
{
    size_t n = 0;
    for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f))
        n++;
    return n;
}

size_t sweep_figure_slot(const figure *f)
{
    size_t n = 0;
    for (const figure *g = figure_first(FIGURE_SCHEME); g && g != f; g = figure_next(g))
        n++;
    return n;
}

const char *sweep_table_point_label(const sweep_table *t, size_t p, char *out, size_t cap)
{
    size_t at = 0;
    if (cap)
        out[0] = '\0';
    for (size_t v = 0; v < t->nvars && at < cap; v++) {
        char name[4 * 64], value[4 * 64];
        int n = snprintf(out + at, cap - at, "%s%s=%s", v ? " " : "",
                         escape_text(t->var_names[v], sizeof name - 1, name, sizeof name),
                         escape_text(t->values[p * t->nvars + v], sizeof value - 1, value, sizeof value));
        if (n < 0)
            break;
        at += (size_t)n;
    }
    return out;
}

size_t sweep_table_stride(const sweep_table *t, size_t v)
{
    size_t stride = 1;
    for (size_t k = v + 1; k < t->nvars; k++)
        stride *= t->var_nvalues[k];
    return stride;
}

double sweep_table_value(const sweep_table *t, size_t p, size_t s, const figure *f)
{
    return t->figures[(p * t->nschemes + s) * t->nfigures + sweep_figure_slot(f)];
}

/* Whether any run of the sweep has a defined, nonzero value of figure `name`. */
static int any_run_has(const sweep_table *t, const char *name)
{
    const figure *f = figure_find(name);
    for (size_t p = 0; f && p < t->npoints; p++)
        for (size_t s = 0; s < t->nschemes; s++) {
            double v = sweep_table_value(t, p, s, f);
            if (!isnan(v) && v != 0)
                return 1;
        }
    return 0;
}

size_t sweep_shown_figures(const sweep_table *t, const figure **out)
{
    static const char *const first[] = { "write_max_mean", "write_window_max_mean",
                                         "read_max_mean", "p99_latency_us" };
    size_t n = 0;
    for (size_t i = 0; i < sizeof first / sizeof *first; i++)
        out[n++] = figure_find(first[i]);
    int reads = any_run_has(t, "reads");
    for (const figure *f = figure_first(FIGURE_SCHEME); f && n < 30; f = figure_next(f)) {
        if (strncmp(f->name, "rpcs_per_read_", 14) || f->kind < 0)
            continue;
        char count[64];
        snprintf(count, sizeof count, "reads_%s", f->name + 14);
        if (any_run_has(t, count))
            out[n++] = f;
    }
    if (reads)
        out[n++] = figure_find("rows_scanned_per_row");
    return n;
}

/* A shown figure's short header for the text table. */
static const char *short_header(const figure *f, char *buf, size_t cap)
{
    if (!strcmp(f->name, "write_max_mean"))
        return "write max/mean";
    if (!strcmp(f->name, "write_window_max_mean"))
        return "window max/mean";
    if (!strcmp(f->name, "read_max_mean"))
        return "read max/mean";
    if (!strcmp(f->name, "p99_latency_us"))
        return "p99";
    if (!strcmp(f->name, "rows_scanned_per_row"))
        return "rows/row";
    if (!strncmp(f->name, "rpcs_per_read_", 14)) {
        snprintf(buf, cap, "RPCs/%s", f->name + 14);
        return buf;
    }
    return f->name;
}

/* A shown figure's value for a person: latencies as the text reports
 * print them, everything else with the registry's decimals. */
static const char *cell(char *buf, const figure *f, double v)
{
    if (!strcmp(f->unit, "us") && !isnan(v))
        return fmt_latency(buf, (uint64_t)llround(v));
    return fmt_figure(buf, f, v);
}

#define SCHEME_COLS 40

/* The text of names and values a table holds, for the text report:
 * control bytes escaped (core/text.h), so a merged plan's file cannot
 * drive the terminal; each at most 4 x 63 characters (a value is at most
 * 63 bytes, SWEEP_VALUE_MAX; a longer name is cut). */
#define SHOWN_CELL (4 * 63 + 1)
static const char *cell_text(char out[SHOWN_CELL], const char *s)
{
    return escape_text(s, SHOWN_CELL - 1, out, SHOWN_CELL);
}

void sweep_write_text(FILE *out, const sweep_table *t)
{
    const figure *shown[32];
    size_t nshown = sweep_shown_figures(t, shown);
    char buf[CELL], hb[CELL], esc[SHOWN_CELL], name[4 * 200 + 1];
    fprintf(out, "sweep %s: %zu point%s x %zu scheme%s",
            escape_text(t->scenario, sizeof name - 1, name, sizeof name), t->npoints,
            t->npoints == 1 ? "" : "s", t->nschemes, t->nschemes == 1 ? "" : "s");
    if (t->measure_auto)
        fputs(", figures from the end of each run's warm-up (measure_from = auto)", out);
    else if (t->measure_from_us)
        fprintf(out, ", figures from %s on (measure_from)", fmt_duration(buf, t->measure_from_us));
    fputs("\n\n", out);

    /* column widths: the longest of the header and every cell */
    size_t wvar[64], wscheme = 6, wfig[32];
    for (size_t v = 0; v < t->nvars && v < 64; v++) {
        wvar[v] = strlen(cell_text(esc, t->var_names[v]));
        for (size_t p = 0; p < t->npoints; p++) {
            size_t l = strlen(cell_text(esc, t->values[p * t->nvars + v]));
            wvar[v] = l > wvar[v] ? l : wvar[v];
        }
    }
    for (size_t i = 0; i < t->npoints * t->nschemes; i++) {
        size_t l = strlen(fmt_cut(buf, cell_text(esc, t->run_names[i]), SCHEME_COLS));
        wscheme = l > wscheme ? l : wscheme;
    }
    for (size_t k = 0; k < nshown; k++) {
        wfig[k] = strlen(short_header(shown[k], hb, sizeof hb));
        for (size_t p = 0; p < t->npoints; p++)
            for (size_t s = 0; s < t->nschemes; s++) {
                size_t l = strlen(cell(buf, shown[k], sweep_table_value(t, p, s, shown[k])));
                wfig[k] = l > wfig[k] ? l : wfig[k];
            }
    }
    for (size_t v = 0; v < t->nvars && v < 64; v++)
        fprintf(out, "%*s  ", (int)wvar[v], cell_text(esc, t->var_names[v]));
    fprintf(out, "%-*s", (int)wscheme, "scheme");
    for (size_t k = 0; k < nshown; k++)
        fprintf(out, "  %*s", (int)wfig[k], short_header(shown[k], hb, sizeof hb));
    fputc('\n', out);
    for (size_t p = 0; p < t->npoints; p++)
        for (size_t s = 0; s < t->nschemes; s++) {
            for (size_t v = 0; v < t->nvars && v < 64; v++)
                fprintf(out, "%*s  ", (int)wvar[v], cell_text(esc, t->values[p * t->nvars + v]));
            fprintf(out, "%-*s", (int)wscheme,
                    fmt_cut(buf, cell_text(esc, t->run_names[p * t->nschemes + s]), SCHEME_COLS));
            for (size_t k = 0; k < nshown; k++)
                fprintf(out, "  %*s", (int)wfig[k],
                        cell(buf, shown[k], sweep_table_value(t, p, s, shown[k])));
            fputc('\n', out);
        }
    /* the overloaded runs, named after the table as compare names them
     * before its own (reports/verdict.h): their figures measured a queue */
    const figure *over = figure_find("overloaded");
    int any = 0;
    for (size_t p = 0; p < t->npoints; p++)
        for (size_t s = 0; s < t->nschemes; s++) {
            if (sweep_table_value(t, p, s, over) != 1)
                continue;
            char label[512], words[256];
            if (!any)
                fprintf(out, "\noverloaded (a server over %.0f%% busy, or under %.0f%% of the "
                        "offered operations done):\n", 100 * VERDICT_OVERLOAD_BUSY,
                        100 * VERDICT_OVERLOAD_DONE);
            any = 1;
            verdict_overload_words(words, sizeof words,
                                   sweep_table_value(t, p, s, figure_find("achieved_ops_per_s")),
                                   sweep_table_value(t, p, s, figure_find("offered_ops_per_s")),
                                   sweep_table_value(t, p, s, figure_find("busiest_busy")));
            fprintf(out, "  at %s: %s: %s\n", sweep_table_point_label(t, p, label, sizeof label),
                    cell_text(esc, t->run_names[p * t->nschemes + s]), words);
        }
    /* the headers' registry names, wrapped at 79 columns */
    fputs("\ncolumns (docs/figures.md):", out);
    int at = 26;
    for (size_t k = 0; k < nshown; k++) {
        char item[CELL * 2];
        int n = snprintf(item, sizeof item, "%s = %s%s", short_header(shown[k], hb, sizeof hb),
                         shown[k]->name, k + 1 < nshown ? "," : "");
        if (at + 1 + n > 79) {
            fputs("\n ", out);
            at = 1;
        }
        fprintf(out, " %s", item);
        at += 1 + n;
    }
    fputc('\n', out);
    fputs("each figure: its median across the point's seeds (the scenario's samples)\n", out);
    if (t->nchecks) {
        size_t failed = 0;
        for (size_t i = 0; i < t->nchecks; i++)
            failed += !t->checks[i].passed;
        fprintf(out, "assertions: %zu checked over the points, %zu failed\n", t->nchecks, failed);
    }
}

void sweep_table_free_results(sweep_table *t)
{
    for (size_t i = 0; t->run_names && i < t->npoints * t->nschemes; i++)
        free(t->run_names[i]);
    free(t->run_names);
    for (size_t s = 0; t->schemes && s < t->nschemes; s++)
        free((char *)t->schemes[s]);
    free((void *)t->schemes);
    free((char *)t->scenario);
    free(t->figures);
    for (size_t i = 0; i < t->nchecks; i++) {
        free(t->checks[i].name);
        free(t->checks[i].expression);
        free(t->checks[i].scheme);
    }
    free(t->checks);
    free(t->check_point);
}

/* ---- JSON ---- */

/* A JSON string (reports/json.c's writer; "" for NULL). */
static void json_string(FILE *out, const char *s)
{
    json_put_string(out, s ? s : "");
}

/* Every bit of v: %.17g reads back as the same double (C11 7.22.1.3 and
 * IEEE 754's 17 significant digits); NAN is null, an infinity the string
 * "inf" or "-inf" (JSON has no such number), -0 "-0.0" (readers take
 * %.17g's "-0" for the integer 0). */
static void json_exact(FILE *out, double v)
{
    if (isnan(v))
        fputs("null", out);
    else if (isinf(v))
        fputs(v > 0 ? "\"inf\"" : "\"-inf\"", out);
    else if (v == 0 && signbit(v))
        fputs("-0.0", out);
    else
        fprintf(out, "%.17g", v);
}

static void write_json(FILE *out, const sweep_table *t, int exact)
{
    void (*number)(FILE *, double) = exact ? json_exact : json_put_figure_value;
    fprintf(out, "{\n  \"sweep\": {\n    \"version\": %d,\n    \"file\": ", SWEEP_JSON_VERSION);
    json_string(out, t->file);
    fputs(",\n    \"scenario\": ", out);
    json_string(out, t->scenario);
    if (exact && t->point_digest) { /* which scenario a planned point's result is of */
        fputs(",\n    \"digest\": ", out);
        json_string(out, t->point_digest);
    }
    fprintf(out, ",\n    \"measure_from_us\": %llu,\n    \"measure_auto\": %s,\n    "
            "\"variables\": [", (unsigned long long)t->measure_from_us,
            t->measure_auto ? "true" : "false");
    for (size_t v = 0; v < t->nvars; v++) {
        fprintf(out, "%s\n      {\"name\": ", v ? "," : "");
        json_string(out, t->var_names[v]);
        fputs(", \"values\": [", out);
        size_t stride = sweep_table_stride(t, v);
        for (size_t k = 0; k < t->var_nvalues[v]; k++) {
            fputs(k ? ", " : "", out);
            json_string(out, t->values[k * stride * t->nvars + v]);
        }
        fputs("]}", out);
    }
    fputs("\n    ],\n    \"schemes\": [", out);
    for (size_t s = 0; s < t->nschemes; s++) {
        fputs(s ? ", " : "", out);
        json_string(out, t->schemes[s]);
    }
    fputs("],\n    \"points\": [", out);
    size_t c = 0;
    for (size_t p = 0; p < t->npoints; p++) {
        fprintf(out, "%s\n      {\"index\": %zu, \"values\": {", p ? "," : "", p);
        for (size_t v = 0; v < t->nvars; v++) {
            fputs(v ? ", " : "", out);
            json_string(out, t->var_names[v]);
            fputs(": ", out);
            json_string(out, t->values[p * t->nvars + v]);
        }
        fputs("},\n       \"runs\": [", out);
        for (size_t s = 0; s < t->nschemes; s++) {
            fprintf(out, "%s\n        {\"scheme\": ", s ? "," : "");
            json_string(out, t->schemes[s]);
            fputs(", \"run\": ", out);
            json_string(out, t->run_names[p * t->nschemes + s]);
            fputs(", \"figures\": {", out);
            int first = 1;
            for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f)) {
                fprintf(out, "%s\"%s\": ", first ? "" : ", ", f->name);
                number(out, sweep_table_value(t, p, s, f));
                first = 0;
            }
            fputs("}}", out);
        }
        fputs("],\n       \"assertions\": [", out);
        int any = 0;
        for (; c < t->nchecks && t->check_point[c] == p; c++) {
            const check_result *r = &t->checks[c];
            fprintf(out, "%s\n        {\"name\": ", any ? "," : "");
            json_string(out, r->name);
            fputs(", \"expression\": ", out);
            json_string(out, r->expression);
            fputs(", \"scheme\": ", out);
            json_string(out, r->scheme);
            fputs(", \"value\": ", out);
            number(out, r->value);
            fputs(", \"bound\": ", out);
            number(out, r->bound);
            fprintf(out, ", \"passed\": %s", r->passed ? "true" : "false");
            if (exact)
                fprintf(out, ", \"seed\": %llu, \"samples\": %u, \"samples_failed\": %u",
                        (unsigned long long)r->seed, (unsigned)r->samples,
                        (unsigned)r->samples_failed);
            if (exact && r->why) {
                fputs(", \"why\": ", out);
                json_string(out, r->why);
            }
            fputc('}', out);
            any = 1;
        }
        fputs("]}", out);
    }
    fputs("\n    ]\n  }\n}\n", out);
}

void sweep_write_json(FILE *out, const sweep_table *t)
{
    write_json(out, t, 0);
}

void sweep_write_json_exact(FILE *out, const sweep_table *t)
{
    write_json(out, t, 1);
}

/* ---- CSV ---- */

void sweep_write_csv(FILE *out, const sweep_table *t)
{
    char buf[CELL];
    fputs("point", out);
    for (size_t v = 0; v < t->nvars; v++) {
        fputc(',', out);
        csv_put_text(out, t->var_names[v]);
    }
    fputs(",scheme,run", out);
    for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f))
        fprintf(out, ",%s", f->name);
    fputc('\n', out);
    for (size_t p = 0; p < t->npoints; p++)
        for (size_t s = 0; s < t->nschemes; s++) {
            fprintf(out, "%zu", p);
            for (size_t v = 0; v < t->nvars; v++) {
                fputc(',', out);
                csv_put_text(out, t->values[p * t->nvars + v]);
            }
            fputc(',', out);
            csv_put_text(out, t->schemes[s]);
            fputc(',', out);
            csv_put_text(out, t->run_names[p * t->nschemes + s]);
            for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f)) {
                fputc(',', out);
                fputs(fmt_number(buf, sweep_table_value(t, p, s, f)), out);
            }
            fputc('\n', out);
        }
}
