/* text_figures.c -- the registry's figures in the human report: a run's
 * figures two to a line, the matrices of figures (a column per scheme or
 * per server, in blocks that fit FIGURE_LINE_COLS), the figures across
 * samples, and `regionsim figures` as a table.
 *
 * Design: one matrix writer serves every table of figures. It sizes each
 * column to its widest cell, packs as many columns into a block as fit,
 * and can leave out rows with nothing to say (0 or undefined everywhere;
 * with samples, the same in every sample) and name or count them after.
 */
#include "reports/text_impl.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "reports/format.h"
#include "reports/samples.h"

uint64_t text_last_seed(const sim_results *res)
{
    return res->seed + res->nsamples - 1;
}

#define FIGURE_LABEL_COLS 12 /* a scheme's name heading a figure column */

/* The longest name among the registry figures of `scope`. */
static int figure_name_cols(figure_scope scope)
{
    int cols = 1;
    for (const figure *f = figure_first(scope); f; f = figure_next(f))
        if ((int)strlen(f->name) > cols)
            cols = (int)strlen(f->name);
    return cols;
}

/* Every scheme-scope figure of run as "name value unit", two to a line,
 * column by column (the registry's order reads down the left, then down
 * the right). */
void text_write_run_figures(FILE *out, const run_result *run)
{
    const figure *shown[256];
    size_t n = 0;
    int name_cols = figure_name_cols(FIGURE_SCHEME), value_cols = 1;
    char v[CELL];
    for (const figure *f = figure_first(FIGURE_SCHEME); f && n < sizeof shown / sizeof shown[0];
         f = figure_next(f)) {
        shown[n++] = f;
        int w = (int)strlen(fmt_figure(v, f, figure_value(f, run, 0)));
        if (w > value_cols) value_cols = w;
    }
    assert(n < sizeof shown / sizeof shown[0]);
    size_t rows = (n + 1) / 2;
    fputs("  figures (regionsim figures says what each means):\n", out);
    for (size_t r = 0; r < rows; r++) {
        for (size_t c = 0; c < 2 && r + c * rows < n; c++) {
            const figure *f = shown[r + c * rows];
            int last = c == 1 || r + rows >= n;
            fprintf(out, "%s%-*s %*s", c ? "   " : "    ", name_cols, f->name, value_cols,
                    fmt_figure(v, f, figure_value(f, run, 0)));
            if (!last) fprintf(out, " %-5s", f->unit);
            else if (f->unit[0]) fprintf(out, " %s", f->unit);
        }
        fputc('\n', out);
    }
}


/* FIGURE_SERVER: the index in run->servers of column col. */
static size_t matrix_server(const figure_matrix *m, size_t col)
{
    return m->servers ? m->servers[col] : col;
}

static size_t matrix_columns(const figure_matrix *m)
{
    if (m->scope == FIGURE_SERVER)
        return m->servers ? m->nservers : m->run->nservers;
    return m->run ? 1 : m->res->nruns;
}

/* FIGURE_SCHEME: the index in res->runs of column col. */
static size_t matrix_run(const figure_matrix *m, size_t col)
{
    return m->run ? (size_t)(m->run - m->res->runs) : col;
}

static double matrix_value(const figure_matrix *m, const figure *f, size_t col)
{
    return m->scope == FIGURE_SERVER ? figure_value(f, m->run, matrix_server(m, col))
                                     : figure_value(f, &m->res->runs[matrix_run(m, col)], 0);
}

static const char *matrix_label(char *buf, const figure_matrix *m, size_t col)
{
    if (m->scope == FIGURE_SERVER)
        return strcpy(buf, m->run->servers[matrix_server(m, col)].name);
    return fmt_cut(buf, m->res->runs[matrix_run(m, col)].scheme_name, FIGURE_LABEL_COLS);
}

/* Whether a spread's min and max print alike (f's decimals), or none was
 * defined: the samples show no difference at this precision. */
static int spread_flat(const figure *f, const figure_spread *s)
{
    char lo[CELL], hi[CELL];
    return s->defined == 0 || !strcmp(fmt_figure(lo, f, s->min), fmt_figure(hi, f, s->max));
}

