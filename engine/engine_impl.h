/* engine_impl.h -- what the engine's files share (not a public interface).
 *
 * engine.c runs the loop: setup, ticks (balancer, windows, clients, phases,
 * cluster events), collection of the results. engine_ops.c is what happens
 * to one operation: a write stored and served, a read planned, scanned and
 * scored. Both work on one run_state, which holds everything a run needs.
 */
#ifndef REGIONSIM_ENGINE_IMPL_H
#define REGIONSIM_ENGINE_IMPL_H

#include "core/balancer.h"
#include "engine/engine.h"
#include "engine/eventq.h"
#include "engine/fluid.h"
#include "engine/hbase_inputs.h"
#include "engine/history.h"
#include "engine/keyspace.h"
#include "engine/replies.h"
#include "engine/truth.h"
#include "workloads/keyscheme.h"
#include "workloads/pattern.h"
#include "workloads/rng.h"

/* Tick kinds; client and phase-end ticks carry their phase in the high
 * bits, so ticks left over from a finished phase are recognised. */
enum tick_kind { TICK_BALANCER = 1, TICK_WINDOW = 2, TICK_CLIENT = 3, TICK_PHASE_END = 4,
                 TICK_EVENT = 5, TICK_STATUS = 6, TICK_MEASURE = 7 };
#define TICK_KIND(k) ((k) & 0xff)
#define TICK_PHASE(k) ((k) >> 8)
#define PHASE_TICK(kind, phase) ((uint32_t)(kind) | (uint32_t)(phase) << 8)

/* Random streams of a run, one per consumer (see workloads/rng.h); phase i
 * draws its pattern from stream RNG_STREAM_PATTERN + i. */
enum { RNG_STREAM_KEYS = 1, RNG_STREAM_SERVICE = 2, RNG_STREAM_READS = 3,
       RNG_STREAM_BALANCER = 4, RNG_STREAM_SPLITS = 5, RNG_STREAM_KEYSPACE = 6,
       RNG_STREAM_FLUID = 7, RNG_STREAM_PATTERN = 16 };

#define RUN_LATENCY_SUB_BITS 7   /* 0.8% relative error */

#define MAX_WINDOWS 1000000u

/* HBase's ClusterStatusChore hands the balancer the cluster's metrics every
 * hbase.balancer.statusPeriod (HConstants: 60000 ms). */
#define STATUS_PERIOD_US 60000000ull

/* A server's counters when measuring began (measure_from), by server id. */
typedef struct server_baseline {
    uint64_t writes, reads, bytes, rows_scanned, rpcs, busy_us;
} server_baseline;

/* The open loop's operations fetched ahead (engine_ahead.c): how many,
 * and one of them. AHEAD_DEPTH is the steps cluster_prefetch_write takes
 * to reach into a write's store (four down the region map, two into the
 * store: cluster_prefetch_write);
 * 0 turns fetching ahead off (-DAHEAD_DEPTH=n to measure others). */
#ifndef AHEAD_DEPTH
#define AHEAD_DEPTH 6
#endif
#define AHEAD_RING 8 /* a power of two above AHEAD_DEPTH: the ring's slots */
_Static_assert(AHEAD_DEPTH < AHEAD_RING && (AHEAD_RING & (AHEAD_RING - 1)) == 0,
               "the ring holds the operation under way and AHEAD_DEPTH more");

/* Fewer regions than this and the open loop fetches nothing ahead: the
 * map's lines and the stores then mostly stay in cache, and the steps
 * cost more than they save (the monotonic 2h run, a few hundred regions:
 * 1.6 times the CPU with them). */
#ifndef AHEAD_MIN_REGIONS /* -DAHEAD_MIN_REGIONS=0 to check every run's output with it */
#define AHEAD_MIN_REGIONS 16384
#endif

typedef struct ahead_op {
    uint64_t rel;             /* pattern_next's time and record */
    record rec;
    record keyed_rec;         /* keyed: rec with the time and sequence number it was encoded at */
    uint8_t *key;             /* keyscheme_max_len bytes (run_state.ahead_keys) */
    size_t len;
    int keyed;                /* key holds keyed_rec's key (a write, a pure scheme) */
    int routed;               /* route is under way (keyed, and not too long a key) */
    cluster_ahead route;
} ahead_op;

