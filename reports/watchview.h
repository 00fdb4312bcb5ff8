/* watchview.h -- what `regionsim watch` shows at one moment of a run.
 *
 * A pure function of a finished run_result and a simulated time t: the
 * servers as bars (their writes in the report window the clock is in),
 * the regions each hosts at t, the hot server, the imbalance figures so
 * far, and the latest splits, moves and balancer runs. cli/watch.c owns
 * the terminal, the wall clock and the keys; it only asks this module for
 * a frame (a screen's lines) or a plain progress line, so everything a
 * user sees can be checked in a unit test without a terminal.
 */
#ifndef REGIONSIM_WATCHVIEW_H
#define REGIONSIM_WATCHVIEW_H

#include <stdint.h>
#include <stdio.h>

#include "engine/result.h"

/* The report window shown at simulated time t: the one that ends at or
 * after t and starts before it (windows are taken as (start, end] here,
 * so at a window's end its own counts are still shown), window 0 at t = 0,
 * the last one from the run's end on. run->nwindows must be at least 1. */
uint32_t watchview_window_at(const run_result *run, uint64_t t_us);

/* The cluster at simulated time t, rebuilt from the run's timeline by
 * undoing, from the end of the run back to t, every event after t.
 * regions and present point at nservers entries each (the caller's). */
typedef struct watch_state {
    uint64_t t_us;
    uint32_t window;        /* watchview_window_at(t) */
    uint64_t *regions;      /* regions server s hosted at t */
    unsigned char *present; /* 1: server s was in the cluster at t */
    uint64_t regions_total;
    uint64_t splits, moves, balancer_runs; /* timeline events at or before t */
    size_t events;          /* run->events[0..events) happened at or before t */
    int hot_defined;        /* the window has writes */
    uint32_t hot;           /* the server with the most writes in the window (lowest on ties) */
    double hot_share;       /* its share of the window's writes */
    double max_mean;        /* so far: the busiest server's writes over the mean server's,
                             * over the measured windows up to and including this one (NAN
                             * before any write) */
    double window_max_mean; /* so far: the mean of each such window's max/mean (NAN: none) */
} watch_state;

/* Fills *st for time t; st->regions and st->present must have room for
 * run->nservers entries. Returns 0, or -1 when a scratch array could not
 * be allocated. */
int watchview_state(const run_result *run, uint64_t t_us, watch_state *st);

/* What a frame shows besides the run. */
typedef struct watchview {
    const run_result *run;
    const char *scenario;   /* the scenario's name */
    uint64_t seed;
    uint64_t t_us;          /* the clock: simulated microseconds, 0..run->duration_us */
    double speed;           /* simulated seconds a wall second */
    int paused, finished;   /* say so on the clock line */
    int color;              /* 1: ANSI colour and reverse video; 0: not one escape byte */
    int keys;               /* 1: the last line lists the keys */
    int width, height;      /* the screen's columns (20..1000) and lines (at least 12) */
} watchview;

/* The frame for v: at most v->height lines, each ending in '\n' and at
 * most v->width columns wide (UTF-8 block characters count one column
 * each; escapes none). With v->color 0 it contains no escape at all; the
 * hot server is then marked by "<- hot" alone (it always is). Bars scale
 * to the largest count any server had in any window, so lengths compare
 * across the run; a count above 0 gets at least an eighth of a column.
 * Returns 0, or -1 when memory ran out (nothing useful written). */
int watchview_frame(FILE *out, const watchview *v);

/* One plain progress line for simulated time t (a window's end, in
 * practice), as `watch` prints when it cannot draw: e.g.
 * "00:05:00 hot rs0 (100.0%) max/mean 8.00 window 8.00 regions 5 splits 4
 * moves 0\n". No escapes. Returns 0 or -1 (out of memory). */
int watchview_line(FILE *out, const run_result *run, uint64_t t_us);

/* hh:mm:ss of a simulated time, "Nd hh:mm:ss" from a day on, into buf
 * (cap >= 24). */
const char *watchview_clock(char *buf, size_t cap, uint64_t t_us);

/* A speed in words, "1 min a second", "30 s a second", "500 ms a second",
 * into buf (cap >= 48). */
const char *watchview_speed(char *buf, size_t cap, double speed);

#endif
