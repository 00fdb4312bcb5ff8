/* textmap.c -- heatmaps and timelines in shade characters. See textmap.h.
 *
 * Design: a cell's shade is its share of the scale's top in quarters:
 * blank for nothing, then light, medium, dark shade and a full block
 * (U+2591..U+2593, U+2588), so a hotspot that moves shows as a dark trail.
 * Quarters are coarse on purpose: four levels read at a glance on a
 * projector, and the exact counts are in the JSON and CSV reports.
 * Colour codes are emitted only when the shade changes along a row and are
 * reset at its end, so a row costs a few escapes, not one per cell.
 */
#include "reports/textmap.h"

#include <assert.h>
#include <inttypes.h>
#include <string.h>

#include "reports/stats.h"
#include "reports/format.h"

static const char *const shade_glyph[5] = { " ", "\xE2\x96\x91", "\xE2\x96\x92",
                                            "\xE2\x96\x93", "\xE2\x96\x88" };
/* ANSI 256-colour foregrounds for shades 1..4: light yellow to red. */
static const int shade_color[5] = { 0, 229, 220, 208, 196 };

#define RESET "\x1b[0m"

/* 0 for nothing, else 1..4 by the quarter of max that v reaches. */
static int shade_of(uint64_t v, uint64_t max)
{
    if (v == 0 || max == 0)
        return 0;
    double f = (double)v / (double)max;
    return f > 0.75 ? 4 : f > 0.5 ? 3 : f > 0.25 ? 2 : 1;
}

uint32_t textmap_per_column(uint32_t nwindows, uint32_t max_cols)
{
    assert(max_cols > 0);
    return nwindows <= max_cols ? 1 : (nwindows + max_cols - 1) / max_cols;
}

static uint32_t columns(const text_heatmap *h, uint32_t per)
{
    return (h->nwindows + per - 1) / per;
}

/* Item i's count over column g (windows g*per .. g*per+per-1). */
static uint64_t column_cell(const text_heatmap *h, uint32_t i, uint32_t g, uint32_t per)
{
    uint64_t n = 0;
    for (uint32_t w = g * per; w < (g + 1) * per && w < h->nwindows; w++)
        n += h->cells[(size_t)w * h->nitems + i];
    return n;
}

uint64_t textmap_max(const text_heatmap *h, uint32_t per)
{
    uint64_t max = 0;
    for (uint32_t i = 0; h->cells && i < h->nitems; i++)
        for (uint32_t g = 0; g < columns(h, per); g++) {
            uint64_t v = column_cell(h, i, g, per);
            if (v > max)
                max = v;
        }
    return max;
}

/* Row r of the drawing: item r from the top, or from the bottom. */
static uint32_t item_of_row(const text_heatmap *h, uint32_t r)
{
    return h->keys_up ? h->nitems - 1 - r : r;
}

/* The cells of one item: exactly `cols` columns wide. */
static void write_cells(FILE *out, const text_heatmap *h, uint32_t item, uint32_t per,
                        uint32_t cols, uint64_t max, int color)
{
    int current = 0;
    for (uint32_t g = 0; g < cols; g++) {
        int shade = g < columns(h, per) ? shade_of(column_cell(h, item, g, per), max) : 0;
        if (color && shade != current && shade)
            fprintf(out, "\x1b[38;5;%dm", shade_color[shade]);
        if (color && shade)
            current = shade;
        fputs(shade_glyph[shade], out);
    }
    if (color && current)
        fputs(RESET, out);
}

/* One row: label, frame, cells. */
static void write_row(FILE *out, const text_heatmap *h, uint32_t r, const char *indent,
                      int label_cols, uint32_t per, uint32_t cols, uint64_t max, int color)
{
    char label[CELL];
    uint32_t item = item_of_row(h, r);
    const char *text = h->labels[item];
    if ((int)strlen(text) > label_cols && label_cols >= 4)
        text = fmt_cut(label, text, (size_t)label_cols);
    fprintf(out, "%s%-*s |", indent, label_cols, text);
    write_cells(out, h, item, per, cols, max, color);
    fputc('|', out);
}

/* "0" under the first column and the end of time under the last. */
static void write_axis(FILE *out, const char *indent, int label_cols, uint32_t cols,
                       uint64_t end_us)
{
    char end[CELL];
    fmt_duration(end, end_us);
    int room = (int)cols + 1 - (int)strlen(end); /* columns between "0" and end */
    if (room < 1)
        room = 1;
    fprintf(out, "%s%*s  0%*s\n", indent, label_cols, "", room + (int)strlen(end), end);
}

void textmap_write_measure_mark(FILE *out, const char *indent, int label_cols, uint32_t max_cols,
                                uint32_t nwindows, uint64_t window_us, uint64_t t_us)
{
    if (t_us == 0 || nwindows == 0 || window_us == 0)
        return;
    uint32_t per = textmap_per_column(nwindows, max_cols);
    uint64_t col = t_us / ((uint64_t)per * window_us);
    char at[CELL];
    fprintf(out, "%s%*s  %*s^ measured from %s (left of it: warm-up, in no figure)\n", indent,
            label_cols, "", (int)col, "", fmt_duration(at, t_us));
}

