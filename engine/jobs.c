/* jobs.c -- independent tasks on threads. See jobs.h. */
#include "engine/jobs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define JOBS_ERR 1280
#define JOBS_MAX_THREADS 1024

/* What the threads share: the work and the first failure. */
typedef struct pool {
    size_t n;
    jobs_task_fn task;
    void *ctx;
    pthread_mutex_t lock;  /* guards the fields below */
    size_t next;           /* the next task to run */
    size_t failed;         /* the lowest index that failed; n: none */
    char err[JOBS_ERR];    /* its message */
} pool;

/* Takes the next task, or returns 0 when there is none left or a task has
 * failed (no new task starts after a failure). */
static int take_task(pool *p, size_t *i)
{
    pthread_mutex_lock(&p->lock);
    int more = p->next < p->n && p->failed == p->n;
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
    while (take_task(p, &i)) {
        char err[JOBS_ERR] = "";
        if (p->task(p->ctx, i, err, sizeof err) < 0)
            record_failure(p, i, err);
    }
    return NULL;
}

int jobs_run(size_t n, uint32_t threads, jobs_task_fn task, void *ctx, char *err,
             size_t errcap)
{
    if (threads <= 1) {
        for (size_t i = 0; i < n; i++)
            if (task(ctx, i, err, errcap) < 0)
                return -1;
        return 0;
    }
    if (threads > JOBS_MAX_THREADS)
        threads = JOBS_MAX_THREADS;
    pool p = { n, task, ctx, PTHREAD_MUTEX_INITIALIZER, 0, n, "" };
    pthread_t *tids = malloc(threads * sizeof *tids);
    uint32_t started = 0;
    for (; tids && started < threads; started++)
        if (pthread_create(&tids[started], NULL, worker, &p) != 0)
            break;
    if (started == 0) /* no thread to be had: this one does the work */
        worker(&p);
    for (uint32_t t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    free(tids);
    pthread_mutex_destroy(&p.lock);
    if (p.failed == n)
        return 0;
    snprintf(err, errcap, "%s", p.err);
    return -1;
}
