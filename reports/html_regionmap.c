/* html_regionmap.c -- the HTML report's region map and its player
 * (reports/html.c's top comment gives the page's design).
 *
 * The region map draws key space (y, on the key space heatmap's axis: the
 * same buckets at the same heights, so the two line up) against time (x,
 * the heatmaps' time axis): every region is a band over the keys it held,
 * for as long as it stayed on one server, filled with that server's
 * colour (reports/regionbands.h computes the bands). A split shows as a
 * band dividing in two at the split key (a thin white line between the
 * daughters); a move as a band changing colour; a server that fills up
 * with regions as its colour spreading. Each band's <title> names its
 * region(s), keys, server and times.
 *
 * Colours: a categorical palette of PALETTE colours (Tableau's 20: ten
 * strong, then ten light; but its two greys, #7f7f7f and #c7c7c7, are
 * replaced by category20b's dark indigo and dark olive, because on this
 * page grey means "nothing" (the heatmaps' empty cells, ZERO_COLOUR): a
 * grey server would read as no server), server id modulo PALETTE; the
 * legend names the servers up to LEGEND_MAX and says when colours repeat.
 * No colour is achromatic (tests/test_html.c checks each one's channels).
 *
 * Size: bands are coarsened to a half-pixel grid (regionbands_coarsen),
 * then halved until at most BANDS_MAX remain, so a map costs at most
 * ~60 bytes x BANDS_MAX (~200 KB) whatever the run; tooltips only when
 * at most BAND_TITLES_MAX bands are drawn.
 *
 * The player: under the map, per-server bars (writes per server in one
 * window: the server heatmap's rows, so past 32 servers a bar is a bin of
 * servers at its busiest server's count) and controls (a play/pause button
 * and a time slider) that move a cursor over the map, window by window (or
 * heatmap column by column, when windows are grouped). The data ride in
 * the player's data-* attributes; one inline script at the end of the page
 * (html_write_player_script, nothing fetched) drives every player. Without
 * script the controls stay hidden, no cursor shows and the bars show the
 * whole run's mean per window: the page still reads.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/format.h"
#include "reports/html_impl.h"
#include "reports/regionbands.h"
#include "reports/servers.h"

#define PALETTE 20
#define LEGEND_MAX 32         /* servers named in the legend */
#define BANDS_MAX 3000        /* bands a map draws, at most */
#define BAND_TITLES_MAX 800   /* bands with tooltips, at most */
#define BAR_H 20              /* a bar's row */
#define BAR_W (PLOT_W - 72)   /* the longest bar; its count goes after it */
#define PLAY_MS 500
#define EDGE_MIN 3            /* bands this many units wide and high get a white edge */
#define MARKS_MAX 3000        /* split marks a map draws, at most */
#define MARK_W 5              /* a split mark's length */           /* a step of the player */

static const char *const COLOURS[PALETTE] = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
    "#393b79", "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896",
    "#c5b0d5", "#c49c94", "#f7b6d2", "#637939", "#dbdb8d", "#9edae5",
};

void html_write_regionmap_css(FILE *out)
{
    for (int k = 0; k < PALETTE; k++)
        fprintf(out, ".sv%d{fill:%s;background:%s}", k, COLOURS[k], COLOURS[k]);
    fputs("\n.bands .e{stroke:#fff;stroke-width:0.75}.splits{stroke:#000;stroke-width:1.2;"
          "fill:none}.cursor{fill:#000;fill-opacity:0.12;"
          "stroke:#000;stroke-width:2;display:none}\n"
          ".servers{font-size:16px;display:flex;flex-wrap:wrap;gap:2px 14px;margin:2px 0}"
          ".sw{display:inline-block;width:14px;height:14px;margin-right:4px;"
          "vertical-align:-1px;border:1px solid #555}\n"
          ".controls{margin:6px 0;font-size:17px}.controls input{vertical-align:middle;"
          "width:55%}.controls button{font:inherit;min-width:5em;margin-right:8px}\n"
          ".bars .bin{fill:#555}.bars .val{text-anchor:end}\n", out);
}