void textmap_write(FILE *out, const text_heatmap *h, const char *indent, int label_cols,
                   uint32_t max_cols, uint64_t max, int color)
{
    if (!h->cells || h->nitems == 0 || h->nwindows == 0)
        return;
    uint32_t per = textmap_per_column(h->nwindows, max_cols);
    uint32_t cols = columns(h, per);
    if (max == 0)
        max = textmap_max(h, per);
    for (uint32_t r = 0; r < h->nitems; r++) {
        write_row(out, h, r, indent, label_cols, per, cols, max, color);
        fputc('\n', out);
    }
    write_axis(out, indent, label_cols, cols, (uint64_t)h->nwindows * h->window_us);
}

void textmap_write_scale(FILE *out, const char *indent, uint64_t max, const char *what,
                         int color)
{
    fprintf(out, "%sscale: blank = 0", indent);
    for (int s = 1; s <= 4; s++) {
        uint64_t top = (uint64_t)((double)max * s / 4.0 + 0.5);
        if (color)
            fprintf(out, "  \x1b[38;5;%dm%s" RESET, shade_color[s], shade_glyph[s]);
        else
            fprintf(out, "  %s", shade_glyph[s]);
        fprintf(out, " <= %" PRIu64, top);
    }
    fprintf(out, " %s\n", what);
}

#define PANEL_MIN_COLS 18 /* room for a title */
#define PANEL_GAP 4       /* columns between panels */

/* Visible width of a panel: label, " |", cells, "|". */
static int panel_width(int label_cols, uint32_t cols)
{
    return label_cols + 2 + (int)cols + 1;
}

/* A panel's title line: text cut to the panel's width, padded to it
 * unless it ends the line. */
static void write_title(FILE *out, const char *text, int width, int pad)
{
    char cut[CELL];
    if ((int)strlen(text) > width)
        text = fmt_cut(cut, text, (size_t)(width < CELL - 1 ? width : CELL - 1));
    fprintf(out, "%-*s", pad ? width : 0, text);
}

void textmap_write_panels(FILE *out, const text_heatmap *maps, const char *const *titles,
                          const char *const *subtitles, size_t n, int page_cols,
                          uint32_t max_cols, int color)
{
    uint32_t windows = 0;
    int label_cols = 1;
    for (size_t p = 0; p < n; p++) {
        if (maps[p].nwindows > windows)
            windows = maps[p].nwindows;
        for (uint32_t i = 0; i < maps[p].nitems; i++)
            if ((int)strlen(maps[p].labels[i]) > label_cols)
                label_cols = (int)strlen(maps[p].labels[i]);
    }
    if (windows == 0)
        return;
    if (label_cols > 12)
        label_cols = 12;
    uint32_t per = textmap_per_column(windows, max_cols);
    uint32_t cols = (windows + per - 1) / per;
    uint64_t max = 0;
    for (size_t p = 0; p < n; p++) {
        uint64_t m = textmap_max(&maps[p], per);
        if (m > max)
            max = m;
    }
    int width = panel_width(label_cols, cols);
    if (width < PANEL_MIN_COLS)
        width = PANEL_MIN_COLS;
    size_t per_row = (size_t)((page_cols - 2 + PANEL_GAP) / (width + PANEL_GAP));
    if (per_row < 1)
        per_row = 1;
    for (size_t first = 0; first < n; first += per_row) {
        size_t last = first + per_row < n ? first + per_row : n;
        uint32_t rows = 0;
        for (size_t p = first; p < last; p++)
            if (maps[p].nitems > rows)
                rows = maps[p].nitems;
        for (int line = 0; line < 2; line++) { /* title, then subtitle */
            fputs("  ", out);
            for (size_t p = first; p < last; p++) {
                if (p > first)
                    fprintf(out, "%*s", PANEL_GAP, "");
                write_title(out, line ? subtitles[p] : titles[p], width, p + 1 < last);
            }
            fputc('\n', out);
        }
        for (uint32_t r = 0; r < rows; r++) {
            fputs("  ", out);
            for (size_t p = first; p < last; p++) {
                if (p > first)
                    fprintf(out, "%*s", PANEL_GAP, "");
                int used = 0;
                if (r < maps[p].nitems && maps[p].cells) {
                    write_row(out, &maps[p], r, "", label_cols, per, cols, max, color);
                    used = panel_width(label_cols, cols);
                }
                if (p + 1 < last)
                    fprintf(out, "%*s", width - used, "");
            }
            fputc('\n', out);
        }
        fputc('\n', out);
    }
    char span[CELL];
    fmt_duration(span, (uint64_t)per * maps[0].window_us);
    fprintf(out, "  a column = %s; every panel on one scale, so panels compare:\n", span);
    textmap_write_scale(out, "  ", max, "writes in a column", color);
}

/* ---- the timeline ---- */

