/* sweep_html.c -- a sweep's HTML page: a line chart per figure against
 * the swept variable.
 *
 * Design: one XHTML page as reports/html.c writes them (well-formed XML,
 * inline CSS and SVG, nothing fetched, no script): a header naming the
 * scenario and the variables, then one <figure> per shown figure
 * (sweep_shown_figures: the same figures as the text table), each an
 * inline SVG line chart, then the text table's rows as an HTML table.
 *
 * The x axis is the FIRST variable, drawn to scale when it can be:
 *  - when every value of the variable is a number (the table's numbers,
 *    sweep_value_numbers: plain numbers, or durations such as `10m`, or
 *    sizes such as `64MiB`, all of one kind), each point sits at its
 *    value, on a linear scale, or on a logarithmic one when every value is
 *    positive, the largest is at least 8 times the smallest, and the
 *    values are closer to evenly spaced in log than in linear: the widest
 *    gap between neighbouring values takes a smaller share of the axis on
 *    the log scale than on the linear one. So 4, 8, 16, 20, 32, 64 is
 *    drawn on a log scale (its widest gap, 32 to 64, is 53% of the
 *    linear axis but 25% of the log one), 8..64 step 8 on a linear one
 *    (evenly spaced: 14% against 33%), 1, 2, 4 on a linear one (a range
 *    of 4: too short to be worth a log axis); ties go to linear;
 *  - otherwise (names, scheme fragments, a mix of kinds, a single
 *    distinct value) at equal steps in sweep order.
 * A tick at each value, labelled as the user wrote it (`10m`, not
 * 600000000); a label that would overlap the one before it (two close
 * values) is left out, its tick and its points' tooltips still there. The
 * axis title says the scale: "buckets (log scale)", "(linear scale)",
 * "(equal steps, in sweep order)". Values may be listed in any order: a
 * line joins its points in ascending x (in sweep order for equal steps).
 *
 * Lines: one per scheme, and, with more variables, per scheme and
 * combination of the other variables' values ("salted, servers=16"):
 * every line is one series of the first variable's values with
 * everything else fixed. Colours: a fixed list of 8 distinguishable hues
 * (Tableau 10's), then the same hues dashed, then dotted. Past 8 lines a
 * legend of repeated hues is hard to read (2 variables x 6 values x 3
 * schemes is 18 lines, three of each hue), so with several variables and
 * more than 8 lines a figure becomes small multiples: one smaller chart
 * per value of the SECOND variable (its panel title "servers=16"), each
 * with a line per scheme and combination of the later variables, all on
 * the same y range, and one legend for them all. A figure that still has
 * more than 8 lines a panel (many schemes, a third variable) uses the
 * dashes and dots, and past 24 the styles repeat: the tooltips still
 * name every point's line.
 *
 * The y axis runs from 0 (or the smallest value, if negative) to the
 * largest value over every line, widened to the next multiple of a round
 * step (1, 2, 2.5 or 5 times a power of ten, the smallest that needs at
 * most 5 steps): ticks read 0, 1, 2, 3, 4, not 0, 0.94, 1.88. Each point is a circle
 * with a <title> tooltip holding its exact value, the point and the
 * scheme; an undefined value breaks its line. The figure carries
 * data-figure, each line data-series (its legend entry's index), each
 * panel data-panel (the second variable's value index), for scripts and
 * tests. Positions are printed with one decimal: the same table gives the
 * same bytes.
 */
#include "reports/sweep_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/format.h"
#include "reports/html_impl.h"

#define MAX_HUES 8          /* lines a chart draws in solid colours */

/* A chart's size and plot margins (viewBox units). */
typedef struct frame {
    int w, h, l, r, t, b;
} frame;

static const frame one_chart = { 640, 300, 70, 20, 20, 50 };
static const frame panel_chart = { 420, 260, 70, 20, 30, 50 };

