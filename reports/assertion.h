/* assertion.h -- CI assertions on a run's figures (issue 14).
 *
 * An assertion bounds a figure of the registry (reports/figures.h) for
 * every scheme, or for the schemes it names, with the kinds of
 * CockroachDB's allocation simulator (asim) assertions:
 *
 *   FIGURE OP BOUND [over last DURATION] [for SCHEME[, SCHEME...]]
 *       a bound on any scheme-scope figure: write_max_mean <= 1.2,
 *       p99_latency_us < 50000 over last 10m for salted
 *   balance STAT OP BOUND over last N windows [for ...]
 *   balance STAT OP BOUND over last DURATION [for ...]
 *       the max/mean across servers of STAT (writes or reads) within each
 *       of the last N report windows, the worst of them (asim's
 *       type=balance); windows without an operation of STAT have no
 *       max/mean and are skipped
 *   steady over last N windows [for ...]
 *   steady over last DURATION [for ...]
 *       no change in the region count and no region moved (by the
 *       balancer, or reopened elsewhere after a server left) within the
 *       last N windows (asim's type=steady); no operator
 *
 * Tokens: OP is <, <=, >, >= or ==, with or without spaces around it. A
 * BOUND is a plain decimal with an optional exponent (1.2, 50000, 5e4,
 * -0.5), never hex, inf or nan. A DURATION is a whole number with a unit,
 * us, ms, s, m or h (10m), more than 0, as scenario files write them; N is
 * 1..1000000 and "window" works for "windows". A SCHEME is a run's name as
 * reports show it; one with spaces or commas is written in double quotes
 * ("salt(8) ts"). The "over last" and "for" clauses come in either order,
 * each at most once. Keywords are lower case. A figure named steady (the
 * figure, 1 when the run reached a steady state) is bounded as any other:
 * "steady >= 1"; "steady" without an operator is the assertion kind.
 *
 * "over last DURATION" on a figure asks for the figure measured over the
 * run's last DURATION: the caller runs the scenario measured from
 * assertion_measure_from(...) and hands those results to assertion_check,
 * which refuses a run measured from anywhere else. On balance and steady
 * it chooses windows instead: those starting at or after the run's end
 * minus DURATION; windows cover the whole run whatever it was measured
 * from, so those need no second run. A run with fewer windows than asked
 * for (or none in the DURATION) gives an undefined value, which fails:
 * a check that could not look is not a pass.
 *
 * The same text comes from --assert and from a scenario file's
 * [assert NAME] section, `expect = TEXT` (the scenario stores the text and
 * where it came from; this module parses it: docs/scenarios.md).
 *
 * Pure: no I/O, no global mutable state; the figures are the registry's.
 */
#ifndef REGIONSIM_ASSERTION_H
#define REGIONSIM_ASSERTION_H

#include <stddef.h>
#include <stdint.h>

#include "reports/figures.h"
#include "engine/result.h"

typedef enum assertion_kind {
    ASSERTION_BOUND = 0,
    ASSERTION_BALANCE,
    ASSERTION_STEADY,
} assertion_kind;

typedef enum assertion_op { ASSERT_LT = 0, ASSERT_LE, ASSERT_GT, ASSERT_GE, ASSERT_EQ } assertion_op;

#define ASSERTION_MAX_SCHEMES 64
#define ASSERTION_SCHEME_MAX 64   /* bytes of a scheme name in a for clause, NUL included */
#define ASSERTION_TEXT_MAX 256    /* bytes of a text or name, NUL included */
#define ASSERTION_MAX_WINDOWS 1000000

typedef struct assertion {
    /* The name: an [assert NAME]'s NAME, else the same as text. */
    char name[ASSERTION_TEXT_MAX];
    /* As a user would write it, normalised (one space between tokens,
     * numbers and durations as written), WITHOUT the for clause: each
     * result names its own scheme, so "TEXT for SCHEME" reads right. */
    char text[ASSERTION_TEXT_MAX];
    assertion_kind kind;
    const figure *figure;      /* BOUND: the figure (scope FIGURE_SCHEME); else NULL */
    int balance_reads;         /* BALANCE: 0 writes, 1 reads */
    assertion_op op;           /* STEADY: ASSERT_EQ (changes == 0) */
    double bound;              /* STEADY: 0 */
    char bound_text[32];       /* the bound as written ("1.2", "5e4"); STEADY "0" */
    uint64_t over_last_us;     /* "over last DURATION"; 0: not given */
    uint32_t over_last_windows;/* "over last N windows"; 0: not given (BALANCE and
                                * STEADY have exactly one of the two; BOUND never this) */
    size_t nschemes;           /* 0: every scheme */
    char schemes[ASSERTION_MAX_SCHEMES][ASSERTION_SCHEME_MAX];
} assertion;

