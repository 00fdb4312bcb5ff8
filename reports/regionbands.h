/* regionbands.h -- a run's regions as bands of key space x time, each on
 * one server (internal to reports/: the region maps of the HTML and text
 * reports draw them).
 *
 * A band is a rectangle: a key range (a region's [start, end)) over a
 * span of time in which one server hosted it. A region gives one band per
 * server it had: a move ends a band and starts the next, on the other
 * server, at the same keys; a split ends the region's band and its two
 * daughters' bands start, at the parent's keys divided at the split key.
 * At every time of the run the bands tile the key axis (when the run's
 * region log is consistent, as the engine writes it).
 *
 * The key axis is the key space heatmap's (run_result.keyspace): bucket b
 * covers [b, b+1), so a band lines up with the heatmap's rows. A key
 * inside a bucket sits in proportion between the bucket's first key and
 * the next bucket's, reading the bytes past their shared prefix as a
 * number. The last bucket has no next key: its keys are placed in its
 * lower half, up to the highest region boundary of the run. A first
 * bucket that starts at the empty key has its keys from the lowest region
 * boundary on in its upper half (read as numbers from the empty key, they
 * would all squeeze to its top).
 */
#ifndef REGIONSIM_REGIONBANDS_H
#define REGIONSIM_REGIONBANDS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/result.h"

/* 48 bytes: a run of a million regions has some 2.6 million. */
typedef struct region_band {
    double key_lo, key_hi;  /* on the key axis: 0 .. axis (bucket b covers [b, b+1)) */
    uint64_t t0_us, t1_us;  /* hosted over [t0, t1) */
    uint32_t server;        /* the server's id (its index in run_result.servers) */
    uint32_t regions;       /* regions side by side in it: 1 unless coarsened */
    uint32_t first, last;   /* run_result.history indices: first's start key is the band's
                             * low key, last's end key its high key (first == last: one region) */
} region_band;

/* Where a split divided a band: the split key's position and the time. */
typedef struct region_split {
    double key;
    uint64_t t_us;
} region_split;

typedef struct region_bands {
    region_band *band;
    size_t n;
    region_split *split;    /* the run's splits, in time order (coarsening keeps them) */
    size_t nsplits;
    double axis;            /* the key axis' top: the heatmap's buckets (0: no axis, no bands) */
    size_t unmatched;       /* timeline events that matched no region (0 for an engine's run) */
} region_bands;

/* The bands of run, in no particular order: none when the run stored no
 * rows (keyspace.nbuckets 0) or has no region log (run->nhistory is below
 * 2^32). Exits 2 with a message
 * if out of memory (report_out_of_memory). Free with regionbands_free. */
region_bands regionbands_of(const run_result *run);

/* The position of key k (shell form; "" = the start) on the key axis of
 * ks, 0 .. ks->nbuckets; `bottom` and `top` are the lowest and highest
 * region boundaries of the run (references in the first and the last
 * bucket), NULL or "" for none. Exits 2 if out of memory. */
double regionbands_key_position(const keyspace_heatmap *ks, const char *k, const char *bottom,
                                const char *top);

/* Coarsens b onto a grid of key_cells x time_cells over the key axis and
 * [0, span_us): edges move to the nearest grid line (neighbours share an
 * edge, so the tiling holds), bands that become empty go (their
 * neighbours cover them), and neighbours on one server with the same time
 * span merge when one of them is less than 3 cells high (wide ones stay
 * apart, so a split stays visible), as do neighbours in time with the
 * same key range. If more than max_bands remain, the grid
 * halves in both directions and it starts again, until they fit or the
 * grid is one cell. Sorts the result by server, then time, then key. */
void regionbands_coarsen(region_bands *b, uint32_t key_cells, uint64_t span_us,
                         uint32_t time_cells, size_t max_bands);

/* The server hosting key position y at time t_us: the band that covers
 * them (the first one, if several), or -1 for none. */
long regionbands_server_at(const region_bands *b, double y, uint64_t t_us);

void regionbands_free(region_bands *b);

#endif
