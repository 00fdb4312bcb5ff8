/* baseline.h -- comparing a run's figures with a previous run's (issues
 * 14, 28).
 *
 * `--baseline OLD.json` reads the JSON report of an earlier run (the
 * "figures" of each of its runs, or with samples their "spread") and
 * compares the figures a gate judges (baseline_gate: the headline figures
 * unless --baseline-figures chose), scheme by scheme, with this run's.
 * Each figure has a band: the baseline's value, or the range of its
 * samples; widened at each edge by the larger of the figure's relative
 * tolerance and its absolute floor, it holds this run's value (or median)
 * or not (baseline_judge, the one rule of compare's and a sweep's
 * baselines). Beyond it in the direction the figure calls worse is a
 * regression; the other way an improvement; figures without a direction
 * (counts) are listed when they change but never regress.
 *
 * The file is read once, before the run (baseline_load: a bad baseline
 * fails before any simulation), into a small value that the comparison
 * reads after the run (baseline_compare): the file itself is never read
 * twice, so a pipe works and a file replaced meanwhile changes nothing.
 */
#ifndef REGIONSIM_BASELINE_H
#define REGIONSIM_BASELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reports/figures.h"
#include "engine/result.h"

/* The relative tolerance of a figure without one of its own (the
 * headline table in baseline.c has the others): a change of 5%. */
#define BASELINE_TOLERANCE 0.05

/* Registry figures a gate can hold by index (baseline_gate_init refuses a
 * registry past it). */
#define BASELINE_MAX_FIGURES 256

typedef enum baseline_verdict {
    BASELINE_SAME = 0,       /* within the tolerance */
    BASELINE_REGRESSION,     /* worse beyond it */
    BASELINE_IMPROVEMENT,    /* better beyond it */
    BASELINE_CHANGED,        /* beyond it, for a figure without a direction */
} baseline_verdict;

/* A figure's value in a baseline: its min, median and max across the
 * baseline's samples (its "spread"); of one run, all three that value. */
typedef struct baseline_band {
    double min, median, max;
} baseline_band;

/* How far a figure may move: beyond the band by more than
 * max(relative x |edge|, absolute) at the edge it crossed. */
typedef struct baseline_tol {
    double relative;         /* of the value: 0.05 is 5% */
    double absolute;         /* the floor, in the figure's unit: a move of at most this
                              * is never beyond (0.00226 -> 0.00242 of a 0.01 floor) */
} baseline_tol;

/* What --baseline judges and how far each figure may move: the figures
 * (by registry index; the headline set unless --baseline-figures chose),
 * and each one's tolerance: --tolerance FIG=REL, else --tolerance REL, else
 * the figure's default (baseline_default_tol); --tolerance-abs likewise.
 * A plain value; baseline_gate_init fills it. */
typedef struct baseline_gate {
    unsigned char judged[BASELINE_MAX_FIGURES];
    int figures_given;                  /* --baseline-figures seen (the set is the user's) */
    int relative_given, absolute_given; /* --tolerance REL, --tolerance-abs ABS */
    double relative, absolute;
    unsigned char fig_relative_given[BASELINE_MAX_FIGURES];
    unsigned char fig_absolute_given[BASELINE_MAX_FIGURES];
    double fig_relative[BASELINE_MAX_FIGURES], fig_absolute[BASELINE_MAX_FIGURES];
} baseline_gate;

/* Whether the default gate leaves f of one scheme unjudged: its
 * baseline's samples spread wider than twice f's tolerance at their median
 * (max - min > 2 x max(relative x |median|, absolute)). Such a figure
 * moves with the seed more than any change the tolerance guards against
 * (a timestamp key's whole-run max/mean, 2.05-8.00 over 20 seeds), and a
 * few baseline seeds do not pin it down; the robust figures beside it (the
 * window max/mean) are judged. Never with --baseline-figures (the user's
 * set is judged whole) or with one sample (no spread). */
int baseline_moves(const baseline_gate *g, const figure *f, baseline_band old);

/* The default gate: the headline figures, each with its default
 * tolerance. */
void baseline_gate_init(baseline_gate *g);

/* Whether f is one of the headline figures --baseline judges unless told
 * otherwise (baseline.c's table says why each is one). */
int baseline_headline(const figure *f);

/* f's tolerance when nothing is given: the headline table's, else 5% and
 * a floor by the figure's unit (a ratio or a share 0.01, a latency 1 ms,
 * ops/s 1, a count or a size 0). */
baseline_tol baseline_default_tol(const figure *f);

