/* progress.c -- the progress bar. See progress.h. */
#include "cli/progress.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BAR_COLS 30
#define SHOW_AFTER_S 1.0   /* quiet for runs shorter than this */
#define REDRAW_EVERY_S 0.1

/* Whether the terminal takes "\r" and "erase to end of line" (ESC [ K): a
 * terminal named "dumb" (Emacs shells, some CI consoles) or none at all
 * (TERM unset) does not, and would show the bar's escapes as text. */
static int terminal_can_redraw(void)
{
    const char *term = getenv("TERM");
    return term && term[0] && strcmp(term, "dumb") != 0;
}

void progress_init(progress *p, FILE *out, const scenario *sc)
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->sc = sc;
    p->nsamples = sc->samples;
    p->enabled = isatty(fileno(out)) && terminal_can_redraw();
    clock_gettime(CLOCK_MONOTONIC, &p->start);
}

static double seconds_since_start(const progress *p)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - p->start.tv_sec) + (double)(now.tv_nsec - p->start.tv_nsec) / 1e9;
}

/* The share of all the work done: the runs' shares of this sample, and
 * the samples before it. */
static double share_done(const progress *p, size_t nruns, uint32_t nsamples)
{
    double runs = 0;
    for (size_t i = 0; i < nruns && i < SCENARIO_MAX_SCHEMES; i++)
        runs += p->done[i];
    return ((double)p->sample + runs / (double)nruns) / (double)nsamples;
}

/* Whether to draw now: past the quiet second, and not within a tenth of
 * a second of the last drawing (which this one then is). */
static int time_to_draw(progress *p)
{
    double t = seconds_since_start(p);
    if (t < SHOW_AFTER_S || (p->shown && t - p->last_draw < REDRAW_EVERY_S))
        return 0;
    p->last_draw = t;
    p->shown = 1;
    return 1;
}

/* "\r\x1b[Kregionsim: [####------]  42%  " then the rest of the line. */
static void draw_bar(const progress *p, double share)
{
    int filled = (int)(share * BAR_COLS);
    if (filled > BAR_COLS)
        filled = BAR_COLS;
    char bar[BAR_COLS + 1];
    memset(bar, '#', (size_t)filled);
    memset(bar + filled, '-', (size_t)(BAR_COLS - filled));
    bar[BAR_COLS] = '\0';
    fprintf(p->out, "\r\x1b[Kregionsim: [%s] %3d%%  ", bar, (int)(share * 100));
}

void progress_init_tasks(progress *p, FILE *out, const char *noun, size_t total)
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->noun = noun;
    p->ntasks = total;
    p->enabled = total && isatty(fileno(out)) && terminal_can_redraw();
    if (p->enabled) {
        p->task_done = calloc(total, sizeof *p->task_done);
        p->enabled = p->task_done != NULL;
    }
    clock_gettime(CLOCK_MONOTONIC, &p->start);
}

void progress_task(progress *p, size_t i, double share)
{
    if (!p->enabled || !p->task_done || i >= p->ntasks)
        return;
    if (share > 1)
        share = 1;
    if (share > p->task_done[i]) {
        p->tasks_sum += share - p->task_done[i];
        p->tasks_finished += share == 1;
        p->task_done[i] = share;
    }
    if (!time_to_draw(p))
        return;
    double all = p->tasks_sum / (double)p->ntasks;
    draw_bar(p, all < 1 ? all : 1);
    fprintf(p->out, "%s %zu/%zu", p->noun, p->tasks_finished, p->ntasks);
    fflush(p->out);
}

void progress_seeds(progress *p, uint32_t from, uint32_t to, size_t nschemes)
{
    assert(to > from);
    p->sc = NULL;
    p->noun = "runs";
    p->ntasks = (size_t)(to - from) * nschemes;
    p->seeds_from = from;
    p->seeds_nschemes = nschemes;
    p->tasks_sum = 0;
    p->tasks_finished = 0;
    free(p->task_done);
    p->task_done = p->enabled && p->ntasks ? calloc(p->ntasks, sizeof *p->task_done) : NULL;
}

void progress_seed_update(void *ctx, uint32_t k, size_t scheme, uint64_t done_us,
                          uint64_t total_us)
{
    progress *p = ctx;
    if (k < p->seeds_from || scheme >= p->seeds_nschemes)
        return;
    progress_task(p, (size_t)(k - p->seeds_from) * p->seeds_nschemes + scheme,
                  total_us == 0 ? 0 : done_us < total_us ? (double)done_us / (double)total_us
                                                         : 1.0);
}

void progress_batch(void *ctx, size_t first)
{
    progress *p = ctx;
    p->batch_first = first;
}

void progress_update(void *ctx, size_t run, size_t nruns, uint64_t done_us, uint64_t total_us)
{
    progress *p = ctx;
    if (!p->enabled)
        return;
    assert(run < nruns && nruns <= SCENARIO_MAX_SCHEMES);
    if (!p->sc) { /* a tasks bar: the run is a task */
        progress_task(p, p->batch_first + run,
                      total_us == 0 ? 0 : done_us < total_us ? (double)done_us / (double)total_us
                                                             : 1.0);
        return;
    }
    if (total_us) {
        double run_share = done_us < total_us ? (double)done_us / (double)total_us : 1.0;
        if (run_share > p->done[run])
            p->done[run] = run_share;
    }
    if (!time_to_draw(p))
        return;
    const char *name = scenario_scheme_label(p->sc, run);
    char sample[48] = "";
    uint32_t nsamples = p->nsamples > 1 ? p->nsamples : 1;
    if (nsamples > 1)
        snprintf(sample, sizeof sample, "sample %u/%u ", (unsigned)p->sample + 1,
                 (unsigned)nsamples);
    if (total_us == 0) { /* a trace of unknown length: how far it has got */
        fprintf(p->out, "\r\x1b[Kregionsim: %sscheme %zu/%zu %.30s: %.1f min simulated",
                sample, run + 1, nruns, name, (double)done_us / 60e6);
    } else {
        draw_bar(p, share_done(p, nruns, nsamples));
        fprintf(p->out, "%sscheme %zu/%zu %.30s", sample, run + 1, nruns, name);
    }
    fflush(p->out);
}

void progress_sample(progress *p, uint32_t k)
{
    assert(k < (p->nsamples > 1 ? p->nsamples : 1));
    p->sample = k;
    memset(p->done, 0, sizeof p->done);
}

void progress_done(progress *p)
{
    if (p->shown) {
        fputs("\r\x1b[K", p->out);
        fflush(p->out);
        p->shown = 0;
    }
    free(p->task_done);
    p->task_done = NULL;
}
