/* textmap.h -- heatmaps and timelines drawn in the terminal (internal to
 * reports/).
 *
 * A heatmap is a windows x items matrix of counts (items: servers or key
 * buckets). It is drawn as one row of shade characters per item and one
 * column per report window, or per group of windows when there are more
 * than fit, on a scale whose top is the hottest cell (or, for panels, the
 * hottest cell of every panel, so schemes can be compared). With colour,
 * each shade also takes a colour from a yellow-to-red ramp (ANSI 256-colour
 * codes); without it the shades alone carry the picture.
 */
#ifndef REGIONSIM_TEXTMAP_H
#define REGIONSIM_TEXTMAP_H

#include <stdint.h>
#include <stdio.h>

#include "engine/result.h"

typedef struct text_heatmap {
    const uint64_t *cells;      /* cells[w * nitems + i]; NULL: nothing to draw */
    uint32_t nwindows, nitems;
    uint64_t window_us;
    const char *const *labels;  /* one per item */
    int keys_up;                /* 1: item 0 on the bottom row (key buckets: keys go
                                 * up like a plot's y axis); 0: on the top (servers) */
} text_heatmap;

/* Windows per column so that at most max_cols columns are drawn. */
uint32_t textmap_per_column(uint32_t nwindows, uint32_t max_cols);

/* The hottest cell of h with `per` windows a column. */
uint64_t textmap_max(const text_heatmap *h, uint32_t per);

/* Draws h, each row "<indent><label padded to label_cols> |<cells>|", then
 * a time axis under the columns. max: the scale's top (0: h's own). */
void textmap_write(FILE *out, const text_heatmap *h, const char *indent, int label_cols,
                   uint32_t max_cols, uint64_t max, int color);

/* Under a heatmap drawn with these indent, label_cols and max_cols over
 * nwindows windows: a caret at the column holding t_us and a note that
 * the columns left of it are the warm-up (not measured). Nothing when
 * t_us is 0. */
void textmap_write_measure_mark(FILE *out, const char *indent, int label_cols, uint32_t max_cols,
                                uint32_t nwindows, uint64_t window_us, uint64_t t_us);

/* Draws n heatmaps side by side, as many to a row as fit in page_cols
 * columns, each under a title and a subtitle line, all on one scale (their
 * hottest cell) and one column width; then the scale's legend. */
void textmap_write_panels(FILE *out, const text_heatmap *maps, const char *const *titles,
                          const char *const *subtitles, size_t n, int page_cols,
                          uint32_t max_cols, int color);

/* The scale's legend: what each shade stands for, in counts, up to max. */
void textmap_write_scale(FILE *out, const char *indent, uint64_t max, const char *what,
                         int color);

/* The run's timeline in the same columns as its heatmaps: a row each for
 * splits, moves and (when any) reassignments with counts per column (1-9,
 * + for more), a row of balancer runs (B ran, T skipped for regions in
 * transition, - skipped as balanced), a row of server events (A added, D
 * decommissioned, F failed), then the server events listed with their
 * times. */
void textmap_write_timeline(FILE *out, const run_result *run, const char *indent,
                            int label_cols, uint32_t max_cols);

/* The run's region map (reports/text_regionmap.c): the key heatmap's
 * rows (buckets, the highest keys on top, labels cut to max_label_cols)
 * and columns, each cell a letter naming the server that hosted the
 * bucket's middle key at the column's end (with colour, in that server's
 * colour too), then the time axis and a legend of the letters. Nothing
 * when the run stored no rows, has no region log or fewer than 2 windows. */
void textmap_write_regions(FILE *out, const run_result *run, const char *indent,
                           int max_label_cols, uint32_t max_cols, int color);

#endif