/* --baseline-figures LIST: comma-separated scheme figure names, or
 * "headline" (the default set) or "all" (every scheme figure) among them;
 * the first call replaces the default set, later ones add to it. Returns
 * 0, or -1 with a message naming the token ("unknown figure 'wrte_cov'
 * (did you mean 'write_cov'?)", "server_busy is a server figure: the
 * baseline compares scheme figures", an empty name). */
int baseline_gate_figures(baseline_gate *g, const char *list, char *err, size_t errcap);

/* --tolerance TEXT (absolute 0) or --tolerance-abs TEXT (absolute 1):
 * "X" sets every figure's, "FIGURE=X" one figure's (that wins over "X"
 * whatever the order). X is a number from 0 to 1e6 (relative; absolute: to
 * 1e15, in the figure's unit). Returns 0, or -1 with a message naming the
 * token (an unknown figure with its nearest, a bad number). */
int baseline_gate_tolerance(baseline_gate *g, const char *text, int absolute, char *err,
                            size_t errcap);

/* The checks across options, once they are all in: a figure's own
 * tolerance on a figure the gate does not judge would be silently unused,
 * so it is refused ("--tolerance p99_latency_us=0.2: p99_latency_us is not
 * judged: add it with --baseline-figures headline,p99_latency_us").
 * Returns 0 or -1. */
int baseline_gate_check(const baseline_gate *g, char *err, size_t errcap);

/* Whether g judges f, and f's tolerance in g. */
int baseline_gate_judges(const baseline_gate *g, const figure *f);
baseline_tol baseline_gate_tol(const baseline_gate *g, const figure *f);

/* The figures g judges. */
size_t baseline_gate_count(const baseline_gate *g);

typedef struct baseline_change {
    const char *scheme;      /* this run's scheme name (borrowed from res) */
    const figure *figure;
    baseline_band old;       /* the baseline's value or spread */
    double new_value;        /* this run's value, or its median across its samples */
    double limit;            /* the edge of the widened band it crossed */
    double relative;         /* (new - old median) / |old median|; +-INFINITY when it is 0 */
    baseline_verdict verdict;
} baseline_change;

typedef struct baseline_report {
    size_t nchanges;         /* every figure beyond its tolerance, in scheme then registry order */
    baseline_change *changes;
    size_t compared;         /* figure values compared (both defined) */
    size_t moving;           /* not judged: the baseline's own seeds moved them (baseline_moves) */
    size_t regressions;
    size_t schemes_missing;  /* this run's schemes the baseline does not have */
    uint32_t samples;        /* this run's samples: above 1, its medians were compared */
    uint32_t old_samples;    /* the baseline's: above 1, with the range of its samples */
} baseline_report;

struct json_object;

/* Checks a run object of a JSON report (a compare's "runs[i]", a sweep's
 * "points[p].runs[r]": where, for messages) for a baseline: its
 * "figures" (spread 0) or "spread" (spread 1) an object, every registry
 * figure in it a number or null (a spread's entry {"min", "median",
 * "max"} of them; a figure the registry has and the run lacks is
 * allowed). Adds to *numbers the figures with a number (a spread: the
 * medians). 0, or -1 with "PATH: WHERE.figures.NAME: expected a number or
 * null, found a string ('x')". One check for compare's and a sweep's
 * baselines. */
int baseline_check_run(struct json_object *run, const char *where, const char *path,
                       int spread, size_t *numbers, char *err, size_t errcap);

/* The band of scheme figure f in a (checked) run object: its "spread"
 * entry when the run has a "spread" (a report of several samples: a min
 * or max that is null reads as the median), else its "figures" value
 * three times. 0 with *band set, or -1 when it has none (null, missing). */
int baseline_band_of(struct json_object *run, const figure *f, baseline_band *band);

/* A baseline as baseline_load read it: the file's identifying fields
 * (scenario, workload, samples) and, per run, its scheme and the figures
 * with a value (with samples, the min, median and max of its "spread");
 * nothing else of the document, and no tie to the file. */
typedef struct baseline baseline;

/* Reads the JSON report at path once (up to max bytes: reports/json_read.h)
 * and checks it. Returns 0 with *out set (free with baseline_free), or -1
 * with a message in err: the file cannot be read (or is over max), is not
 * one JSON document, is not a regionsim JSON report, is of another schema
 * version ("PATH: a report of schema 2; this regionsim writes 3: make the
 * baseline again"), has a "samples" that is not a whole number from 1, a
 * malformed run or figure (its JSON path: "PATH:
 * runs[2].figures.write_cov: expected a number or null, found a string
 * ('x')") or no figure with a value at all. The file is not read again: a
 * FIFO, a pipe (/dev/stdin, a shell's <(...)) reads as a regular file
 * does, and a file replaced after this call is compared as it was here.
 * What is kept is 32 bytes a figure with a value and each run's scheme
 * name; json-c's tree of the document (7 to 23 times its size) is freed
 * before returning. */
