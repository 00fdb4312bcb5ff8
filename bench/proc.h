/* proc.h -- a command timed as a whole process, as a user's `time` sees it.
 *
 * The benchmarks that time the program (bench_compare, bench_lifetime)
 * run the built regionsim binary in a child and measure it from outside:
 * wall time on the monotonic clock, the child's own user and system CPU
 * and peak RSS (wait4's rusage: that child's, not the largest of all
 * children as RUSAGE_CHILDREN would be), and the bytes it wrote to stdout
 * (counted through a pipe, nothing stored). Its stderr is kept to a
 * bounded buffer, so a run that prints anything there (an allocator's
 * complaint, a warning) is seen.
 */
#ifndef REGIONSIM_BENCH_PROC_H
#define REGIONSIM_BENCH_PROC_H

#include <stddef.h>

#define PROC_MAX_REPS 15

typedef struct proc_measure {
    double wall, user, sys;     /* seconds */
    long rss_kib;               /* peak resident set, KiB */
    unsigned long long out_bytes;
    unsigned long long err_bytes; /* what it printed on stderr */
    char err_head[256];           /* the first bytes of it, NUL-terminated */
} proc_measure;

/* Runs argv (argv[0] the binary's path) and fills *m. Returns 0 when it
 * ran and exited 0, else -1 (and says so on stderr, with the command). */
int proc_run(char *const argv[], proc_measure *m);

/* proc_run, and each line the command writes to stdout (without its
 * newline; lines past 4 KiB cut) handed to on_line(ctx, line) as it comes,
 * for a benchmark that reads a figure from the report (bench_splits). */
int proc_run_lines(char *const argv[], proc_measure *m,
                   void (*on_line)(void *ctx, const char *line), void *ctx);

/* The median of n runs by wall time (that run's other figures are its
 * own); n is 1..PROC_MAX_REPS. */
proc_measure proc_median(const proc_measure *m, int n);

/* The 1-minute load average, or -1 when unknown. */
double proc_load1(void);

/* One line: what, wall, user, sys, peak MiB, output bytes (the columns of
 * proc_print_header). */
void proc_print_header(void);
void proc_print_line(const char *what, const proc_measure *m);

#endif
