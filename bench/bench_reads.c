/* bench_reads.c -- what 10% reads cost, timed on the program a user runs
 * (issue 30: "reads near their floor").
 *
 * For every preset key scheme (workloads/keyscheme.c), or those named, it
 * runs the built binary (its path is the first argument; Meson passes it)
 * in child processes, as a user would:
 *     regionsim run --scheme S --duration D --samples 1 --measure-from 0s
 *         --read-fraction 0.1 (and 0)
 * REPS times each, interleaved (reads, writes-only, reads, ...), so that a
 * burst of load from another process hits both alike. Each run is measured
 * from outside: CPU seconds (user + system: wait4's rusage of that child,
 * start-up, set-up and the report included), wall seconds and peak RSS.
 * The operations a run made (writes + reads) are read from its report's
 * "N writes, M reads in" line (measured from 0s, so every operation the
 * run made), so a line's figures are per operation: the
 * median CPU time of the runs over their operations. It prints per scheme
 * the time an operation takes with 10% reads and writes-only, their ratio
 * against issue 30's target (within 2x; printed as pass or miss, not
 * enforced), and what one read costs, taking a write to cost what it does
 * writes-only (a tenth of the operations read: r = 0.9 w + 0.1 R).
 *
 * Trade-offs: whole processes, so the start-up and the report are in the
 * figures (a few milliseconds against the seconds of a run); CPU time, not
 * wall, as the runs are single-threaded (--samples 1) and wall time on a
 * shared machine would measure the others' load; the 1-minute load
 * average is printed before each scheme. Medians of REPS runs; with the
 * defaults (1h: 3.6 million operations a run, 12 schemes, 3 repetitions)
 * about 3 minutes on an idle 2-core machine.
 * Usage: bench_reads REGIONSIM [DURATION [REPS [SCHEME...]]] (defaults 1h,
 * 3, every preset).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/proc.h"
#include "workloads/keyscheme.h"

#define MAX_REPS PROC_MAX_REPS
#define READS_TARGET 2.0 /* issue 30: 10% reads within 2x writes-only */

typedef struct measure {
    double cpu, wall;
    long rss_kib;
    unsigned long long ops;
} measure;

/* A report line's operations: "N writes, M reads in" (one per scheme run;
 * one here), added to *ctx. */
static void count_ops(void *ctx, const char *line)
{
    unsigned long long w, r;
    if (sscanf(line, " %llu writes, %llu reads in", &w, &r) == 2)
        *(unsigned long long *)ctx += w + r;
}

/* Runs argv as a whole process (bench/proc.h), reading the operations it
 * made from its report. Returns 0, or -1 when it could not run, did not
 * exit 0 or reported no operations. */
static int run(char *const argv[], measure *m)
{
    proc_measure pm;
    m->ops = 0;
    if (proc_run_lines(argv, &pm, count_ops, &m->ops) < 0)
        return -1;
    m->wall = pm.wall;
    m->cpu = pm.user + pm.sys;
    m->rss_kib = pm.rss_kib;
    return m->ops > 0 ? 0 : -1;
}

static int run_or_say(char *const argv[], measure *m)
{
    if (run(argv, m) == 0)
        return 0;
    fprintf(stderr, "bench_reads: failed (or no \"N writes, M reads in\" line):");
    for (int i = 0; argv[i]; i++)
        fprintf(stderr, " %s", argv[i]);
    fprintf(stderr, "\n");
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n runs' CPU seconds per operation, in ns; *rss the median
 * peak RSS in MiB. */
static double median_ns(const measure *m, int n, double *rss)
{
    double v[MAX_REPS], r[MAX_REPS];
    for (int i = 0; i < n; i++) {
        v[i] = m[i].cpu / (double)m[i].ops * 1e9;
        r[i] = (double)m[i].rss_kib / 1024.0;
    }
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    qsort(r, (size_t)n, sizeof *r, cmp_double);
    *rss = r[n / 2];
    return v[n / 2];
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_reads REGIONSIM [DURATION [REPS [SCHEME...]]]\n");
        return 2;
    }
    char *bin = argv[1];
    char *duration = argc > 2 ? argv[2] : "1h";
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    if (reps < 1 || reps > MAX_REPS) {
        fprintf(stderr, "bench_reads: REPS must be 1..%d\n", MAX_REPS);
        return 2;
    }
    size_t nschemes = argc > 4 ? (size_t)(argc - 4) : keyscheme_preset_count();
    printf("bench_reads: %s run --duration %s --samples 1 --measure-from 0s, 10%% reads "
           "against writes-only; median of %d (CPU s of the process per operation)\n", bin,
           duration, reps);
    printf("%-16s %12s %12s %8s %10s %9s %9s %6s\n", "scheme", "ns/op reads", "ns/op writes",
           "x writes", "ns a read", "MiB reads", "MiB write", "load");
    int misses = 0;
    for (size_t si = 0; si < nschemes; si++) {
        char *scheme = argc > 4 ? argv[4 + si] : (char *)keyscheme_preset_name(si);
        char *reads[] = { bin, "run", "--scheme", scheme, "--duration", duration,
                          "--samples", "1", "--measure-from", "0s", "--read-fraction", "0.1",
                          "--size-scale", "2560", "--split-policy", "constant", NULL };
        char *writes[] = { bin, "run", "--scheme", scheme, "--duration", duration,
                           "--samples", "1", "--measure-from", "0s", "--read-fraction", "0",
                           "--size-scale", "2560", "--split-policy", "constant", NULL };
        measure mr[MAX_REPS], mw[MAX_REPS];
        double load = proc_load1();
        for (int i = 0; i < reps; i++)
            if (run_or_say(reads, &mr[i]) < 0 || run_or_say(writes, &mw[i]) < 0)
                return 1;
        double rss_r, rss_w;
        double r = median_ns(mr, reps, &rss_r), w = median_ns(mw, reps, &rss_w);
        int pass = r / w <= READS_TARGET;
        misses += !pass;
        printf("%-16s %12.1f %12.1f %7.2fx %10.0f %9.1f %9.1f %6.2f  %s\n", scheme, r, w, r / w,
               10 * r - 9 * w, rss_r, rss_w, load, pass ? "pass" : "MISS");
        fflush(stdout);
    }
    printf("target (issue 30; printed, not enforced): 10%% reads within %.0fx the writes-only "
           "time for every preset: %s (%d of %zu missed)\n", READS_TARGET,
           misses ? "MISS" : "pass", misses, nschemes);
    return 0;
}
