/* text_impl.h -- what the human report's files share (reports/text.c,
 * reports/text_figures.c); not an interface of the reports. */
#ifndef REGIONSIM_TEXT_IMPL_H
#define REGIONSIM_TEXT_IMPL_H

#include <stdint.h>
#include <stdio.h>

#include "reports/figures.h"
#include "reports/report.h"
#include "engine/result.h"

#define FIGURE_LINE_COLS 100 /* the figure tables fit this many columns */

/* A matrix of figures of one scope: a row per figure, a column per server
 * of `run` (FIGURE_SERVER) or per run of `res` (FIGURE_SCHEME; with `run`
 * set, one of res's runs, that run is the only column), in blocks of
 * columns that fit FIGURE_LINE_COLS. With skip_empty, rows whose every
 * value is 0 or undefined are named in one list after the blocks instead.
 * With spread (FIGURE_SCHEME), a cell is the figure across res's samples,
 * "median [min, max]", and a row is empty when the figure is the same in
 * every sample of every column. */
typedef struct figure_matrix {
    figure_scope scope;
    const sim_results *res; /* FIGURE_SCHEME: the runs are the columns */
    const run_result *run;  /* FIGURE_SERVER: its servers are the columns;
                             * FIGURE_SCHEME: NULL, or the only column */
    int skip_empty;
    int spread;             /* cells across res's samples (FIGURE_SCHEME) */
    const uint32_t *servers;/* FIGURE_SERVER: the servers shown, in this order (NULL: all) */
    size_t nservers;        /* how many of them */
} figure_matrix;

/* The matrix m, in blocks of columns that fit FIGURE_LINE_COLS. */
void text_write_figure_matrix(FILE *out, const figure_matrix *m);

/* Every scheme-scope figure of run as "name value unit", two to a line. */
void text_write_run_figures(FILE *out, const run_result *run);

/* With samples (nsamples > 1), the figures that vary across them as
 * "median [min, max]": a column per run of res, or of `run` alone (one of
 * res's runs); headed by `lead` ("\n" or an indent). Nothing for one
 * sample. */
void text_write_samples_section(FILE *out, const sim_results *res, const run_result *run,
                                const char *lead);

/* The last seed of res's samples: seed .. seed+nsamples-1. */
uint64_t text_last_seed(const sim_results *res);

#endif