/* The key plot's height: the key heatmap's, so the two line up. */
static double plot_height(uint32_t nbuckets)
{
    double row_h = nbuckets * ROW_H <= ROWS_H_MAX ? ROW_H : (double)ROWS_H_MAX / nbuckets;
    return row_h * nbuckets;
}

static double key_y(double pos, double axis, double plot_h)
{
    return PLOT_TOP + plot_h * (1 - pos / axis);
}

/* A band's tooltip: server, keys, times, regions. */
static void write_band_title(FILE *out, const run_result *run, const time_axis *ax,
                             const region_band *b)
{
    char a[CELL], t0[CELL], t1[CELL];
    const region_result *first = &run->history[b->first], *last = &run->history[b->last];
    fprintf(out, "<title>rs%" PRIu32 ": ", b->server);
    if (b->regions == 1)
        fprintf(out, "region %" PRIu32 ", ", b->first);
    else
        fprintf(out, "%" PRIu32 " regions, ", b->regions);
    fputs("keys [", out);
    html_put_text(out, html_key_label(a, first->start, 0, "-inf", KEY_TABLE_COLS));
    fputs(", ", out);
    html_put_text(out, html_key_label(a, last->end, 0, "+inf", KEY_TABLE_COLS));
    fprintf(out, "), %s to %s</title>", html_fmt_time(t0, ax, b->t0_us),
            html_fmt_time(t1, ax, b->t1_us));
}

static void write_bands(FILE *out, const run_result *run, const region_bands *rb,
                        const time_axis *ax, double plot_h)
{
    int titles = rb->n <= BAND_TITLES_MAX;
    fputs("<g class=\"bands\">", out);
    for (size_t i = 0; i < rb->n; i++) {
        const region_band *b = &rb->band[i];
        if (i == 0 || b->server != rb->band[i - 1].server)
            fprintf(out, "%s<g class=\"sv%d\">\n", i ? "</g>\n" : "", (int)(b->server % PALETTE));
        double x0 = html_time_x(ax, b->t0_us), x1 = html_time_x(ax, b->t1_us);
        double y0 = key_y(b->key_hi, rb->axis, plot_h), y1 = key_y(b->key_lo, rb->axis, plot_h);
        fprintf(out, "<rect %sx=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"",
                x1 - x0 >= EDGE_MIN && y1 - y0 >= EDGE_MIN ? "class=\"e\" " : "", x0, y0,
                x1 - x0, y1 - y0);
        if (titles) {
            fputc('>', out);
            write_band_title(out, run, ax, b);
            fputs("</rect>", out);
        } else {
            fputs("/>", out);
        }
    }
    fputs(rb->n ? "</g>\n</g>\n" : "</g>\n", out);
}