typedef struct run_state {
    const scenario *sc;
    size_t scheme_index;      /* which of the scenario's schemes runs */
    uint64_t planned_us;      /* the phases' total duration; 0 if a trace runs to its end */
    keyscheme *scheme;
    keyencoder *encoder;
    hbase_inputs inputs;      /* the chores' phase and the start codes' epoch, from the seed */
    cluster *table;
    eventq ticks;
    /* the current phase */
    size_t phase;
    pattern *workload;
    uint32_t read_weight[QUERY_KINDS]; /* the phase's read mix (scenario_read_weights) */
    uint64_t read_weights;    /* their sum */
    double write_to_read;     /* share of the phase's writes the engine turns into reads:
                               * its read_fraction, or 0 when the pattern chooses its
                               * own reads (pattern_chooses_reads) */
    uint64_t phase_start_us, phase_end_us;   /* end: UINT64_MAX = when the pattern ends */
    uint64_t last_op_us;
    uint64_t phase_first_op_us, phase_ops; /* the phase's first operation's time, and how many */
    uint32_t clients_active;  /* closed loop: clients that have not found the trace exhausted */
    int have_op;              /* open loop: the next operation is ready ... */
    uint64_t t_op;            /* ... at this time ... */
    record op;                /* ... and is this */
    int ahead_on;             /* open loop: this phase fetches ahead (engine_ahead.c) */
    ahead_op ahead[AHEAD_RING]; /* a ring: the operation under way, then the fetched */
    unsigned ahead_head, ahead_n;    /* the first fetched and how many */
    const ahead_op *ahead_cur;       /* the operation under way's, or NULL */
    uint64_t ahead_splits;    /* the table's split count at which it has AHEAD_MIN_REGIONS
                               * regions (splits only add regions); UINT64_MAX: not ahead_on */
    uint8_t *ahead_keys;      /* the ring's key bytes */
    uint64_t end_us;          /* when the run ends: known once the last phase ends */
    rng service_rng;          /* exponential service times */
    rng reads_rng;            /* which operations are reads, and of what kind */
    rng balancer_rng;         /* the balancers' random choices */
    balancer *balancer;
    balancer_report *balancer_log; /* every balancer run, for the report */
    size_t nbalancer, balancer_cap;
    int measuring;            /* operations issued now count in the figures */
    uint64_t measure_from_us; /* since when (engine_start_measuring) */
    int warmup_done;          /* the warm-up has ended (engine_warmup.c) */
    server_baseline *baseline;/* per server id, from when measuring began */
    histogram latency;        /* of every operation */
    histogram read_latency;   /* of logical reads */
    int tracking;             /* some phase reads: keep the truth */
    int may_read;             /* some phase may read (a trace's gets count): window reads kept */
    truth written;            /* what the workload wrote, for scoring reads */
    uint8_t *key;             /* KEYSCHEME_MAX_KEY bytes: the key being written */
    replies replies;          /* reply times of operations not done yet */
    uint64_t done_measured;   /* replies that came from measure_from on (done/s) */
    plan read_plan;           /* reused by every read */
    uint64_t *window_reads;   /* the read under way: this window's read RPCs per server */
    history log;              /* regions that closed, and the timeline */
    keyspace_sampler keyspace;/* keys per window, for the key space heatmap */
    /* counters */
    uint64_t window;          /* current report window */
    uint32_t windows_cap;     /* windows the arrays have room for */
    uint64_t ops;
    uint64_t left_out;        /* trace operations past a phase's duration, never issued */
    uint64_t measured_ops;    /* operations issued since measure_from */
    uint64_t cell_overhead;
    uint32_t phase_value_bytes; /* the phase's value size (scenario_phase's value_bytes) */
    int write_service_known;  /* fixed service times: the last write's size and time */
    uint32_t write_service_bytes;
    uint64_t write_service_us;
    uint64_t key_bytes_sum, keys_written;
    size_t long_key;          /* a key over KEY_MAX_LEN bytes: its length, for the message */
    /* the weighted engine (engine_weighted.c) */
    uint64_t weight;          /* operations one simulated operation stands for; 1 per-op */
    int weighted;             /* 1: the weighted engine (even at weight 1: fluid queues) */
    fluid_server *fluid;      /* weighted: each server's fluid queue, by id */
    uint32_t nfluid;
    rng fluid_rng;            /* weighted: the M/G/1 waiting draws */
} run_state;

/* Writes what into err; returns -1. */
int engine_fail(char *err, size_t cap, const char *what);

