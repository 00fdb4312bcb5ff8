/* figures.h -- the registry of figures: every number a report shows about
 * a run, described once.
 *
 * A figure has a name (snake_case, the same in every format and in
 * assertions: "write_max_mean"), a unit ("" for a ratio, "us", "ops/s",
 * "count", ...), one sentence of meaning, a scope (what it is computed
 * over), which direction is better, and its computation, a pure function
 * of a run_result (through reports/stats.h). The writers (text, JSON, CSV,
 * HTML) draw their figure tables from here, so a new figure is one entry
 * plus its computation and reaches every format; `regionsim figures` and
 * the README's glossary list the same entries.
 *
 * Per-read-kind figures are families: one entry names them by a prefix
 * ("reads_" gives reads_get, reads_range, ...), expanded over the read
 * kinds at compile time (figures.c's READ_KINDS: a new query_kind is one
 * line there, and a static assertion fails until it is added), so a new
 * read kind gets every family's figures without a new entry.
 *
 * The registry is static const data: figure_get's pointers stay valid for
 * the life of the program and may be compared (figure_find returns the
 * same pointer every time). Server figures are named server_<what>, so
 * every name is unique across scopes.
 */
#ifndef REGIONSIM_FIGURES_H
#define REGIONSIM_FIGURES_H

#include <stddef.h>

#include "engine/result.h"

typedef enum figure_scope {
    FIGURE_SCHEME = 0,  /* one scheme's run: its servers, windows and reads together */
    FIGURE_SERVER,      /* one server of a run (value's arg: the server index) */
} figure_scope;

typedef enum figure_better {
    FIGURE_LOWER_BETTER = 0,
    FIGURE_HIGHER_BETTER,
    FIGURE_NEITHER,     /* a count or a setting: no direction is a regression */
} figure_better;

typedef struct figure {
    char name[48];          /* e.g. "write_max_mean", "reads_get" */
    const char *unit;       /* "", "us", "ops/s", "count", "bytes", "share" */
    const char *meaning;    /* one sentence, for `regionsim figures` and the glossary */
    figure_scope scope;
    figure_better better;
    int kind;               /* a family's read kind (query_kind), else -1 */
    /* The value for `run` (and, for FIGURE_SERVER, server `index`; 0 for
     * FIGURE_SCHEME); NAN when undefined (nothing read, no time passed). */
    double (*value)(const run_result *run, int kind, size_t index);
    int decimals;           /* digits after the point in the human reports (text, HTML) */
} figure;

/* The figures, families expanded, in the registry's order. */
size_t figure_count(void);
const figure *figure_get(size_t i);

/* f's position in the registry: figure_get(figure_index(f)) == f. */
size_t figure_index(const figure *f);

/* The figures of one scope, in the registry's order: the first of them
 * (NULL if none), and the one after f of f's scope (NULL after the last):
 * for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f)). */
const figure *figure_first(figure_scope scope);
const figure *figure_next(const figure *f);

/* How a figure behaves across seeds (samples), as measured on 20 seeds
 * (42..61) of the default compare, every scheme (docs/figures.md#across-seeds):
 * FIXED the same in every seed; ROBUST its range within 10% of its median
 * in every scheme; MOVES more than that in some scheme, so a single seed's
 * value says little (the reports show its median and range);
 * UNMEASURED the default scenario does not exercise it (it reads nothing)
 * or it is one seed's by design (server figures). */
typedef enum figure_seeds {
    FIGURE_SEEDS_UNMEASURED = 0,
    FIGURE_SEEDS_FIXED,
    FIGURE_SEEDS_ROBUST,
    FIGURE_SEEDS_MOVES,
} figure_seeds;

figure_seeds figure_seed_class(const figure *f);

/* "fixed", "robust", "moves", "-". */
const char *figure_seeds_name(figure_seeds s);

/* The figure named `name`, or NULL. */
const figure *figure_find(const char *name);

/* f's value for run (index: the server, for a server figure). */
double figure_value(const figure *f, const run_result *run, size_t index);

/* The value of the figure named `name` (which must exist: asserted) for
 * run; what a writer's hand-made table uses instead of recomputing. */
double figure_named(const char *name, const run_result *run, size_t index);

/* Words for the enums: "scheme", "server"; "lower", "higher", "neither". */
const char *figure_scope_name(figure_scope scope);
const char *figure_better_name(figure_better better);

/* The name of the registry figure nearest to `name` (for "did you mean"),
 * or NULL when none is near: the fewest single-character edits or swaps
 * of two neighbours (core/nearest.h), at most 2 or a third of name's
 * length, whichever is more; the earlier figure on ties. An exact name
 * returns itself. */
const char *figure_nearest(const char *name);

#endif
