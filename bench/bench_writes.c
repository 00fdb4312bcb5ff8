/* bench_writes.c -- simulated writes per second and memory per stored row.
 *
 * For each scheme (monotonic and salted by default; others may be named on
 * the command line) this runs the default scenario (8 servers, 1,000 series
 * writing once a second, 4 MiB regions) for exactly 10 million writes,
 * i.e. 10,000 simulated seconds, and prints:
 *   - simulated writes per second of wall time (the whole write path:
 *     workload, key encoding, routing, row store, splits, balancer);
 *   - the row stores' heap bytes per distinct row at the end (store_memory),
 *     against the design budget of key bytes + 16;
 *   - the process's peak resident set per distinct row.
 * Each scheme runs in a child process so that peak RSS is its own.
 * Usage: bench_writes [WRITES] [SCHEME...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"

typedef struct probe {
    uint64_t left;
    size_t store_bytes;
} probe;

/* Stops the run at the target write, measuring the stores on the way out. */
static int stop_at_target(void *ctx, uint64_t t_us, const record *rec, keyref key,
                          const cluster *c, uint32_t s)
{
    (void)t_us, (void)rec, (void)key, (void)s;
    probe *p = ctx;
    if (--p->left)
        return 0;
    for (size_t i = 0; i < regionmap_count(c->map); i++)
        p->store_bytes += store_memory(regionmap_get(c->map, i)->rows);
    return 1;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bench_scheme(const char *scheme, uint64_t writes)
{
    scenario sc;
    scenario_defaults(&sc);
    /* the regime its figures were measured in: 4 MiB constant splits
     * (examples/classroom.ini), not the default month's 10 GiB */
    char err[512];
    if (scenario_set(&sc, NULL, "size_scale", "2560", err, sizeof err) < 0)
        return 2;
    sc.split_policy = SPLIT_CONSTANT;
    const pattern_config *ts = &sc.workload.pattern;
    uint64_t per_s = (uint64_t)ts->metrics * ts->hosts; /* one per series per s */
    sc.workload.duration_us = (writes / per_s + 1) * 1000000ull;
    sc.nschemes = 0;
    scenario_add_scheme(&sc, NULL, scheme);
    if (scenario_validate(&sc, err, sizeof err) < 0) {
        fprintf(stderr, "bench_writes: %s\n", err);
        return 2;
    }
    probe p = { writes, 0 };
    engine_observer obs = { .on_op = stop_at_target, .ctx = &p };
    run_result r;
    double t0 = seconds_now();
    if (engine_run(&sc, 0, &obs, &r, err, sizeof err) < 0) {
        fprintf(stderr, "bench_writes: %s\n", err);
        return 2;
    }
    double wall = seconds_now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double rows = (double)r.rows;
    printf("%-10s %9llu writes %6.2f s %6.2f M writes/s  %9llu rows  key %4.1f B  "
           "store %5.1f B/row (budget %4.1f)  peak RSS %6.1f B/row  regions %llu\n",
           scheme, (unsigned long long)r.writes, wall, (double)r.writes / wall / 1e6,
           (unsigned long long)r.rows, r.key_bytes_mean, (double)p.store_bytes / rows,
           r.key_bytes_mean + 16, (double)ru.ru_maxrss * 1024.0 / rows,
           (unsigned long long)r.regions);
    run_result_free(&r);
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t writes = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000ull;
    if (writes == 0) {
        fprintf(stderr, "usage: bench_writes [WRITES] [SCHEME...]\n");
        return 2;
    }
    const char *defaults[] = { "monotonic", "salted" };
    const char **schemes = argc > 2 ? (const char **)argv + 2 : defaults;
    int n = argc > 2 ? argc - 2 : 2;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            int child_rc = bench_scheme(schemes[i], writes);
            fflush(stdout); /* _exit does not flush stdio */
            _exit(child_rc);
        }
        int status;
        if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0)
            rc = 1;
    }
    return rc;
}