static const char *const colours[MAX_HUES] = { "#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                               "#59a14f", "#edc948", "#b07aa1", "#9c755f" };
static const char *const dashes[3] = { "", " stroke-dasharray=\"6 3\"",
                                       " stroke-dasharray=\"2 3\"" };
static const char *const legend_marks[3] = { "&#x2014;", "- -", "&#xb7;&#xb7;&#xb7;" };

typedef enum x_scale { X_STEPS, X_LINEAR, X_LOG } x_scale;

/* The x axis: where each of the first variable's values goes. */
typedef struct x_axis {
    x_scale scale;
    size_t nx;           /* the first variable's values */
    size_t stride;       /* points between two of them */
    double *pos;         /* nx: 0..1 along the axis, or NULL: equal steps */
    size_t *order;       /* nx: value indices by ascending position, or NULL: 0..nx-1 */
} x_axis;

static double axis_pos(const x_axis *ax, size_t i)
{
    if (ax->pos)
        return ax->pos[i];
    return ax->nx > 1 ? (double)i / (double)(ax->nx - 1) : 0.5;
}

static size_t axis_order(const x_axis *ax, size_t k)
{
    return ax->order ? ax->order[k] : k;
}

typedef struct placed {
    double pos;
    size_t i;
} placed;

static int by_pos(const void *a, const void *b)
{
    const placed *x = a, *y = b;
    return x->pos < y->pos ? -1 : x->pos > y->pos ? 1 : x->i < y->i ? -1 : x->i > y->i;
}

/* The widest gap between neighbouring values of sorted v[0..n), as a share
 * of the range (v[n-1] > v[0]), the values mapped through log when asked. */
static double widest_gap_share(const double *v, size_t n, int log_scale)
{
    double first = log_scale ? log(v[0]) : v[0], last = log_scale ? log(v[n - 1]) : v[n - 1];
    double widest = 0;
    for (size_t k = 1; k < n; k++) {
        double a = log_scale ? log(v[k - 1]) : v[k - 1], b = log_scale ? log(v[k]) : v[k];
        if (b - a > widest)
            widest = b - a;
    }
    return widest / (last - first);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The scale for the first variable's values (the top comment's rule);
 * pos and order filled when it is not equal steps. Out of memory: equal
 * steps. */
static x_axis make_axis(const sweep_table *t)
{
    x_axis ax = { X_STEPS, t->nvars ? t->var_nvalues[0] : t->npoints, 0, NULL, NULL };
    ax.stride = t->npoints / (ax.nx ? ax.nx : 1);
    if (!t->nvars || !t->numbers || ax.nx < 2)
        return ax;
    double *v = malloc(ax.nx * sizeof *v);
    if (!v)
        return ax;
    int numeric = 1;
    for (size_t i = 0; i < ax.nx && numeric; i++) {
        v[i] = t->numbers[i * ax.stride * t->nvars];
        numeric = isfinite(v[i]);
    }
    double *sorted = numeric ? malloc(ax.nx * sizeof *sorted) : NULL;
    if (!sorted) {
        free(v);
        return ax;
    }
    memcpy(sorted, v, ax.nx * sizeof *sorted);
    qsort(sorted, ax.nx, sizeof *sorted, by_value);
    double lo = sorted[0], hi = sorted[ax.nx - 1];
    if (hi > lo) {
        ax.scale = lo > 0 && hi / lo >= 8 &&
                   widest_gap_share(sorted, ax.nx, 1) < widest_gap_share(sorted, ax.nx, 0)
                       ? X_LOG : X_LINEAR;
    }
    free(sorted);
    placed *pl = ax.scale != X_STEPS ? malloc(ax.nx * sizeof *pl) : NULL;
    ax.order = pl ? malloc(ax.nx * sizeof *ax.order) : NULL;
    if (!ax.order) {
        free(pl);
        free(v);
        ax.scale = X_STEPS;
        return ax;
    }
    for (size_t i = 0; i < ax.nx; i++) {
        v[i] = ax.scale == X_LOG ? log(v[i] / lo) / log(hi / lo) : (v[i] - lo) / (hi - lo);
        pl[i] = (placed){ v[i], i };
    }
    qsort(pl, ax.nx, sizeof *pl, by_pos);
    for (size_t k = 0; k < ax.nx; k++)
        ax.order[k] = pl[k].i;
    free(pl);
    ax.pos = v;
    return ax;
}

static void free_axis(x_axis *ax)
{
    free(ax->pos);
    free(ax->order);
}

static const char *scale_words(x_scale s)
{
    return s == X_LOG ? "log scale" : s == X_LINEAR ? "linear scale"
                                                    : "equal steps, in sweep order";
}

/* The lines of a chart: panels (one per value of the second variable) or
 * one chart, and the lines in each. */
typedef struct line_set {
    int panels;           /* small multiples */
    size_t npanels;       /* the second variable's values, or 1 */
    size_t sub;           /* lines per scheme: the combinations of the variables after the
                           * first (after the second, in panels) */
    size_t nlines;        /* lines a chart (or panel) */
} line_set;

static line_set make_lines(const sweep_table *t, const x_axis *ax)
{
    line_set ls = { 0, 1, ax->stride, ax->stride * t->nschemes };
    if (ls.nlines > MAX_HUES && t->nvars >= 2 && t->var_nvalues[1] > 1) {
        ls.panels = 1;
        ls.npanels = t->var_nvalues[1];
        ls.sub = sweep_table_stride(t, 1);
        ls.nlines = ls.sub * t->nschemes;
    }
    return ls;
}

/* Point of line `line` at the first variable's value i in panel j. */
static size_t point_of(const line_set *ls, const x_axis *ax, size_t line, size_t i, size_t j)
{
    return i * ax->stride + (ls->panels ? j * ls->sub : 0) + line % ls->sub;
}

/* The name of a line: the scheme, then the other variables' values at
 * point p (but the second's in a panel's legend, which its title gives). */
static void series_name(FILE *out, const sweep_table *t, size_t s, size_t p, int skip_second)
{
    html_put_text(out, t->schemes[s]);
    int first = 1;
    for (size_t v = 1; v < t->nvars; v++) {
        if (skip_second && v == 1)
            continue;
        fputs(first ? ", " : " ", out);
        first = 0;
        html_put_text(out, t->var_names[v]);
        fputc('=', out);
        html_put_text(out, t->values[p * t->nvars + v]);
    }
}

/* A chart's y axis: lo .. hi in ticks of step. */
typedef struct y_axis {
    double lo, hi, step;
} y_axis;

/* The round step (1, 2, 2.5, 5 x 10^k) that covers lo .. hi (hi > lo) in
 * at most 5 steps, and lo and hi widened to multiples of it. */
static y_axis round_y_axis(double lo, double hi)
{
    static const double mult[] = { 1, 2, 2.5, 5, 10 };
    double raw = (hi - lo) / 5, p = pow(10, floor(log10(raw))), step = 10 * p;
    for (size_t i = 0; i < sizeof mult / sizeof mult[0]; i++)
        if (mult[i] * p >= raw * (1 - 1e-12)) {
            step = mult[i] * p;
            break;
        }
    y_axis y = { floor(lo / step + 1e-9) * step, ceil(hi / step - 1e-9) * step, step };
    if (y.hi <= y.lo)
        y.hi = y.lo + step;
    return y;
}

/* One SVG chart of figure f: the whole figure, or panel j of it. */
static void write_svg(FILE *out, const sweep_table *t, const figure *f, const x_axis *ax,
                      const line_set *ls, size_t j, const y_axis *ya)
{
    double lo = ya->lo, hi = ya->hi;
    const frame *fr = ls->panels ? &panel_chart : &one_chart;
    double pw = fr->w - fr->l - fr->r, ph = fr->h - fr->t - fr->b;
    const char *xname = t->nvars ? t->var_names[0] : "point";
    char buf[CELL], tick[CELL];
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" ");
    if (ls->panels)
        fprintf(out, "class=\"panel\" data-panel=\"%zu\" ", j);
    fprintf(out, "viewBox=\"0 0 %d %d\" style=\"max-width:%dpx\">\n<title>", fr->w, fr->h,
            fr->w);
    html_put_text(out, f->name);
    fputs(" against ", out);
    html_put_text(out, xname);
    if (ls->panels) {
        fputs(", ", out);
        html_put_text(out, t->var_names[1]);
        fputc('=', out);
        html_put_text(out, t->values[j * ls->sub * t->nvars + 1]);
    }
    fputs("</title>\n", out);
    if (ls->panels) {
        fprintf(out, "<text class=\"pt\" x=\"%.1f\" y=\"%d\">", fr->l + pw / 2, fr->t - 12);
        html_put_text(out, t->var_names[1]);
        fputc('=', out);
        html_put_text(out, t->values[j * ls->sub * t->nvars + 1]);
        fputs("</text>\n", out);
    }
    /* axes and ticks */
    fprintf(out, "<path class=\"axis\" d=\"M%d %d V%d H%d\"/>\n", fr->l, fr->t, fr->h - fr->b,
            fr->w - fr->r);
    int nticks = (int)lround((hi - lo) / ya->step);
    for (int k = 0; k <= nticks; k++) {
        double v = lo + ya->step * k, y = fr->t + ph - ph * k / nticks;
        if (fabs(v) < ya->step * 1e-9)
            v = 0; /* not -0 or 1e-17 from the sum */
        fprintf(out, "<path class=\"grid\" d=\"M%d %.1f H%d\"/><text class=\"yt\" x=\"%d\" "
                "y=\"%.1f\">%s</text>\n", fr->l, y, fr->w - fr->r, fr->l - 6, y + 4,
                html_fmt_tick(tick, v));
    }
    double shown_end = -1e9; /* right end of the last tick label drawn */
    for (size_t k = 0; k < ax->nx; k++) {
        size_t i = axis_order(ax, k);
        double x = fr->l + pw * axis_pos(ax, i);
        const char *label = t->nvars ? t->values[i * ax->stride * t->nvars] : "0";
        double half = 3.2 * (double)strlen(label); /* about 6.4 units a character at 11px */
        if (ax->scale != X_STEPS)
            fprintf(out, "<path class=\"tick\" d=\"M%.1f %d v4\"/>", x, fr->h - fr->b);
        if (x - half < shown_end + 4) {
            if (ax->scale != X_STEPS)
                fputc('\n', out);
            continue;
        }
        shown_end = x + half;
        fprintf(out, "<text class=\"xt\" x=\"%.1f\" y=\"%d\">", x, fr->h - fr->b + 18);
        html_put_text(out, label);
        fputs("</text>\n", out);
    }
    fprintf(out, "<text class=\"xl\" x=\"%.1f\" y=\"%d\">", fr->l + pw / 2, fr->h - 8);
    html_put_text(out, xname);
    if (t->nvars)
        fprintf(out, " (%s)", scale_words(ax->scale));
    fputs("</text>\n", out);
    /* lines */
    for (size_t line = 0; line < ls->nlines; line++) {
        size_t s = line / ls->sub;
        const char *colour = colours[line % MAX_HUES];
        fprintf(out, "<g class=\"series\" data-series=\"%zu\" stroke=\"%s\" fill=\"%s\"%s>\n",
                line, colour, colour, dashes[line / MAX_HUES % 3]);
        fputs("<path fill=\"none\" d=\"", out);
        int pen = 0, started = 0;
        for (size_t k = 0; k < ax->nx; k++) {
            size_t i = axis_order(ax, k);
            double v = sweep_table_value(t, point_of(ls, ax, line, i, j), s, f);
            if (isnan(v)) {
                pen = 0;
                continue;
            }
            double x = fr->l + pw * axis_pos(ax, i);
            double y = fr->t + ph - ph * (v - lo) / (hi - lo);
            fprintf(out, "%s%.1f %.1f", pen ? " L" : (started ? " M" : "M"), x, y);
            pen = started = 1;
        }
        fputs("\"/>\n", out);
        for (size_t k = 0; k < ax->nx; k++) {
            size_t i = axis_order(ax, k), p = point_of(ls, ax, line, i, j);
            double v = sweep_table_value(t, p, s, f);
            if (isnan(v))
                continue;
            double x = fr->l + pw * axis_pos(ax, i);
            double y = fr->t + ph - ph * (v - lo) / (hi - lo);
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>", x, y);
            series_name(out, t, s, p, 0);
            fputs(" at ", out);
            html_put_text(out, xname);
            fputc('=', out);
            html_put_text(out, t->nvars ? t->values[p * t->nvars] : "0");
            fprintf(out, ": %s %s</title></circle>\n", f->name, fmt_number(buf, v));
        }
        fputs("</g>\n", out);
    }
    fputs("</svg>\n", out);
}

