/* assertion.h -- CI assertions on a run's figures (issue 14).
 *
 * An assertion bounds a figure of the registry (reports/figures.h) for
 * every scheme, or for the schemes it names, with the kinds of
 * CockroachDB's allocation simulator (asim) assertions:
 *
 *   FIGURE OP BOUND [over last DURATION] [for SCHEME[,SCHEME...]]
 *       a bound on any scheme-scope figure: write_max_mean <= 1.2,
 *       p99_latency_us < 50000 over last 10m for salted
 *   balance STAT OP BOUND over last N windows [for ...]
 *       the max/mean across servers of STAT (writes or reads) within each
 *       of the last N report windows (asim's type=balance)
 *   steady over last N windows [for ...]
 *       no change in the region count and no move within the last N
 *       windows (asim's type=steady)
 *
 * OP is <, <=, >, >= or ==. The same text comes from --assert and, as
 * keys, from a scenario's [assert NAME] section (figure/kind, op, bound,
 * over_last, schemes). "over last DURATION" asks for the figure measured
 * over the run's last DURATION: the caller runs the scenario measured from
 * (end - DURATION) and hands those results to assertion_check.
 */
#ifndef REGIONSIM_ASSERTION_H
#define REGIONSIM_ASSERTION_H

#include <stddef.h>
#include <stdint.h>

#include "reports/figures.h"
#include "sim/result.h"

typedef enum assertion_kind {
    ASSERTION_BOUND = 0,
    ASSERTION_BALANCE,
    ASSERTION_STEADY,
} assertion_kind;

typedef enum assertion_op { ASSERT_LT = 0, ASSERT_LE, ASSERT_GT, ASSERT_GE, ASSERT_EQ } assertion_op;

#define ASSERTION_MAX_SCHEMES 64

typedef struct assertion {
    char name[64];             /* [assert NAME], or the text of an --assert */
    char text[256];            /* as a user would write it, normalised */
    assertion_kind kind;
    const figure *figure;      /* BOUND: the figure; BALANCE: NULL */
    int balance_reads;         /* BALANCE: 0 writes, 1 reads */
    assertion_op op;
    double bound;
    uint64_t over_last_us;     /* BOUND: 0 = the whole measured run */
    uint32_t over_last_windows;/* BALANCE, STEADY: the last N windows (>= 1) */
    size_t nschemes;           /* 0: every scheme */
    char schemes[ASSERTION_MAX_SCHEMES][64];
} assertion;

/* Parses one assertion from its text. Returns 0, or -1 with a message in
 * err naming the token and what was expected (an unknown figure names the
 * nearest). */
int assertion_parse(const char *text, assertion *out, char *err, size_t errcap);

/* One assertion's outcome for one scheme. */
typedef struct assertion_result {
    const assertion *assertion;
    const char *scheme;        /* the run's scheme name (borrowed) */
    double value;              /* the figure's (BALANCE: the worst window's) value; NAN undefined */
    int passed;                /* an undefined value fails */
} assertion_result;

/* Checks a against every run of res it applies to, appending one result
 * per run to out (room for res->nruns). Returns how many were appended, or
 * -1 with a message in err when a named scheme is not among the runs. */
int assertion_check(const assertion *a, const sim_results *res, assertion_result *out,
                    char *err, size_t errcap);

/* A result as one line for the terminal and JUnit: "FAILED write_max_mean
 * <= 1.2 for monotonic: 5.33 (bound 1.2)". */
void assertion_describe(const assertion_result *r, char *out, size_t cap);

#endif