/* A spread as "median [min, max]", each with f's decimals; the value
 * alone when min and max print alike; "-" when no sample defined it; the
 * median alone if the three do not fit a CELL. */
static const char *fmt_spread(char *buf, const figure *f, const figure_spread *s)
{
    char lo[CELL], mid[CELL], hi[CELL];
    if (s->defined == 0)
        return strcpy(buf, "-");
    fmt_figure(mid, f, s->median);
    if (spread_flat(f, s) ||
        snprintf(buf, CELL, "%s [%s, %s]", mid, fmt_figure(lo, f, s->min),
                 fmt_figure(hi, f, s->max)) >= CELL)
        strcpy(buf, mid);
    return buf;
}

/* Column col's cell for f: its value, or with spread its spread. */
static const char *matrix_cell(char *buf, const figure_matrix *m, const figure *f, size_t col)
{
    if (!m->spread)
        return fmt_figure(buf, f, matrix_value(m, f, col));
    figure_spread s = samples_spread(f, m->res, matrix_run(m, col));
    return fmt_spread(buf, f, &s);
}

/* Whether f's row can go without column col: f is 0 or undefined there;
 * with spread, f prints the same in every sample there (spread_flat). */
static int matrix_cell_empty(const figure_matrix *m, const figure *f, size_t col)
{
    if (!m->spread) {
        double v = matrix_value(m, f, col);
        return !(isfinite(v) && v != 0);
    }
    figure_spread s = samples_spread(f, m->res, matrix_run(m, col));
    return spread_flat(f, &s);
}

/* Whether f is 0 or undefined in every column. */
static int matrix_row_empty(const figure_matrix *m, const figure *f)
{
    for (size_t c = 0; c < matrix_columns(m); c++)
        if (!matrix_cell_empty(m, f, c))
            return 0;
    return 1;
}

/* The figures of m's scope that get a row (with skip_empty, those not
 * empty) into rows (room for cap); returns how many. */
static size_t matrix_rows(const figure_matrix *m, const figure **rows, size_t cap)
{
    size_t n = 0;
    for (const figure *f = figure_first(m->scope); f && n < cap; f = figure_next(f))
        if (!(m->skip_empty && matrix_row_empty(m, f)))
            rows[n++] = f;
    return n;
}

/* Column col's width: its label's or its widest value's. */
static int matrix_column_cols(const figure_matrix *m, const figure *const *rows, size_t nrows,
                              size_t col)
{
    char buf[CELL];
    int cols = (int)strlen(matrix_label(buf, m, col));
    for (size_t i = 0; i < nrows; i++) {
        int w = (int)strlen(matrix_cell(buf, m, rows[i], col));
        if (w > cols) cols = w;
    }
    return cols;
}

/* Columns [from, to) with the figure names and units. */
static void write_matrix_block(FILE *out, const figure_matrix *m, const figure *const *rows,
                               size_t nrows, size_t from, size_t to, const int *cols,
                               int name_cols)
{
    char buf[CELL];
    fprintf(out, "  %-*s", name_cols, "");
    for (size_t c = from; c < to; c++)
        fprintf(out, " %*s", cols[c - from], matrix_label(buf, m, c));
    fputc('\n', out);
    for (size_t i = 0; i < nrows; i++) {
        const figure *f = rows[i];
        fprintf(out, "  %-*s", name_cols, f->name);
        for (size_t c = from; c < to; c++)
            fprintf(out, " %*s", cols[c - from], matrix_cell(buf, m, f, c));
        fprintf(out, "%s%s\n", f->unit[0] ? "  " : "", f->unit);
    }
}

/* The rows skip_empty left out: their names, wrapped; with spread only
 * how many (most figures of most runs: the tables above give them). */