static void write_chart(FILE *out, const sweep_table *t, const figure *f, const x_axis *ax,
                        const line_set *ls)
{
    double lo = 0, hi = 0;
    int any = 0;
    for (size_t p = 0; p < t->npoints; p++)
        for (size_t s = 0; s < t->nschemes; s++) {
            double v = sweep_table_value(t, p, s, f);
            if (isnan(v))
                continue;
            if (!any || v > hi)
                hi = v;
            if (v < lo)
                lo = v;
            any = 1;
        }
    if (hi <= lo)
        hi = lo + 1;
    y_axis ya = round_y_axis(lo, hi);
    fprintf(out, "<figure class=\"chart%s\" data-figure=\"%s\">\n<figcaption><code>%s</code>: ",
            ls->panels ? " panels" : "", f->name, f->name);
    html_put_text(out, f->meaning);
    if (f->unit[0] && strcmp(f->unit, "count"))
        fprintf(out, " (%s)", f->unit);
    if (ls->panels) {
        fputs("; a chart per value of <code>", out);
        html_put_text(out, t->var_names[1]);
        fputs("</code>, on the same scale", out);
    }
    fputs("</figcaption>\n", out);
    for (size_t j = 0; j < ls->npanels; j++)
        write_svg(out, t, f, ax, ls, j, &ya);
    fputs("<ul class=\"legend\">", out);
    for (size_t line = 0; line < ls->nlines; line++) {
        fprintf(out, "<li><span style=\"color:%s\">%s</span> ", colours[line % MAX_HUES],
                legend_marks[line / MAX_HUES % 3]);
        series_name(out, t, line / ls->sub, point_of(ls, ax, line, 0, 0), ls->panels);
        fputs("</li>", out);
    }
    fputs("</ul>\n</figure>\n", out);
}