/* Runs every scheme of sc into runs[0..nschemes) (zeroed by the caller),
 * scenario_jobs(sc) at a time in threads (engine_jobs.c), each watched by
 * obs (may be NULL; called under a mutex when runs overlap). Returns 0, or
 * -1 with the message of the lowest-indexed run that failed in err and
 * every run freed. */
int engine_run_schemes(const scenario *sc, const engine_observer *obs, run_result *runs,
                       char *err, size_t errcap);

/* Fetching ahead (engine_ahead.c). setup: the ring's key buffers (0, or
 * -1 out of memory); release frees them. phase: at a phase's start,
 * whether it fetches ahead, with an empty ring. pull: fetch_op's next
 * operation, as pattern_next's contract (the ring's first, or the
 * pattern's next). fill: before the open loop runs its operation (ahead_on
 * only), fetches up to AHEAD_DEPTH more and moves each fetched write's
 * route one step: called when engine_ahead_due (once the table has
 * AHEAD_MIN_REGIONS regions). key: the key the operation under way was encoded ahead
 * with, if rec (its record as engine_op has it) is what was encoded, else
 * NULL; with it, in *route, its route's cursor (for cluster_write_ahead),
 * or NULL. */
int engine_ahead_setup(run_state *st);
void engine_ahead_release(run_state *st);
void engine_ahead_phase(run_state *st, const phase *ph);
int engine_ahead_pull_ring(run_state *st, uint64_t *rel, record *rec);
void engine_ahead_fill(run_state *st);
const uint8_t *engine_ahead_key_ring(const run_state *st, const record *rec, size_t *len,
                                    const cluster_ahead **route);

/* pull and key inline where the ring is empty: a run that fetches nothing
 * ahead pays a test for them, not a call. */
static inline int engine_ahead_pull(run_state *st, uint64_t *rel, record *rec, char *err,
                                    size_t errcap)
{
    if (st->ahead_n)
        return engine_ahead_pull_ring(st, rel, rec);
    st->ahead_cur = NULL;
    return pattern_next(st->workload, rel, rec, err, errcap);
}

static inline const uint8_t *engine_ahead_key(const run_state *st, const record *rec,
                                              size_t *len, const cluster_ahead **route)
{
    *route = NULL;
    return st->ahead_cur ? engine_ahead_key_ring(st, rec, len, route) : NULL;
}

/* Whether the open loop fetches ahead now (ahead_on, and enough regions). */
static inline int engine_ahead_due(const run_state *st)
{
    return st->table->splits >= st->ahead_splits; /* UINT64_MAX when not ahead_on */
}

/* One operation at t_us: a generated write may become a read (the phase's
 * read_fraction); a trace's get is a read of its key. Sets *reply_us.
 * Returns 1 to stop (observer asked), 0 to go on, -1 out of memory, -2 a
 * key too long. */
int engine_op(run_state *st, run_result *out, uint64_t t_us, record *rec,
              const engine_observer *obs, uint64_t *reply_us);

/* From t on, operations count (measure_from, or the warm-up's end under
 * measure_from = auto): the servers' counters kept as a baseline to
 * subtract, latencies and the run's counts started over, the table's
 * regions, online servers and bytes noted (engine_warmup.c). */
void engine_start_measuring(run_state *st, run_result *out, uint64_t t_us);

/* Ends the warm-up at t if it has not ended and the table has a region per
 * online server; the caller calls it where the definition looks (at a
 * balancer run, at time 0, and with balancer = none after each operation
 * and each server that leaves). Under measure_from = auto, measuring starts
 * over there. */
void engine_warmup_check(run_state *st, run_result *out, uint64_t t_us);

/* At the end of a run (duration_us set): a warm-up that never ended is
 * recorded as the whole run (warmup_ended 0, each server's writes). */
void engine_warmup_finish(run_state *st, run_result *out);

/* Resolves the run's engine (scenario/weighting.h) once the table exists:
 * st->weight, and in weighted mode the fluid queues and the weight set on
 * the cluster and the key space sampler. obs: whether every operation is
 * watched. Returns 0, or -1 with a message in err (weighted asked of a
 * run that cannot be, or out of memory). */
int engine_weighted_setup(run_state *st, const engine_observer *obs, char *err, size_t errcap);

/* Weighted: ends every server's fluid window at t_us (a report window's
 * tick). */
void engine_weighted_window(run_state *st, uint64_t t_us);

/* Forgets the operations whose replies came by `now`, counting those that
 * came from measure_from on (done_measured): what is left at the end of
 * the run is the unfinished work. */
void engine_replies_done(run_state *st, uint64_t now);

#endif