static int mark_cmp(const void *pa, const void *pb)
{
    const long *a = pa, *b = pb;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

/* The splits: a short black dash at the split key from the split time,
 * one per pixel (thousands of splits fall on a few hundred), at most
 * MARKS_MAX (the earliest, when more: the note says so). */
static void write_split_marks(FILE *out, const region_bands *rb, const time_axis *ax,
                              double plot_h)
{
    if (rb->nsplits == 0) return;
    long *px = malloc(rb->nsplits * 2 * sizeof *px);
    if (!px) report_out_of_memory();
    for (size_t i = 0; i < rb->nsplits; i++) {
        px[2 * i] = lround(html_time_x(ax, rb->split[i].t_us));
        px[2 * i + 1] = lround(key_y(rb->split[i].key, rb->axis, plot_h));
    }
    qsort(px, rb->nsplits, 2 * sizeof *px, mark_cmp);
    fputs("<path class=\"splits\" d=\"", out);
    size_t drawn = 0;
    for (size_t i = 0; i < rb->nsplits && drawn < MARKS_MAX; i++) {
        if (i && px[2 * i] == px[2 * i - 2] && px[2 * i + 1] == px[2 * i - 1]) continue;
        long w = PLOT_X + PLOT_W - px[2 * i];
        fprintf(out, "M%ld %ldh%ld", px[2 * i], px[2 * i + 1], w < MARK_W ? w : MARK_W);
        drawn++;
    }
    fputs("\"/>\n", out);
    free(px);
}

/* Bucket labels on the y axis, as the key heatmap has them. */
static void write_key_labels(FILE *out, const run_result *run, double plot_h)
{
    const keyspace_heatmap *ks = &run->keyspace;
    double row_h = plot_h / ks->nbuckets;
    size_t skip = html_shared_prefix((const char *const *)ks->bucket_start, ks->nbuckets,
                                     KEY_LABEL_COLS);
    uint32_t step = (uint32_t)ceil(LABEL_GAP / row_h);
    char a[CELL];
    fputs("<g class=\"yl key\">", out);
    for (uint32_t row = 0; row < ks->nbuckets; row += step) {
        fprintf(out, "<text x=\"%d\" y=\"%.1f\">", PLOT_X - 8,
                PLOT_TOP + plot_h - (row + 0.5) * row_h + 5);
        html_put_text(out, html_key_label(a, ks->bucket_start[row], skip, "-inf", KEY_LABEL_COLS));
        fputs("</text>", out);
    }
    fprintf(out, "</g>\n<text class=\"title\" transform=\"translate(16 %.1f) rotate(-90)\" "
            "text-anchor=\"middle\">key (bucket start)</text>\n", PLOT_TOP + plot_h / 2);
}

/* The servers and their colours. */
static void write_legend(FILE *out, const run_result *run)
{
    fputs("<div class=\"servers\">", out);
    uint32_t n = run->nservers < LEGEND_MAX ? run->nservers : LEGEND_MAX;
    for (uint32_t s = 0; s < n; s++) {
        fprintf(out, "<span><span class=\"sw sv%d\"></span>", (int)(s % PALETTE));
        html_put_text(out, run->servers[s].name);
        fputs("</span>", out);
    }
    fputs("</div>\n", out);
    if (run->nservers > PALETTE)
        fprintf(out, "<p class=\"note\">%" PRIu32 " servers, %d colours: rs<i>n</i> has the "
                "colour of rs<i>n</i> mod %d%s.</p>\n",
                run->nservers, PALETTE, PALETTE,
                run->nservers > LEGEND_MAX ? "; the legend names the first ones" : "");
}

/* ---- the player ---- */

/* Column c's windows [*w0, *w1) with `per` windows a column. */
static void column_windows(const run_result *run, uint32_t per, uint32_t c, uint32_t *w0,
                           uint32_t *w1)
{
    *w0 = c * per;
    *w1 = (c + 1) * per < run->nwindows ? (c + 1) * per : run->nwindows;
}

/* Row r's mean per window over windows [w0, w1). */
static double mean_of(const server_bins *sb, uint32_t r, uint32_t w0, uint32_t w1)
{
    if (!sb->cells || w1 <= w0) return 0;
    uint64_t sum = 0;
    for (uint32_t w = w0; w < w1; w++) sum += sb->cells[(size_t)w * sb->nrows + r];
    return (double)sum / (w1 - w0);
}

/* The player's data: data-v (a column's rows' values, columns by ';'),
 * data-x (a column's left and right x on the map), data-t (its times),
 * data-max (the bars' scale) and data-bw (the longest bar). */
static double write_player_data(FILE *out, const run_result *run, const server_bins *sb,
                                const time_axis *ax)
{
    uint32_t per = html_windows_per_column(run);
    uint32_t ncols = (run->nwindows + per - 1) / per;
    double max = 0;
    for (uint32_t c = 0; c < ncols; c++) {
        uint32_t w0, w1;
        column_windows(run, per, c, &w0, &w1);
        for (uint32_t r = 0; r < sb->nrows; r++) {
            double v = mean_of(sb, r, w0, w1);
            if (v > max) max = v;
        }
    }
    fputs(" data-v=\"", out);
    for (uint32_t c = 0; c < ncols; c++) {
        uint32_t w0, w1;
        column_windows(run, per, c, &w0, &w1);
        for (uint32_t r = 0; r < sb->nrows; r++)
            fprintf(out, "%s%.*f", r ? "," : c ? ";" : "", per > 1 ? 1 : 0,
                    mean_of(sb, r, w0, w1));
    }
    fputs("\" data-x=\"", out);
    for (uint32_t c = 0; c < ncols; c++) {
        uint32_t w0, w1;
        column_windows(run, per, c, &w0, &w1);
        fprintf(out, "%s%.1f,%.1f", c ? ";" : "", html_time_x(ax, w0 * run->window_us),
                html_time_x(ax, w1 * run->window_us));
    }
    fputs("\" data-t=\"", out);
    for (uint32_t c = 0; c < ncols; c++) {
        uint32_t w0, w1;
        char a[CELL], b[CELL];
        column_windows(run, per, c, &w0, &w1);
        fprintf(out, "%s%s%" PRIu32 " of %" PRIu32 ": %s to %s", c ? ";" : "",
                per > 1 ? "windows " : "window ", c + 1, ncols,
                html_fmt_time(a, ax, w0 * run->window_us),
                html_fmt_time(b, ax, w1 * run->window_us));
        if (per > 1) fputs(" (mean per window)", out);
    }
    fprintf(out, "\" data-max=\"%.1f\" data-bw=\"%d\"", max, BAR_W);
    return max;
}

/* The bars, drawn for the whole run's mean per window (the page without
 * script); the script redraws them for the window it shows. */
static void write_bars(FILE *out, const run_result *run, const server_bins *sb, double max)
{
    double h = sb->nrows * BAR_H + 8;
    fprintf(out, "<svg class=\"bars\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d "
            "%.0f\">\n<title>writes per server</title>\n", SVG_W, h);
    for (uint32_t r = 0; r < sb->nrows; r++) {
        double v = mean_of(sb, r, 0, run->nwindows);
        double y = 4 + r * BAR_H;
        fprintf(out, "<text class=\"yl\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", PLOT_X - 8,
                y + 14);
        html_put_text(out, sb->labels[r]);
        if (sb->per_row > 1) fputs("</text><rect class=\"bar bin\"", out);
        else fprintf(out, "</text><rect class=\"bar sv%d\"", (int)(r % PALETTE));
        fprintf(out, " x=\"%d\" y=\"%.1f\" width=\"%.1f\" "
                "height=\"%d\"/><text class=\"val\" x=\"%d\" y=\"%.1f\">%.0f</text>\n",
                PLOT_X, y, max > 0 ? v / max * BAR_W : 0.0, BAR_H - 5, PLOT_X + PLOT_W, y + 14,
                v);
    }
    fputs("</svg>\n", out);
}

void html_write_region_map(const page *pg, const run_result *run)
{
    FILE *out = pg->out;
    fputs("<h3>Regions over time: key range x time, coloured by server</h3>\n", out);
    region_bands rb = regionbands_of(run);
    if (rb.n == 0) {
        fputs("<p class=\"note\">No region log or no rows stored: no region map.</p>\n", out);
        regionbands_free(&rb);
        return;
    }
    time_axis ax = html_time_axis_of(run);
    double plot_h = plot_height(run->keyspace.nbuckets);
    size_t fine = rb.n;
    regionbands_coarsen(&rb, 2 * (uint32_t)ceil(plot_h), ax.span_us, 2 * PLOT_W, BANDS_MAX);
    server_bins sb = server_bins_run(run, 0);

    fputs("<div class=\"player\"", out);
    double max = write_player_data(out, run, &sb, &ax);
    fputs(">\n", out);
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %.0f\">\n"
            "<title>regions: key range (rows) against time (columns), coloured by server"
            "</title>\n", SVG_W, PLOT_TOP + plot_h + AXIS_H);
    write_bands(out, run, &rb, &ax, plot_h);
    write_split_marks(out, &rb, &ax, plot_h);
    fprintf(out, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%.1f\"/>\n",
            PLOT_X, PLOT_TOP, PLOT_W, plot_h);
    fprintf(out, "<rect class=\"cursor\" x=\"%d\" y=\"%d\" width=\"0\" height=\"%.1f\"/>\n",
            PLOT_X, PLOT_TOP, plot_h);
    write_key_labels(out, run, plot_h);
    html_write_time_ticks(out, &ax, PLOT_TOP + plot_h);
    fputs("</svg>\n", out);
    write_legend(out, run);
    fprintf(out, "<p class=\"note\">A band is a region on one server: a band dividing is a "
            "split (a black dash marks the split key from the split time), a band changing "
            "colour a move to another server. Keys on the key heatmap's axis (%" PRIu32
            " buckets of about equal rows at the end).", run->keyspace.nbuckets);
    if (rb.n < fine)
        fprintf(out, " Bands smaller than the drawing's grid (half a pixel) merge into their "
                "neighbours%s.", rb.n <= BAND_TITLES_MAX ? "; a tooltip counts a band's regions"
                : "");
    if (rb.n > BAND_TITLES_MAX)
        fprintf(out, " %zu bands: too many for tooltips (the JSON report lists every region).",
                rb.n);
    fputs("</p>\n", out);

    fputs("<div class=\"controls\" hidden=\"hidden\"><button type=\"button\">Play</button>"
          "<input type=\"range\" min=\"0\" max=\"0\" value=\"0\" step=\"1\" "
          "aria-label=\"window\"/></div>\n", out);
    fprintf(out, "<p class=\"note\">Writes per %s: <span class=\"when\">mean per window over "
            "the whole run</span>.</p>\n", sb.per_row > 1 ? "bin of servers (its busiest)" :
            "server");
    write_bars(out, run, &sb, max);
    fputs("</div>\n", out);
    server_bins_free(&sb);
    regionbands_free(&rb);
}

