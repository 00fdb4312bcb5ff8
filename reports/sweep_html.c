/* sweep_html.c -- a sweep's HTML page: a line chart per figure against
 * the swept variable.
 *
 * Design: one XHTML page as reports/html.c writes them (well-formed XML,
 * inline CSS and SVG, nothing fetched, no script): a header naming the
 * scenario and the variables, then one <figure> per shown figure
 * (sweep_shown_figures: the same figures as the text table), each an
 * inline SVG line chart, then the text table's rows as an HTML table.
 *
 * A chart's x axis is the FIRST variable; its values are placed at equal
 * steps in sweep order (not to scale: a list such as 4, 8, 16, 20, 32, 64
 * is often chosen by hand, and equal steps keep every point readable;
 * the tick labels give the values). One line per scheme, and, with more
 * variables, per scheme and combination of the other variables' values
 * ("salted, servers=16"): every line is one series of the first
 * variable's values with everything else fixed. The y axis runs from 0
 * (or the smallest value, if negative) to the largest value over every
 * line, with 5 ticks. Each point is a circle with a <title> tooltip
 * holding its exact value, the point and the scheme; an undefined value
 * breaks its line. Colours: a fixed list of 8 distinguishable hues
 * (Tableau 10's), repeated with a dash pattern past 8 lines. The chart
 * carries data-figure, and each line data-series, for scripts and tests.
 */
#include "reports/sweep_report.h"

#include <math.h>
#include <string.h>

#include "reports/format.h"
#include "reports/html_impl.h"

#define CHART_W 640
#define CHART_H 300
#define PLOT_L 70
#define PLOT_R 20
#define PLOT_T 20
#define PLOT_B 50

static const char *const colours[] = { "#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                       "#59a14f", "#edc948", "#b07aa1", "#9c755f" };

/* Points per line: the first variable's values. */
static size_t first_var_len(const sweep_table *t)
{
    return t->nvars ? t->var_nvalues[0] : t->npoints;
}

/* The name of a line: the scheme, then the other variables' values. */
static void series_name(FILE *out, const sweep_table *t, size_t s, size_t rest)
{
    html_put_text(out, t->schemes[s]);
    for (size_t v = 1; v < t->nvars; v++) {
        fputs(v == 1 ? ", " : " ", out);
        html_put_text(out, t->var_names[v]);
        fputc('=', out);
        html_put_text(out, t->values[rest * t->nvars + v]);
    }
}

static void write_chart(FILE *out, const sweep_table *t, const figure *f)
{
    size_t nx = first_var_len(t), stride = t->npoints / nx, nlines = stride * t->nschemes;
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
    double pw = CHART_W - PLOT_L - PLOT_R, ph = CHART_H - PLOT_T - PLOT_B;
    char buf[CELL], tick[CELL];
    fprintf(out, "<figure class=\"chart\" data-figure=\"%s\">\n<figcaption><code>%s</code>: ",
            f->name, f->name);
    html_put_text(out, f->meaning);
    if (f->unit[0] && strcmp(f->unit, "count"))
        fprintf(out, " (%s)", f->unit);
    fputs("</figcaption>\n", out);
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
            "style=\"max-width:%dpx\">\n<title>", CHART_W, CHART_H, CHART_W);
    html_put_text(out, f->name);
    fputs(" against ", out);
    html_put_text(out, t->nvars ? t->var_names[0] : "point");
    fputs("</title>\n", out);
    /* axes and ticks */
    fprintf(out, "<path class=\"axis\" d=\"M%d %d V%d H%d\"/>\n", PLOT_L, PLOT_T,
            CHART_H - PLOT_B, CHART_W - PLOT_R);
    for (int k = 0; k <= 4; k++) {
        double v = lo + (hi - lo) * k / 4, y = PLOT_T + ph - ph * k / 4;
        fprintf(out, "<path class=\"grid\" d=\"M%d %.1f H%d\"/><text class=\"yt\" x=\"%d\" "
                "y=\"%.1f\">%s</text>\n", PLOT_L, y, CHART_W - PLOT_R, PLOT_L - 6, y + 4,
                html_fmt_tick(tick, v));
    }
    for (size_t i = 0; i < nx; i++) {
        double x = PLOT_L + (nx > 1 ? pw * (double)i / (double)(nx - 1) : pw / 2);
        fprintf(out, "<text class=\"xt\" x=\"%.1f\" y=\"%d\">", x, CHART_H - PLOT_B + 18);
        html_put_text(out, t->nvars ? t->values[i * stride * t->nvars] : "0");
        fputs("</text>\n", out);
    }
    fprintf(out, "<text class=\"xl\" x=\"%.1f\" y=\"%d\">", PLOT_L + pw / 2, CHART_H - 8);
    html_put_text(out, t->nvars ? t->var_names[0] : "point");
    fputs("</text>\n", out);
    /* lines */
    for (size_t line = 0; line < nlines; line++) {
        size_t s = line / stride, rest = line % stride;
        const char *colour = colours[line % 8];
        fprintf(out, "<g class=\"series\" data-series=\"%zu\" stroke=\"%s\" fill=\"%s\"%s>\n", line,
                colour, colour, line >= 8 ? " stroke-dasharray=\"6 3\"" : "");
        fputs("<path fill=\"none\" d=\"", out);
        int pen = 0;
        for (size_t i = 0; i < nx; i++) {
            double v = sweep_table_value(t, i * stride + rest, s, f);
            if (isnan(v)) {
                pen = 0;
                continue;
            }
            double x = PLOT_L + (nx > 1 ? pw * (double)i / (double)(nx - 1) : pw / 2);
            double y = PLOT_T + ph - ph * (v - lo) / (hi - lo);
            fprintf(out, "%s%.1f %.1f", pen ? " L" : (i ? " M" : "M"), x, y);
            pen = 1;
        }
        fputs("\"/>\n", out);
        for (size_t i = 0; i < nx; i++) {
            size_t p = i * stride + rest;
            double v = sweep_table_value(t, p, s, f);
            if (isnan(v))
                continue;
            double x = PLOT_L + (nx > 1 ? pw * (double)i / (double)(nx - 1) : pw / 2);
            double y = PLOT_T + ph - ph * (v - lo) / (hi - lo);
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>", x, y);
            series_name(out, t, s, rest);
            fputs(" at ", out);
            html_put_text(out, t->nvars ? t->var_names[0] : "point");
            fputc('=', out);
            html_put_text(out, t->nvars ? t->values[p * t->nvars] : "0");
            fprintf(out, ": %s %s</title></circle>\n", f->name, fmt_number(buf, v));
        }
        fputs("</g>\n", out);
    }
    fputs("</svg>\n<ul class=\"legend\">", out);
    for (size_t line = 0; line < nlines; line++) {
        fprintf(out, "<li><span style=\"color:%s\">%s</span> ", colours[line % 8],
                line >= 8 ? "- -" : "&#x2014;");
        series_name(out, t, line / stride, line % stride);
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
    ".xl{font-size:12px;text-anchor:middle}"
    ".series path{stroke-width:2}"
    "ul.legend{list-style:none;padding:0;font-size:90%}ul.legend li{display:inline;margin-right:1em}"
    "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right}"
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
    if (t->measure_from_us)
        fprintf(out, ". Figures count the measured run, from %s on (measure_from)",
                fmt_duration(buf, t->measure_from_us));
    fputs(". Points are at equal steps along the x axis, in sweep order.</p>\n", out);
    for (size_t k = 0; k < nshown; k++)
        write_chart(out, t, shown[k]);
    fputs("<table>\n<tr>", out);
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
    fputs("</table>\n</body>\n</html>\n", out);
}