static void write_matrix_empty(FILE *out, const figure_matrix *m)
{
    if (m->spread) {
        size_t n = 0;
        for (const figure *f = figure_first(m->scope); f; f = figure_next(f))
            n += matrix_row_empty(m, f);
        if (n)
            fprintf(out, "  the other %zu figure%s print%s the same in every sample (the figures "
                    "above give %s)\n", n, n == 1 ? "" : "s", n == 1 ? "s" : "",
                    n == 1 ? "it" : "them");
        return;
    }
    const char *lead = "  0 or undefined in every run:";
    int at = 0;
    for (const figure *f = figure_first(m->scope); f; f = figure_next(f)) {
        if (!matrix_row_empty(m, f))
            continue;
        if (at == 0)
            at = fprintf(out, "%s", lead);
        if (at + 1 + (int)strlen(f->name) > FIGURE_LINE_COLS)
            at = fprintf(out, "\n   ");
        at += fprintf(out, " %s", f->name);
    }
    if (at)
        fputc('\n', out);
}

void text_write_figure_matrix(FILE *out, const figure_matrix *m)
{
    size_t ncols = matrix_columns(m);
    int name_cols = figure_name_cols(m->scope), cols[FIGURE_LINE_COLS];
    const figure *rows[256];
    size_t nrows = matrix_rows(m, rows, sizeof rows / sizeof rows[0]);
    assert(nrows < sizeof rows / sizeof rows[0]);
    for (size_t from = 0; from < ncols;) {
        /* as many columns as fit (at least one), units trailing */
        int used = 2 + name_cols + 7;
        size_t to = from;
        while (to < ncols && to - from < FIGURE_LINE_COLS) {
            int w = matrix_column_cols(m, rows, nrows, to);
            if (to > from && used + 1 + w > FIGURE_LINE_COLS)
                break;
            cols[to - from] = w;
            used += 1 + w;
            to++;
        }
        if (from > 0)
            fputc('\n', out);
        write_matrix_block(out, m, rows, nrows, from, to, cols, name_cols);
        from = to;
    }
    if (m->skip_empty)
        write_matrix_empty(out, m);
}

/* With samples (nsamples > 1), every scheme figure that varies across them
 * as "median [min, max]", a row per figure: a column per run of res, or
 * (run set, one of res's runs) of run alone; the figures the same in every
 * sample (the tables above show their value) are named after. Headed by
 * `lead` ("\n" or an indent) and the samples' seeds; nothing for a single
 * run. */
void text_write_samples_section(FILE *out, const sim_results *res, const run_result *run,
                                  const char *lead)
{
    if (res->nsamples <= 1 || res->nruns == 0)
        return;
    assert(!run || (run >= res->runs && run < res->runs + res->nruns));
    fprintf(out, "%sacross %" PRIu32 " samples (seeds %" PRIu64 "..%" PRIu64 "): "
            "median [min, max] of the figures that vary\n", lead, res->nsamples, res->seed,
            text_last_seed(res));
    const figure_matrix m = { FIGURE_SCHEME, res, run, 1, 1, NULL, 0 };
    text_write_figure_matrix(out, &m);
}

void text_write_figure_list(FILE *out)
{
    int name_cols = figure_name_cols(FIGURE_SCHEME);
    if (figure_name_cols(FIGURE_SERVER) > name_cols)
        name_cols = figure_name_cols(FIGURE_SERVER);
    fprintf(out, "%-*s %-6s %-7s %-8s %-6s %s\n", name_cols, "figure", "unit", "scope", "better",
            "seeds", "meaning");
    for (size_t i = 0; i < figure_count(); i++) {
        const figure *f = figure_get(i);
        fprintf(out, "%-*s %-6s %-7s %-8s %-6s %s\n", name_cols, f->name,
                f->unit[0] ? f->unit : "-", figure_scope_name(f->scope),
                figure_better_name(f->better), figure_seeds_name(figure_seed_class(f)),
                f->meaning);
    }
    fputs("\nunit -: a ratio.  scope scheme: one run (a scheme) of the scenario; server: one\n"
          "server of a run.  seeds: across seeds of the default scenario the figure is\n"
          "fixed, robust (within 10% of its median) or moves (read its median and range;\n"
          "docs/figures.md#across-seeds).\n"
          "Figures count the measured operations (from measure_from on).\n"
          "Names are the same in the JSON (\"figures\"), the CSV (figures.csv,\n"
          "server_figures.csv), the HTML and --assert.\n", out);
}