/* A count as one character: blank, 1-9, or + for ten and more. */
static char count_glyph(uint64_t n)
{
    return n == 0 ? ' ' : n < 10 ? (char)('0' + n) : '+';
}

static void write_count_row(FILE *out, const run_result *run, timeline_kind kind,
                            const char *name, const char *indent, int label_cols,
                            uint32_t per, uint32_t cols)
{
    fprintf(out, "%s%-*s |", indent, label_cols, name);
    size_t e = 0;
    for (uint32_t g = 0; g < cols; g++) {
        uint64_t end = (uint64_t)(g + 1) * per * run->window_us, n = 0;
        for (; e < run->nevents && (run->events[e].t_us < end || g + 1 == cols); e++)
            n += run->events[e].kind == kind;
        fputc(count_glyph(n), out);
    }
    fputs("|\n", out);
}

/* A balancer run's glyph: B it computed a plan, T skipped for regions in
 * transition, - skipped otherwise (balanced, cost low, one server); a
 * column with several shows the strongest (B, then T, then -). */
static char balancer_glyph(const balancer_report *b)
{
    return b->ran ? 'B' : b->reason == BALANCER_IN_TRANSITION ? 'T' : '-';
}

static int glyph_rank(char g)
{
    return g == 'B' ? 3 : g == 'T' ? 2 : g == '-' ? 1 : 0;
}

static void write_balancer_row(FILE *out, const run_result *run, const char *indent,
                               int label_cols, uint32_t per, uint32_t cols)
{
    fprintf(out, "%s%-*s |", indent, label_cols, "balancer");
    size_t e = 0;
    for (uint32_t g = 0; g < cols; g++) {
        uint64_t end = (uint64_t)(g + 1) * per * run->window_us;
        char glyph = ' ';
        for (; e < run->nevents && (run->events[e].t_us < end || g + 1 == cols); e++) {
            const timeline_event *ev = &run->events[e];
            if (ev->kind != TIMELINE_BALANCER || ev->balancer >= run->balancer_runs)
                continue;
            char b = balancer_glyph(&run->balancer_log[ev->balancer]);
            if (glyph_rank(b) > glyph_rank(glyph))
                glyph = b;
        }
        fputc(glyph, out);
    }
    fputs("|  B ran, T skipped: regions in transition, - skipped: balanced\n", out);
}

static char server_event_glyph(timeline_kind kind)
{
    return kind == TIMELINE_SERVERS_ADDED ? 'A' : kind == TIMELINE_DECOMMISSION ? 'D' : 'F';
}

void textmap_write_timeline(FILE *out, const run_result *run, const char *indent,
                            int label_cols, uint32_t max_cols)
{
    if (run->nwindows == 0)
        return;
    uint32_t per = textmap_per_column(run->nwindows, max_cols);
    uint32_t cols = (run->nwindows + per - 1) / per;
    uint64_t count[TIMELINE_KINDS] = { 0 };
    for (size_t e = 0; e < run->nevents; e++)
        count[run->events[e].kind]++;
    write_count_row(out, run, TIMELINE_SPLIT, "splits", indent, label_cols, per, cols);
    write_count_row(out, run, TIMELINE_MOVE, "moves", indent, label_cols, per, cols);
    if (count[TIMELINE_REASSIGN])
        write_count_row(out, run, TIMELINE_REASSIGN, "reassigned", indent, label_cols, per,
                        cols);
    if (count[TIMELINE_BALANCER])
        write_balancer_row(out, run, indent, label_cols, per, cols);
    int servers = count[TIMELINE_SERVERS_ADDED] || count[TIMELINE_DECOMMISSION] ||
                  count[TIMELINE_FAILURE];
    if (!servers)
        return;
    fprintf(out, "%s%-*s |", indent, label_cols, "servers");
    size_t e = 0;
    for (uint32_t g = 0; g < cols; g++) {
        uint64_t end = (uint64_t)(g + 1) * per * run->window_us;
        char glyph = ' ';
        for (; e < run->nevents && (run->events[e].t_us < end || g + 1 == cols); e++)
            if (stats_is_server_event(run->events[e].kind))
                glyph = server_event_glyph(run->events[e].kind);
        fputc(glyph, out);
    }
    fputs("|  A added, D decommissioned, F failed\n", out);
    for (e = 0; e < run->nevents; e++) {
        const timeline_event *ev = &run->events[e];
        char at[CELL];
        if (!stats_is_server_event(ev->kind))
            continue;
        fmt_clock(at, ev->t_us);
        if (ev->kind == TIMELINE_SERVERS_ADDED && ev->from == ev->to)
            fprintf(out, "%s  at %s rs%" PRIu32 " joined\n", indent, at, ev->from);
        else if (ev->kind == TIMELINE_SERVERS_ADDED)
            fprintf(out, "%s  at %s rs%" PRIu32 "..rs%" PRIu32 " joined\n", indent, at, ev->from,
                    ev->to);
        else
            fprintf(out, "%s  at %s rs%" PRIu32 " %s\n", indent, at, ev->from,
                    ev->kind == TIMELINE_FAILURE ? "failed" : "was decommissioned");
    }
}
