/* bench_lifetime.c -- a table's real lifetime at HBase's own sizes, timed
 * as a user runs it (issue 30's targets).
 *
 * Two workloads, each scheme on its own (`regionsim run --scheme S
 * --samples 1`, so one process is one run on one core):
 *   1. the default workload (1,000 series writing once a second on 8
 *      servers) for 30 days at HBase's sizes (10 GiB regions, 128 MiB
 *      flushes, SteppingSplitPolicy: named on the command line, so the
 *      benchmark measures that regime whatever the defaults), for every
 *      preset scheme;
 *   2. bench/tsdb-lifetime.ini: a 20-server OpenTSDB table, 5,000
 *      series every 10 s for 90 days, its two schemes, writes only (the
 *      issue's target), then with the file's 0.1% dashboard reads,
 *      reported beside them: reads keep the weight at 8 or less
 *      (scenario/weighting.h: their rows scanned grow with the weight),
 *      so a read workload's lifetime takes minutes, not seconds.
 * Each is timed from outside (bench/proc.h): wall, CPU, peak RSS, and
 * what it printed on stderr, which must be nothing. The target (printed,
 * not enforced: speed targets live in benchmarks, not tests) is each run
 * under 10 s of CPU on one core.
 *
 * Usage: bench_lifetime REGIONSIM SOURCE_ROOT [REPS] (REPS runs of each,
 * the median shown; 1 by default: a run at per-operation speed takes
 * minutes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/proc.h"
#include "scenario/weighting.h" /* WEIGHT_READS_MAX, for the message */

#define TARGET_CPU_S 10.0

static const char *const presets[] = {
    "monotonic", "salted", "hashed", "reversed", "promoted", "revts", "md5", "opentsdb",
    "opentsdb-salted", "revdomain", "seq", "seq-reversed",
};

/* Runs argv reps times; prints the median's line with the target's
 * verdict. Returns 0, 1 when a run missed the target or printed on
 * stderr, -1 when a run failed. */
static int time_one(const char *what, char *const argv[], int reps)
{
    proc_measure m[PROC_MAX_REPS] = { { 0 } };
    for (int i = 0; i < reps; i++)
        if (proc_run(argv, &m[i]) < 0)
            return -1;
    proc_measure med = proc_median(m, reps);
    proc_print_line(what, &med);
    double cpu = med.user + med.sys;
    int quiet = 1;
    for (int i = 0; i < reps; i++)
        if (m[i].err_bytes) {
            printf("  stderr (%llu bytes): %s\n", m[i].err_bytes, m[i].err_head);
            quiet = 0;
        }
    printf("  target: under %.0f s of CPU on one core: %.2f s %s\n", TARGET_CPU_S, cpu,
           cpu < TARGET_CPU_S ? "pass" : "MISS");
    return cpu < TARGET_CPU_S && quiet ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: bench_lifetime REGIONSIM SOURCE_ROOT [REPS]\n");
        return 2;
    }
    char *bin = argv[1];
    int reps = argc > 3 ? atoi(argv[3]) : 1;
    if (reps < 1 || reps > PROC_MAX_REPS) {
        fprintf(stderr, "bench_lifetime: REPS must be 1..%d\n", PROC_MAX_REPS);
        return 2;
    }
    char tsdb[4096];
    snprintf(tsdb, sizeof tsdb, "%s/bench/tsdb-lifetime.ini", argv[2]);
    printf("bench_lifetime: %s; load average %.2f\n", bin, proc_load1());
    proc_print_header();
    int missed = 0;
    for (size_t i = 0; i < sizeof presets / sizeof *presets; i++) {
        char *run[] = { bin, "run", "--scheme", (char *)presets[i], "--samples", "1",
                        "--duration", "30d", "--size-scale", "1", "--split-policy", "stepping",
                        NULL };
        char what[128];
        snprintf(what, sizeof what, "default, 30 d at HBase's sizes: %s", presets[i]);
        int rc = time_one(what, run, reps);
        if (rc < 0)
            return 1;
        missed += rc;
    }
    const char *tsdb_schemes[] = { "opentsdb", "opentsdb-salted" };
    for (size_t i = 0; i < 2; i++) {
        char *run[] = { bin, "run", tsdb, "--scheme", (char *)tsdb_schemes[i], "--samples", "1",
                        "--read-fraction", "0", NULL };
        char what[128];
        snprintf(what, sizeof what, "tsdb-lifetime.ini, 90 d, 20 servers: %s", tsdb_schemes[i]);
        int rc = time_one(what, run, reps);
        if (rc < 0)
            return 1;
        missed += rc;
    }
    printf("%d of %zu runs missed the target or printed on stderr (load average %.2f)\n",
           missed, sizeof presets / sizeof *presets + 2, proc_load1());
    printf("with the file's 0.1%% reads (no target: reads keep the weight at %d or less):\n",
           WEIGHT_READS_MAX);
    for (size_t i = 0; i < 2; i++) {
        char *run[] = { bin, "run", tsdb, "--scheme", (char *)tsdb_schemes[i], "--samples", "1",
                        NULL };
        char what[128];
        snprintf(what, sizeof what, "tsdb-lifetime.ini with reads: %s", tsdb_schemes[i]);
        if (time_one(what, run, reps) < 0)
            return 1;
    }
    return 0;
}
