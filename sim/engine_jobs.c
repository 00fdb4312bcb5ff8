/* engine_jobs.c -- every scheme of a scenario, several at once in threads.
 *
 * Runs are values (engine.h): a run owns everything it touches and nothing
 * is global, so the runs of a scenario's schemes can go side by side with
 * no locking at all between them. A small pool of J threads (scenario_jobs:
 * --jobs, or the cores available) takes the schemes in order from a shared
 * counter; each run writes only its own slot of the results, so the
 * results, and every report made from them, are the same bytes whatever J
 * is and however the threads interleave.
 *
 * What is shared is the caller's observer: a progress bar, a trace, a
 * check for interrupts. Those were written for one run at a time, so with
 * J > 1 every call into the observer is made under one mutex. Only one
 * thing else crosses threads: once a run fails, no new run starts, and the
 * error reported is the failed run with the lowest index: the one a
 * sequential run (J = 1, no threads at all) would have stopped at.
 *
 * Trade-off: J runs are in memory at once, so the memory budget
 * (sim/budget.c) counts the J largest runs' working memory, not one.
 */
#include "sim/engine_impl.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The caller's observer behind a mutex. */
typedef struct locked_observer {
    const engine_observer *inner;
    pthread_mutex_t lock;
} locked_observer;

static int locked_on_op(void *ctx, uint64_t t_us, const record *rec, keyref key,
                        const cluster *c, uint32_t server)
{
    locked_observer *lo = ctx;
    pthread_mutex_lock(&lo->lock);
    int stop = lo->inner->on_op(lo->inner->ctx, t_us, rec, key, c, server);
    pthread_mutex_unlock(&lo->lock);
    return stop;
}

static void locked_on_progress(void *ctx, size_t run, size_t nruns, uint64_t done_us,
                               uint64_t total_us)
{
    locked_observer *lo = ctx;
    pthread_mutex_lock(&lo->lock);
    lo->inner->on_progress(lo->inner->ctx, run, nruns, done_us, total_us);
    pthread_mutex_unlock(&lo->lock);
}

/* What the threads share: the work and the first failure. */
typedef struct pool {
    const scenario *sc;
    const engine_observer *obs; /* the locked one, or NULL */
    run_result *runs;
    pthread_mutex_t lock;       /* guards the fields below */
    size_t next;                /* the next scheme to run */
    size_t failed;              /* the lowest index that failed; nschemes: none */
    char err[1024];             /* its message */
} pool;

/* Takes the next scheme to run, or returns 0 when there is none left or a
 * run has failed (no new run starts after a failure). */
static int take_scheme(pool *p, size_t *i)
{
    pthread_mutex_lock(&p->lock);
    int more = p->next < p->sc->nschemes && p->failed == p->sc->nschemes;
    if (more)
        *i = p->next++;
    pthread_mutex_unlock(&p->lock);
    return more;
}

static void record_failure(pool *p, size_t i, const char *err)
{
    pthread_mutex_lock(&p->lock);
    if (i < p->failed) {
        p->failed = i;
        snprintf(p->err, sizeof p->err, "%s", err);
    }
    pthread_mutex_unlock(&p->lock);
}

static void *worker(void *arg)
{
    pool *p = arg;
    size_t i;
    while (take_scheme(p, &i)) {
        char err[1024] = "";
        if (engine_run(p->sc, i, p->obs, &p->runs[i], err, sizeof err) < 0)
            record_failure(p, i, err);
    }
    return NULL;
}

/* One run after the other on this thread, stopping at the first failure. */
static int run_in_turn(const scenario *sc, const engine_observer *obs, run_result *runs,
                       char *err, size_t errcap)
{
    for (size_t i = 0; i < sc->nschemes; i++)
        if (engine_run(sc, i, obs, &runs[i], err, errcap) < 0)
            return -1;
    return 0;
}

/* Frees every run (those that did not run or failed are empty). */
static void free_runs(const scenario *sc, run_result *runs)
{
    for (size_t i = 0; i < sc->nschemes; i++)
        run_result_free(&runs[i]);
}

int engine_run_schemes(const scenario *sc, const engine_observer *obs, run_result *runs,
                       char *err, size_t errcap)
{
    uint32_t jobs = scenario_jobs(sc);
    if (jobs <= 1) {
        if (run_in_turn(sc, obs, runs, err, errcap) == 0)
            return 0;
        free_runs(sc, runs);
        return -1;
    }

    locked_observer lo = { obs, PTHREAD_MUTEX_INITIALIZER };
    engine_observer shared = { obs && obs->on_op ? locked_on_op : NULL,
                               obs && obs->on_progress ? locked_on_progress : NULL, &lo };
    pool p = { sc, obs ? &shared : NULL, runs, PTHREAD_MUTEX_INITIALIZER, 0, sc->nschemes, "" };
    pthread_t threads[SCENARIO_MAX_SCHEMES];
    uint32_t started = 0;
    for (; started < jobs; started++)
        if (pthread_create(&threads[started], NULL, worker, &p) != 0)
            break;
    if (started == 0) /* no thread to be had: this one does the work */
        worker(&p);
    for (uint32_t t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    pthread_mutex_destroy(&p.lock);
    pthread_mutex_destroy(&lo.lock);
    if (p.failed == sc->nschemes)
        return 0;
    free_runs(sc, runs);
    snprintf(err, errcap, "%s", p.err);
    return -1;
}