void html_write_player_script(FILE *out)
{
    fprintf(out, "<script>//<![CDATA[\n"
          "(function(){\n"
          "function num(s){return s.split(',').map(Number);}\n"
          "function setup(p){\n"
          " var v=p.getAttribute('data-v').split(';').map(num),"
          "x=p.getAttribute('data-x').split(';').map(num),"
          "t=p.getAttribute('data-t').split(';'),max=Number(p.getAttribute('data-max')),"
          "bw=Number(p.getAttribute('data-bw'));\n"
          " var bars=p.querySelectorAll('.bar'),vals=p.querySelectorAll('.val'),"
          "cur=p.querySelector('.cursor'),when=p.querySelector('.when'),"
          "ctl=p.querySelector('.controls'),range=ctl.querySelector('input'),"
          "btn=ctl.querySelector('button'),timer=null;\n"
          " function show(c){range.value=c;cur.setAttribute('x',x[c][0]);"
          "cur.setAttribute('width',Math.max(1,x[c][1]-x[c][0]));cur.style.display='inline';\n"
          "  for(var r=0;r<bars.length;r++){var w=v[c][r]||0;"
          "bars[r].setAttribute('width',max>0?w/max*bw:0);vals[r].textContent=w;}\n"
          "  when.textContent=t[c];}\n"
          " function stop(){clearInterval(timer);timer=null;btn.textContent='Play';}\n"
          " btn.onclick=function(){if(timer){stop();return;}\n"
          "  if(Number(range.value)>=v.length-1)show(0);btn.textContent='Pause';\n"
          "  timer=setInterval(function(){var c=Number(range.value)+1;"
          "if(c>=v.length){stop();return;}show(c);},%d);};\n"
          " range.oninput=function(){show(Number(range.value));};\n"
          " range.max=v.length-1;ctl.hidden=false;show(0);}\n"
          "var ps=document.querySelectorAll('.player');\n"
          "for(var i=0;i<ps.length;i++)setup(ps[i]);\n"
          "})();\n//]]></script>\n", PLAY_MS);
}