/* Parses one assertion from its text, named by its text. Returns 0, or -1
 * with a message in err (errcap bytes) naming the token found and what was
 * expected ("expected an operator (<, <=, >, >=, ==) after
 * write_max_mean, found '=>'"); an unknown figure names the nearest
 * ("unknown figure 'write_max_men' (did you mean 'write_max_mean'?)"). The
 * message does not say where the text came from: the caller prefixes it
 * ("FILE:LINE: [assert NAME] ", "--assert: "). *out is undefined on error. */
int assertion_parse(const char *text, assertion *out, char *err, size_t errcap);

/* The same, named `name` (an [assert NAME]'s NAME; NULL or "": the text).
 * A name of ASSERTION_TEXT_MAX bytes or more is refused. */
int assertion_parse_named(const char *name, const char *text, assertion *out, char *err,
                          size_t errcap);

/* Where a run must be measured from for a's figures: for a figure bound
 * "over last DURATION", end_us - DURATION (0 when DURATION covers the
 * whole run); for any other assertion, `measured` (what the run was
 * measured from anyway). end_us is the run's end (run_result.duration_us;
 * for a scenario, its phases' total duration). */
uint64_t assertion_measure_from(const assertion *a, uint64_t end_us, uint64_t measured);

/* One assertion's outcome for one scheme. */
typedef struct assertion_result {
    const assertion *assertion;
    const char *scheme;        /* the run's scheme name (borrowed) */
    double value;              /* BOUND: the figure; BALANCE: the worst window's max/mean;
                                * STEADY: region count changes + moves; NAN undefined */
    int passed;                /* value OP bound; an undefined value fails; with
                                * samples: in every sample */
    const char *why;           /* NULL, or a static phrase saying why a value is
                                * undefined ("the run has fewer windows than asked for") */
    uint64_t seed;             /* the seed of the run the value is from (res->seed) */
    uint32_t samples;          /* runs (samples) it was checked on: 1, until merged */
    uint32_t samples_failed;   /* of those, how many failed */
} assertion_result;

/* Checks a against every run of res it applies to (every run, or those its
 * for clause names, in res's order), appending one result per run to out
 * (room for res->nruns). Returns how many were appended; or -1 with a
 * message in err when a named scheme is not among the runs (the message
 * lists the runs' schemes), or when a run is not measured from where a's
 * "over last" needs it (assertion_measure_from; a mistake of the caller's). */
int assertion_check(const assertion *a, const sim_results *res, assertion_result *out,
                    char *err, size_t errcap);

/* Folds the result of the same assertion and scheme on another sample
 * (a run with another seed) into *into: counts the samples and the failed
 * ones, and passes while most samples pass (failed * 2 < samples: the
 * verdict of the median sample, as the reports' verdicts are the medians';
 * one sample's luck can neither pass nor fail the job, issue 28; a tie
 * fails), and keeps the worst value with its seed
 * and why: a failure before a pass, an undefined value before a defined
 * one, then the value farthest on the failing side (the highest for < and
 * <=, the lowest for > and >=, the farthest from the bound for ==); on a
 * tie the value already there (the earlier seed) stays. */
void assertion_merge(assertion_result *into, const assertion_result *sample);

/* A result as one line for the terminal: "FAILED write_max_mean <= 1.2 for
 * monotonic: value 5.333, bound 1.2", "passed ...", with "NAME: " before
 * the text for a named one, and the why of an undefined value
 * ("value undefined (no window had a write), bound 1.15"). Values get
 * enough digits to show the verdict (1.2004 against 1.2, not 1.2). A
 * result of several samples ends with where its value is from and how
 * many failed: "(seed 44, the worst of 5 samples; 3 failed)". */
void assertion_describe(const assertion_result *r, char *out, size_t cap);

/* A result as the reports' check_result (engine/result.h): name, expression
 * (the text), scheme copied (owned: sim_results_free frees them), value,
 * bound, passed. Returns 0, or -1 when out of memory (out then holds
 * nothing to free). */
int assertion_to_check(const assertion_result *r, check_result *out);

/* The phrase among those a result's why can be (assertion_check's) that
 * equals text, or NULL (text NULL or none of them): a why read back from
 * a file becomes the same borrowed pointer a check holds. */
const char *assertion_why(const char *text);

/* The reverse of assertion_to_check, for checks read back (a sweep's
 * table, a merged plan's results): the assertion parsed again from c's
 * expression, named c's name, into *a, and *r a result of it that borrows
 * a and c's scheme, with c's value, passed, why, seed and samples. Then
 * assertion_describe(r) prints what it printed for the original result,
 * and r feeds junit_write. Returns 0, or -1 with the parser's message in
 * err (an expression that does not parse; a check made by
 * assertion_to_check always does). */
int assertion_from_check(const check_result *c, assertion *a, assertion_result *r, char *err,
                         size_t errcap);

#endif
