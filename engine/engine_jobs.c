/* engine_jobs.c -- every scheme of a scenario, several at once in threads.
 *
 * Runs are values (engine.h): a run owns everything it touches and nothing
 * is global, so the runs of a scenario's schemes can go side by side with
 * no locking at all between them. A pool of J threads (engine/jobs.h; scenario_jobs:
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
 * The samples of a scenario (engine_run_seeds) go the same way, one task
 * per (seed, scheme): seeds x schemes tasks keep every core busy to the
 * end instead of waiting, sample by sample, for each sample's slowest
 * scheme. Each finished run is handed over and freed in its task, so
 * nothing decides an outcome but the (seed, scheme) it belongs to.
 *
 * Trade-off: J runs are in memory at once, so the memory budget
 * (engine/budget.c) counts the J largest runs' working memory, not one.
 */
#include "engine/engine_impl.h"
#include "engine/budget.h"
#include "engine/jobs.h"

#include <assert.h>
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

/* One scheme's run: a jobs_task_fn over the scenario's schemes. */
typedef struct scheme_runs {
    const scenario *sc;
    const engine_observer *obs; /* the locked one when runs overlap, or NULL */
    run_result *runs;
} scheme_runs;

static int run_scheme(void *ctx, size_t i, char *err, size_t errcap)
{
    scheme_runs *w = ctx;
    return engine_run(w->sc, i, w->obs, &w->runs[i], err, errcap);
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
    locked_observer lo = { obs, PTHREAD_MUTEX_INITIALIZER };
    engine_observer shared = { obs && obs->on_op ? locked_on_op : NULL,
                               obs && obs->on_progress ? locked_on_progress : NULL, &lo };
    scheme_runs w = { sc, obs && jobs > 1 ? &shared : obs, runs };
    int rc = jobs_run(sc->nschemes, jobs, run_scheme, &w, err, errcap);
    pthread_mutex_destroy(&lo.lock);
    if (rc < 0)
        free_runs(sc, runs);
    return rc;
}

/* The runs of seeds from..to: task t is seed from + t / nschemes, scheme
 * t % nschemes. */
typedef struct seed_runs {
    const scenario *seeded;     /* to - from copies of sc, seed sc->seed + from + j */
    size_t nschemes;
    uint32_t from;
    const engine_seed_observer *obs;
    pthread_mutex_t lock;       /* around obs->on_progress */
} seed_runs;

/* An engine_observer's ctx for one task: which run it is. */
typedef struct seed_task {
    seed_runs *w;
    uint32_t k;
    size_t scheme;
} seed_task;

static void seed_on_progress(void *ctx, size_t run, size_t nruns, uint64_t done_us,
                             uint64_t total_us)
{
    (void)run;
    (void)nruns;
    seed_task *t = ctx;
    pthread_mutex_lock(&t->w->lock);
    t->w->obs->on_progress(t->w->obs->ctx, t->k, t->scheme, done_us, total_us);
    pthread_mutex_unlock(&t->w->lock);
}

static int run_seed_scheme(void *ctx, size_t i, char *err, size_t errcap)
{
    seed_runs *w = ctx;
    seed_task t = { w, w->from + (uint32_t)(i / w->nschemes), i % w->nschemes };
    const scenario *sc = &w->seeded[i / w->nschemes];
    engine_observer obs = { NULL, w->obs->on_progress ? seed_on_progress : NULL, &t };
    run_result run;
    char why[1024];
    if (engine_run(sc, t.scheme, w->obs->on_progress ? &obs : NULL, &run, why, sizeof why) < 0) {
        snprintf(err, errcap, "seed %llu: %s", (unsigned long long)sc->seed, why);
        return -1;
    }
    w->obs->on_run(w->obs->ctx, t.k, t.scheme, &run);
    run_result_free(&run);
    return 0;
}

/* The threads for n tasks of sc's seeds: --jobs, or the cores, up to n,
 * which may be more than sc's schemes (a run of one scheme still has its
 * seeds to share out). More runs of a scheme at once than sc has schemes
 * need their memory: the budget is asked for J runs of each scheme (the
 * list repeated J times, so its J largest are J of the largest scheme);
 * when that does not fit, or the list would pass SCENARIO_MAX_SCHEMES,
 * the threads are scenario_jobs(sc)'s, as for one sample. 0, or -1 with
 * the budget's message when not even that fits. */
static int seed_threads(const scenario *sc, size_t n, uint32_t *threads, char *err,
                        size_t errcap)
{
    scenario cores = *sc; /* scenario_jobs counts the cores up to the schemes */
    cores.nschemes = SCENARIO_MAX_SCHEMES;
    uint32_t want = scenario_jobs(&cores);
    if (want > n)
        want = (uint32_t)n;
    if (want > sc->nschemes && (size_t)want * sc->nschemes <= SCENARIO_MAX_SCHEMES) {
        scenario *admit = malloc(sizeof *admit);
        if (!admit)
            return engine_fail(err, errcap, "out of memory");
        *admit = *sc; /* borrows sc's strings */
        for (size_t i = 0; i < (size_t)want * sc->nschemes; i++)
            admit->schemes[i] = sc->schemes[i % sc->nschemes];
        admit->nschemes = (size_t)want * sc->nschemes;
        admit->jobs = want;
        char why[1024];
        int fits = budget_admit(admit, why, sizeof why) == 0;
        free(admit);
        if (fits) {
            *threads = want;
            return 0;
        }
    }
    *threads = scenario_jobs(sc);
    return budget_admit(sc, err, errcap);
}

int engine_run_seeds(const scenario *sc, uint32_t from, uint32_t to,
                     const engine_seed_observer *obs, char *err, size_t errcap)
{
    assert(to > from && obs && obs->on_run);
    uint32_t threads;
    if (seed_threads(sc, (size_t)(to - from) * sc->nschemes, &threads, err, errcap) < 0)
        return -1;
    scenario *seeded = malloc((size_t)(to - from) * sizeof *seeded);
    if (!seeded)
        return engine_fail(err, errcap, "out of memory");
    for (uint32_t k = from; k < to; k++) {
        seeded[k - from] = *sc; /* borrows sc's strings; nothing of it is freed */
        seeded[k - from].seed = sc->seed + k;
    }
    seed_runs w = { seeded, sc->nschemes, from, obs, PTHREAD_MUTEX_INITIALIZER };
    int rc = jobs_run((size_t)(to - from) * sc->nschemes, threads, run_seed_scheme, &w, err,
                      errcap);
    pthread_mutex_destroy(&w.lock);
    free(seeded);
    return rc;
}