int baseline_load(const char *path, uint64_t max, baseline **out, char *err, size_t errcap);

void baseline_free(baseline *b);

/* Whether a baseline at path measured (old_auto, old_from_us) compares
 * with this run or sweep (noun: "run" or "sweep") measured (now_auto,
 * now_from_us): both measure_from = auto, or both the same fixed
 * measure_from. 1 if so; else 0 with the message the gates refuse with in
 * err: "PATH: a baseline measured from each run's warm-up (measure_from =
 * auto); this run is measured from 0 (measure_from): compare runs measured
 * alike (...)". */
int baseline_measured_alike(const char *path, const char *noun, int old_auto,
                            uint64_t old_from_us, int now_auto, uint64_t now_from_us, char *err,
                            size_t errcap);

/* Compares res with b (baseline_load; messages name its path), the
 * figures g judges, each by baseline_judge: this run's value (with
 * samples, its median across them) against the baseline's band (with
 * samples, the range of its samples). This run's values are taken as the
 * JSON report writes them (baseline_as_written), so a report compared
 * with itself is the same at tolerance 0. Either side may have any number
 * of samples. Returns 0 with *out filled (free with
 * baseline_report_free), or -1 with a message in err: b is of another
 * scenario (its name or workload differ), or no scheme of this run is in
 * it, or nothing could be compared (every figure g judges that this run
 * defines is null or missing there), or out of memory. */
int baseline_compare(const baseline *b, const sim_results *res, const baseline_gate *g,
                     baseline_report *out, char *err, size_t errcap);

void baseline_report_free(baseline_report *r);

/* v as the JSON report writes it (reports/format.h's fmt_number:
 * integers whole, others to 6 significant digits), read back; NAN for an
 * undefined v. What a baseline's figure is compared with. */
double baseline_as_written(double v);

/* The one rule of every baseline (compare's and run's, a sweep's and a
 * merge's): figure f at now (a value, or a median across samples) against
 * the baseline's band old, widened at each edge by max(tol.relative x
 * |edge|, tol.absolute). Within it (edges included): BASELINE_SAME;
 * beyond it, BASELINE_CHANGED for a figure without a direction, else
 * BASELINE_REGRESSION or BASELINE_IMPROVEMENT by f->better. *limit (may
 * be NULL) gets the edge crossed (the upper one when the same). old's
 * fields and now must be finite, min <= median <= max. */
baseline_verdict baseline_judge(const figure *f, baseline_band old, double now,
                                baseline_tol tol, double *limit);

/* (now - old) / |old|; +INFINITY or -INFINITY when old is 0 (by the sign
 * of now; -INFINITY also when now is 0). */
double baseline_relative(double old, double now);

/* The change column of the tables: "+12.5%", or "from 0" for an infinite
 * relative change. Returns buf (cap bytes). */
const char *baseline_change_text(char *buf, size_t cap, double relative);

/* "same", "REGRESSION", "better" or "changed". */
const char *baseline_verdict_name(baseline_verdict v);

/* A change's columns after its scheme in the tables of compare and sweep:
 * figure, baseline (the median), range (min..max, or "-" for one
 * sample), allowed (the edge crossed: "<= 1.05", ">= 980"), now, change,
 * verdict. Into buf (cap); returns buf. */
const char *baseline_change_columns(char *buf, size_t cap, const figure *f, baseline_band old,
                                    double now, double limit, double relative,
                                    baseline_verdict verdict);

/* The header of those columns, into buf (cap); returns buf. */
const char *baseline_change_header(char *buf, size_t cap);

/* The comparison for a person when it failed or is asked for: one line
 * of totals ("baseline OLD.json: 21 figures compared, 1 regression (the
 * median of 5 samples against the range of the baseline's 5)"), then a
 * table of every change, regressions first. */
void baseline_write(FILE *out, const char *path, const baseline_report *r);

/* The one line of a comparison that passed: "21 figures within baseline
 * OLD.json". Into buf (cap); returns buf. */
const char *baseline_passed_text(char *buf, size_t cap, const char *path,
                                 const baseline_report *r);

#endif
