/* sweep_plan.h -- a sweep written out as independent jobs, for GNU
 * parallel or a Slurm job array (`regionsim sweep FILE --plan DIR`), and
 * read back (`regionsim merge DIR`, planners/sweep_merge.c).
 *
 * Part of the program, not of the sim library (like sweep_run.c).
 * docs/distributed.md describes the plan's layout for its users.
 */
#ifndef REGIONSIM_SWEEP_PLAN_H
#define REGIONSIM_SWEEP_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "scenario/sweep.h"

#define SWEEP_PLAN_VERSION 1
#define SWEEP_PLAN_SLURM_MAX_ARRAY 1000 /* Slurm's default MaxArraySize is 1001: indices 0..1000 */

typedef struct sweep_plan_options {
    const char *dir;             /* --plan DIR */
    const char *scenario;        /* the scenario's name at the first point (the report's) */
    const char *binary;          /* --binary PATH, or NULL: a copy of this program in DIR/bin */
    int slurm;                   /* --slurm: also DIR/sweep.sbatch */
    const char *const *args;     /* nargs / 2 pairs (KEY, VALUE): every job runs --KEY VALUE */
    size_t nargs;
} sweep_plan_options;

/* Writes the plan of sweep *sw (every point already checked by the
 * caller) into po->dir, which planners/plan_dir.h opens: made (its parent must
 * exist), or an existing empty directory that is yours alone, below
 * directories no one else can change. Inside: points/NNNN.ini (point p's
 * file: the sweep's text, a file it names by a relative path named by its
 * absolute one, and [sweep] holding that point's value of each variable),
 * results/ and logs/ (empty), bin/regionsim (this program's copy, unless
 * po->binary names the jobs' binary), jobs.txt (line p+1: the shell
 * command that runs point p into results/NNNN.json; every path in it
 * absolute), plan.json (the manifest merge reads) and, with po->slurm,
 * sweep.sbatch. Everything is built and every point's file read back
 * before anything is written; jobs.txt, plan.json and sweep.sbatch are
 * complete or absent. Returns 0, or -1 with "DIR: what was wrong" in err;
 * a failure once writing has begun removes what was written and says
 * "DIR: the plan is incomplete: why; nothing of it was kept (...)". */
int sweep_plan_write(const sweep *sw, const sweep_plan_options *po, char *err, size_t errcap);

/* The same with the signals of ints (cli/interrupts.h; NULL: none) held
 * while writing: one that comes meanwhile removes what was written, and
 * its number is returned (with the message in err; the signals still
 * held) for the caller to die of it (die_interrupted). */
struct interrupts;
int sweep_plan_write_held(const sweep *sw, const sweep_plan_options *po, struct interrupts *ints,
                          char *err, size_t errcap);

/* A plan's results read back (`regionsim merge`, planners/sweep_merge.c). */
typedef struct sweep_merge sweep_merge;
struct sweep_table;

/* Reads DIR/plan.json and every point's result into the table a local
 * `regionsim sweep` of the plan's file fills (every figure the very
 * double the point's job computed), into *out (freed with
 * sweep_merge_free). Returns 0, or -1 with *out NULL and one message in
 * err: the plan missing or malformed ("DIR/plan.json: ..."); else every
 * missing result named ("K of N results missing ...:\n  PATH (point P:
 * LABEL)" a line each, then "\nand " the first malformed one if any);
 * else the first malformed result (not one JSON document, or not a
 * point's result, or with no schemes) or one of another point or another
 * scenario (its "digest" not the plan's: scenario/sweep.h's
 * sweep_point_digest) ("PATH: point P (LABEL): what was wrong"). Every
 * file is read up to max_input bytes (reports/json_read.h); paths and
 * quoted text have their control bytes escaped. Files in DIR/results the
 * plan does not name are not read. */
int sweep_merge_read(const char *dir, uint64_t max_input, sweep_merge **out, char *err,
                     size_t errcap);

/* The merged table (owned by m; valid until sweep_merge_free). */
const struct sweep_table *sweep_merge_table(const sweep_merge *m);

/* Frees m and its table (NULL is allowed). */
void sweep_merge_free(sweep_merge *m);

/* Runs `regionsim merge DIR [--format F] [-o PATH]` (argv[1] is "merge"):
 * the report `regionsim sweep` prints for the plan's file, byte for byte,
 * from the plan's results. Returns 0, 1 (an assertion failed at some
 * point: each a line on stderr) or 2 (bad usage, or a result missing or
 * malformed: every missing point named; nothing on stdout). */
int merge_main(int argc, char **argv);

#endif