static const char css[] =
    "body{font-family:sans-serif;margin:1em 2em;color:#222}"
    "figure.chart{display:inline-block;width:640px;max-width:100%;margin:0 1em 1.5em 0;"
    "vertical-align:top}"
    "figcaption{max-width:640px;font-size:90%}"
    "svg{width:100%;height:auto}"
    ".axis{stroke:#444;fill:none}.grid{stroke:#ddd}"
    ".yt{font-size:11px;text-anchor:end}.xt{font-size:11px;text-anchor:middle}"
    ".xl{font-size:12px;text-anchor:middle}.pt{font-size:13px;text-anchor:middle}"
    ".tick{stroke:#444}"
    "figure.panels{display:block;width:auto}svg.panel{width:420px;max-width:100%;"
    "display:inline-block;margin-right:0.5em}"
    ".series path{stroke-width:2}"
    "ul.legend{list-style:none;padding:0;font-size:90%}ul.legend li{display:inline;margin-right:1em}"
    "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right;white-space:nowrap}"
    ".wide{overflow-x:auto}"
    "th{border-bottom:1px solid #444}";

void sweep_write_html(FILE *out, const sweep_table *t)
{
    const figure *shown[32];
    size_t nshown = sweep_shown_figures(t, shown);
    char buf[CELL];
    fputs("<!DOCTYPE html>\n"
          "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
          "<meta charset=\"utf-8\"/>\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
          "<title>regionsim sweep: ", out);
    html_put_text(out, t->scenario);
    fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>Sweep: ", css);
    html_put_text(out, t->scenario);
    fputs("</h1>\n<p>", out);
    fprintf(out, "%zu point%s x %zu scheme%s; variables:", t->npoints, t->npoints == 1 ? "" : "s",
            t->nschemes, t->nschemes == 1 ? "" : "s");
    for (size_t v = 0; v < t->nvars; v++) {
        fputs(v ? "; " : " ", out);
        fputs("<code>", out);
        html_put_text(out, t->var_names[v]);
        fputs("</code>", out);
    }
    if (t->measure_auto)
        fputs(". Figures count the measured run, from the end of each run's warm-up "
              "(measure_from = auto)", out);
    else if (t->measure_from_us)
        fprintf(out, ". Figures count the measured run, from %s on (measure_from)",
                fmt_duration(buf, t->measure_from_us));
    x_axis ax = make_axis(t);
    line_set ls = make_lines(t, &ax);
    if (t->nvars) {
        fputs(". The x axis is <code>", out);
        html_put_text(out, t->var_names[0]);
        fprintf(out, "</code>, %s", ax.scale == X_LOG      ? "on a log scale"
                                    : ax.scale == X_LINEAR ? "on a linear scale"
                                                           : "its values at equal steps in sweep order");
    }
    if (ls.panels) {
        fputs("; a chart per value of <code>", out);
        html_put_text(out, t->var_names[1]);
        fputs("</code>", out);
    }
    fputs(".</p>\n", out);
    for (size_t k = 0; k < nshown; k++)
        write_chart(out, t, shown[k], &ax, &ls);
    free_axis(&ax);
    fputs("<div class=\"wide\"><table>\n<tr>", out);
    for (size_t v = 0; v < t->nvars; v++) {
        fputs("<th>", out);
        html_put_text(out, t->var_names[v]);
        fputs("</th>", out);
    }
    fputs("<th>scheme</th>", out);
    for (size_t k = 0; k < nshown; k++)
        fprintf(out, "<th>%s</th>", shown[k]->name);
    fputs("</tr>\n", out);
    for (size_t p = 0; p < t->npoints; p++)
        for (size_t s = 0; s < t->nschemes; s++) {
            fputs("<tr>", out);
            for (size_t v = 0; v < t->nvars; v++) {
                fputs("<td>", out);
                html_put_text(out, t->values[p * t->nvars + v]);
                fputs("</td>", out);
            }
            fputs("<td>", out);
            html_put_text(out, t->run_names[p * t->nschemes + s]);
            fputs("</td>", out);
            for (size_t k = 0; k < nshown; k++)
                fprintf(out, "<td>%s</td>",
                        fmt_figure(buf, shown[k], sweep_table_value(t, p, s, shown[k])));
            fputs("</tr>\n", out);
        }
    fputs("</table></div>\n</body>\n</html>\n", out);
}
