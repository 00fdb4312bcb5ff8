/* text_regionmap.c -- the region map in the terminal. See textmap.h.
 *
 * The coarse cousin of the HTML region map (reports/html_regionmap.c):
 * the same bands (reports/regionbands.h) sampled on the key heatmap's grid,
 * a row per key bucket (the highest keys on top) and a column per report
 * window or group of windows, each cell the letter of the server that
 * hosted the bucket's middle key at the end of the column. A move shows
 * as a row's letter changing; the letters of a key range that splits go
 * on alike until a daughter moves, since a bucket holds many regions (the
 * timeline's splits row counts the splits). Letters are A-Z, a-z, 0-9 for
 * server ids 0..61, then they repeat (the legend says so); with colour a
 * letter also takes one of 12 colours (ANSI 256-colour codes), emitted
 * only where the colour changes along a row.
 */
#include "reports/textmap.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/format.h"
#include "reports/regionbands.h"

static const char LETTERS[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
#define NLETTERS ((int)sizeof LETTERS - 1)
static const int SERVER_COLOUR[12] = { 33, 208, 34, 160, 135, 94, 170, 244, 142, 37, 75, 214 };
#define RESET "\x1b[0m"
#define LEGEND_COLS 76

/* The grid: cell[row * cols + col] = server id + 1, or 0 for no band. */
static uint32_t *grid_of(const region_bands *rb, const run_result *run, uint32_t per,
                         uint32_t cols)
{
    uint32_t rows = run->keyspace.nbuckets;
    uint32_t *cell = calloc((size_t)rows * cols, sizeof *cell);
    if (!cell) report_out_of_memory();
    uint64_t col_us = (uint64_t)per * run->window_us;
    for (size_t i = 0; i < rb->n; i++) {
        const region_band *b = &rb->band[i];
        /* the rows whose middle (bucket + 0.5) is in [key_lo, key_hi) */
        double first = ceil(b->key_lo - 0.5), last = ceil(b->key_hi - 0.5);
        uint32_t r0 = first < 0 ? 0 : (uint32_t)first;
        uint32_t r1 = last > rows ? rows : last < 0 ? 0 : (uint32_t)last;
        /* the columns whose last moment is in [t0, t1), from the one t0 is in */
        for (uint64_t g = b->t0_us / col_us; g < cols; g++) {
            uint32_t w1 = (g + 1) * per < run->nwindows ? (uint32_t)(g + 1) * per : run->nwindows;
            uint64_t t = (uint64_t)w1 * run->window_us - 1; /* the column's last moment */
            if (t >= b->t1_us) break;
            if (t < b->t0_us) continue;
            for (uint32_t bucket = r0; bucket < r1; bucket++)
                cell[(size_t)(rows - 1 - bucket) * cols + g] = b->server + 1;
        }
    }
    return cell;
}

static void write_row(FILE *out, const uint32_t *row, uint32_t cols, int color)
{
    int current = -1;
    for (uint32_t g = 0; g < cols; g++) {
        if (!row[g]) {
            fputc(' ', out);
            continue;
        }
        uint32_t s = row[g] - 1;
        int c = SERVER_COLOUR[s % 12];
        if (color && c != current) fprintf(out, "\x1b[38;5;%dm", c);
        if (color) current = c;
        fputc(LETTERS[s % NLETTERS], out);
    }
    if (color && current >= 0) fputs(RESET, out);
}

static void write_legend(FILE *out, const run_result *run, const char *indent, int color)
{
    int at = fprintf(out, "%sservers:", indent);
    uint32_t n = run->nservers < (uint32_t)NLETTERS ? run->nservers : (uint32_t)NLETTERS;
    for (uint32_t s = 0; s < n; s++) {
        int len = 3 + (int)strlen(run->servers[s].name);
        if (at + len > LEGEND_COLS) at = fprintf(out, "\n%s        ", indent);
        if (color) fprintf(out, "  \x1b[38;5;%dm%c" RESET " %s", SERVER_COLOUR[s % 12], LETTERS[s],
                           run->servers[s].name);
        else fprintf(out, "  %c %s", LETTERS[s], run->servers[s].name);
        at += len;
    }
    fputc('\n', out);
    if (run->nservers > (uint32_t)NLETTERS)
        fprintf(out, "%s(%" PRIu32 " servers: rs<n> has the letter of rs<n mod %d>)\n", indent,
                run->nservers, NLETTERS);
}

void textmap_write_regions(FILE *out, const run_result *run, const char *indent,
                           int max_label_cols, uint32_t max_cols, int color)
{
    const keyspace_heatmap *ks = &run->keyspace;
    if (ks->nbuckets == 0 || run->nwindows < 2 || run->window_us == 0 || run->nhistory == 0)
        return;
    region_bands rb = regionbands_of(run);
    uint32_t per = textmap_per_column(run->nwindows, max_cols);
    uint32_t cols = (run->nwindows + per - 1) / per;
    uint32_t *cell = grid_of(&rb, run, per, cols);
    int label_cols = 1;
    for (uint32_t b = 0; b < ks->nbuckets; b++) {
        int len = b == 0 && !ks->bucket_start[b][0] ? 11 : (int)strlen(ks->bucket_start[b]);
        if (len > label_cols) label_cols = len;
    }
    if (label_cols > max_label_cols) label_cols = max_label_cols;
    char span[CELL], label[CELL], end[CELL];
    fprintf(out, "%sregions over the key space (the rows above; a column = %s; a letter = the "
            "server\n%shosting the row's middle key at the column's end: a move changes the "
            "letter):\n", indent, fmt_duration(span, run->window_us * per), indent);
    for (uint32_t r = 0; r < ks->nbuckets; r++) {
        uint32_t b = ks->nbuckets - 1 - r;
        const char *text = b == 0 && !ks->bucket_start[b][0] ? "(first key)" : ks->bucket_start[b];
        if ((int)strlen(text) > label_cols && label_cols >= 4)
            text = fmt_cut(label, text, (size_t)label_cols);
        fprintf(out, "%s%-*s |", indent, label_cols, text);
        write_row(out, cell + (size_t)r * cols, cols, color);
        fputs("|\n", out);
    }
    fmt_duration(end, (uint64_t)run->nwindows * run->window_us);
    int room = (int)cols + 1 - (int)strlen(end);
    fprintf(out, "%s%*s  0%*s\n", indent, label_cols, "", (room < 1 ? 1 : room) + (int)strlen(end),
            end);
    write_legend(out, run, indent, color);
    free(cell);
    regionbands_free(&rb);
}
