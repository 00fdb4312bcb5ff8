/* budget.h -- the memory a run will need, estimated before it starts, and
 * the most this process may use.
 *
 * A run's memory grows with its inputs: rows stored, servers, regions,
 * report windows, key buckets, names given UIDs, what reads are scored
 * against, operations waiting for replies. Every setting that drives them
 * passes validation one at a time, yet together they can ask for more than
 * the machine has, and the run would then fail (or be killed) minutes in.
 * budget_estimate computes, from the scenario alone (the same scenario
 * gives the same estimate on every machine), about what the run will
 * need; budget_limit_of finds what this process may use; budget_check
 * compares them and, when the run does not fit, names the part that is
 * too large and the settings that make it so. engine_run_all calls
 * budget_admit before it allocates anything for the run.
 *
 * The estimate is conservative but not absurd: each part is the memory
 * its data structure takes when full (capacity slack of growing arrays
 * included) for the most the scenario can make of it (every write a new
 * row unless the key scheme provably repeats rows; queues only where the
 * servers cannot keep up). docs/model.md (Memory) gives the formula.
 */
#ifndef REGIONSIM_BUDGET_H
#define REGIONSIM_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#include "scenario/scenario.h"

/* The parts of the estimate. */
typedef enum budget_part {
    BUDGET_STORE = 0,  /* rows in the region stores */
    BUDGET_IN_FLIGHT,  /* operations waiting for their replies, server queues */
    BUDGET_REGIONS,    /* regions: map, stores' fixed cost, balancer state, region log, timeline */
    BUDGET_SERVERS,    /* servers: queues, latency histograms, counters */
    BUDGET_WINDOWS,    /* per-window, per-server counters */
    BUDGET_KEYSPACE,   /* key samples per window, the key space heatmap */
    BUDGET_TRUTH,      /* what was written, for scoring reads */
    BUDGET_NAMES,      /* UID tables */
    BUDGET_BALANCER,   /* every balancer run's report */
    BUDGET_WORKLOAD,   /* the workload's own state (the jitter queue, a trace's buffers) */
    BUDGET_REPORT,     /* the report writers' scratch (the report goes to a temporary file) */
    BUDGET_PARTS
} budget_part;

/* An estimate in bytes (doubles: no overflow, whatever the settings). */
typedef struct budget_estimate {
    double bytes;                /* the whole run: the sum of the parts */
    double part[BUDGET_PARTS];
    /* What the parts count, for messages: */
    double rows;                 /* rows stored (the largest scheme's run) */
    double row_bytes;            /* bytes a stored row takes */
    double in_flight;            /* operations waiting at once, at most */
    double regions;              /* regions of the largest run */
    double servers;              /* servers the run can have had */
    double windows;              /* report windows */
    double key_buckets;          /* rows of the key space heatmap */
    double names;                /* names given UIDs */
    double tracked;              /* writes kept to score reads */
    double entity_ids;           /* entity ids the truth of reads has a slot for */
    double balancer_runs;
    double series;               /* the jitter queue's series */
    uint32_t jobs;               /* runs in memory at once (scenario_jobs): their work adds up */
    int store_kind;              /* pattern_kind of the phase that stores the most; -1: none */
    int store_closed;            /* that phase is a closed loop */
    uint32_t sample_keys;        /* the store is sampled, this many rows a region; 0: exact */
} budget_estimate;

/* Estimates what running every scheme of sc (which passed
 * scenario_validate) needs: the largest scheme's run while it runs (with
 * jobs > 1, the largest `jobs` runs together: scenario_jobs), plus every
 * scheme's results, which are kept for the report. Deterministic: it
 * depends on the scenario (and the sizes and last lines of the trace and
 * split key files it names) only, and with jobs = 0 on the cores
 * available. Never fails; a scheme that does not
 * parse adds nothing (the run reports it). */
void budget_estimate_run(const scenario *sc, budget_estimate *out);

/* Where a memory limit comes from. */
typedef enum budget_source {
    BUDGET_NO_LIMIT = 0,
    BUDGET_MAX_MEMORY,           /* the max_memory setting (--max-memory) */
    BUDGET_ULIMIT_V,             /* RLIMIT_AS (ulimit -v) */
    BUDGET_ULIMIT_D,             /* RLIMIT_DATA (ulimit -d) */
    BUDGET_PHYSICAL,             /* the machine's physical memory */
} budget_source;

typedef struct budget_limit {
    uint64_t bytes;              /* the limit; UINT64_MAX with BUDGET_NO_LIMIT */
    uint64_t in_use;             /* what the process uses of it already (address
                                  * space for ulimit -v, data for ulimit -d; 0 otherwise) */
    budget_source source;
} budget_limit;

/* The smallest of sc->max_memory (0: not set), RLIMIT_AS, RLIMIT_DATA
 * (their soft limits) and the physical memory (sysconf _SC_PHYS_PAGES x
 * _SC_PAGESIZE). in_use is read from /proc/self/statm where there is one
 * (0 otherwise). */
budget_limit budget_limit_of(const scenario *sc);

/* Returns 0 if the estimate fits the limit (estimate + in_use <= bytes),
 * else -1 with a message in err naming about what the run would need and
 * for what, the limit and where it comes from, and the settings to change,
 * e.g. "the run would need about 118 GiB (4000000000 rows of about 30 B in
 * the store): more than the 4 GiB this process may use (ulimit -v); lower
 * --rate or --duration". */
int budget_check(const budget_estimate *e, const budget_limit *lim, char *err, size_t errcap);

/* budget_estimate_run, budget_limit_of and budget_check together: 0 if sc
 * may run, -1 with the message in err if it may not. A run refused with
 * the exact store (store = exact, or auto left unresolved, which runs
 * exact) that would fit with the sampled one is told to use --store
 * sampled first. */
int budget_admit(const scenario *sc, char *err, size_t errcap);

/* Resolves sc->store = auto (STORE_MODE_AUTO): exact if the run's estimate
 * with the exact store, one scheme at a time, fits the limit, else
 * sampled, setting sc->store_auto when it chose sampled; sets *exact_bytes
 * (if not NULL) to that estimate. The choice does not depend on --jobs or
 * the cores. Other modes are left as they are. Never fails: whether the
 * run then fits is budget_admit's to say. */
void budget_resolve_store(scenario *sc, double *exact_bytes);

/* When scenario_jobs(sc) schemes running at once would not fit the limit,
 * lowers sc->jobs to the most that fit (at least 1) and returns it; else
 * returns 0 and leaves sc as it is. The output is the same whatever the
 * jobs; only the memory at once and the wall time change. */
uint32_t budget_fit_jobs(scenario *sc);

/* bytes in binary units with three significant digits ("118 GiB",
 * "4 GiB", "1.5 MiB", "30 B") into out (cap bytes). */
void budget_format_size(double bytes, char *out, size_t cap);

#endif
