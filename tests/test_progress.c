/* test_progress.c -- the progress bar: drawn only on a terminal that can
 * redraw a line, quiet on pipes, files and TERM=dumb. The bar is drawn on a
 * pseudo-terminal made here; the start time is moved back instead of
 * waiting, so the one-second quiet period is passed without sleeping. */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/progress.h"
#include "scenario/scenario.h"

typedef struct tty_pair {
    int master;
    FILE *slave;
} tty_pair;

static tty_pair open_tty(void)
{
    tty_pair t;
    t.master = posix_openpt(O_RDWR | O_NOCTTY);
    assert_true(t.master >= 0);
    assert_int_equal(grantpt(t.master), 0);
    assert_int_equal(unlockpt(t.master), 0);
    const char *name = ptsname(t.master);
    assert_non_null(name);
    t.slave = fopen(name, "w");
    assert_non_null(t.slave);
    return t;
}

/* Everything written to the terminal so far (non-blocking read). */
static size_t read_tty(const tty_pair *t, char *buf, size_t cap)
{
    int flags = fcntl(t->master, F_GETFL);
    fcntl(t->master, F_SETFL, flags | O_NONBLOCK);
    size_t n = 0;
    ssize_t got;
    while (n + 1 < cap && (got = read(t->master, buf + n, cap - 1 - n)) > 0)
        n += (size_t)got;
    buf[n] = '\0';
    return n;
}

static void close_tty(tty_pair *t)
{
    fclose(t->slave);
    close(t->master);
}

/* One update halfway through a run that started two seconds ago, then done. */
static void draw_once(FILE *out, const scenario *sc)
{
    progress p;
    progress_init(&p, out, sc);
    p.start.tv_sec -= 2;
    progress_update(&p, 0, 1, 50, 100);
    progress_done(&p);
    fflush(out);
}

static void test_bar_on_a_terminal(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    sc.samples = 1; /* one sample's bar (the default runs several) */
    setenv("TERM", "xterm-256color", 1);
    tty_pair t = open_tty();
    draw_once(t.slave, &sc);
    char buf[4096];
    read_tty(&t, buf, sizeof buf);
    assert_non_null(strstr(buf, "regionsim: ["));
    assert_non_null(strstr(buf, " 50%"));
    assert_non_null(strstr(buf, "\x1b[K")); /* erased when done */
    close_tty(&t);
    scenario_release(&sc);
}

/* With samples the bar covers them all: halfway through the only run of
 * the second of four samples is 3/8 of the way, and the line says which. */
static void test_bar_counts_samples(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    sc.samples = 4;
    setenv("TERM", "xterm-256color", 1);
    tty_pair t = open_tty();
    progress p;
    progress_init(&p, t.slave, &sc);
    p.start.tv_sec -= 2;
    progress_sample(&p, 1);
    progress_update(&p, 0, 1, 50, 100);
    progress_done(&p);
    fflush(t.slave);
    char buf[4096];
    read_tty(&t, buf, sizeof buf);
    assert_non_null(strstr(buf, " 37%  sample 2/4 scheme 1/1 "));
    close_tty(&t);
    scenario_release(&sc);
}

/* Runs at once (--jobs): each run's share counts, whichever reported last;
 * a run never goes back. Halfway through the first of two and done with
 * the second is 75%. */
static void test_bar_adds_overlapping_runs(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    sc.samples = 1; /* one sample's bar (the default runs several) */
    setenv("TERM", "xterm-256color", 1);
    tty_pair t = open_tty();
    progress p;
    progress_init(&p, t.slave, &sc);
    p.start.tv_sec -= 2;
    progress_update(&p, 1, 2, 100, 100);
    p.last_draw = -1; /* draw every update */
    progress_update(&p, 0, 2, 50, 100);
    p.last_draw = -1;
    progress_update(&p, 0, 2, 40, 100); /* an older report of run 0 changes nothing */
    progress_done(&p);
    fflush(t.slave);
    char buf[8192];
    read_tty(&t, buf, sizeof buf);
    const char *last = NULL;
    for (const char *q = strstr(buf, "%  scheme"); q; q = strstr(q + 1, "%  scheme"))
        last = q;
    assert_non_null(last);
    assert_true(last - buf >= 3 && !strncmp(last - 3, " 75%  scheme 1/2", 16));
    close_tty(&t);
    scenario_release(&sc);
}

/* A tasks bar (a sweep's points, advise's candidates): the tasks' shares
 * added up, the finished ones counted; a batch's runs are tasks from its
 * first on; a task past the total is ignored. */
static void test_tasks_bar(void **state)
{
    (void)state;
    setenv("TERM", "xterm-256color", 1);
    tty_pair t = open_tty();
    progress p;
    progress_init_tasks(&p, t.slave, "points", 4);
    p.start.tv_sec -= 2;
    progress_task(&p, 2, 1.0);
    p.last_draw = -1;
    progress_task(&p, 0, 0.5);
    p.last_draw = -1;
    progress_task(&p, 0, 0.25); /* never goes back */
    p.last_draw = -1;
    progress_task(&p, 7, 1.0);  /* no such task */
    progress_done(&p);
    fflush(t.slave);
    char buf[8192];
    read_tty(&t, buf, sizeof buf);
    assert_non_null(strstr(buf, " 25%  points 1/4"));
    const char *last = NULL;
    for (const char *q = strstr(buf, "%  points"); q; q = strstr(q + 1, "%  points"))
        last = q;
    assert_true(last - buf >= 3 && !strncmp(last - 3, " 37%  points 1/4", 16));
    assert_int_equal(strcmp(buf + strlen(buf) - 4, "\r\x1b[K"), 0);
    /* runs of a batch: run 1 of the batch starting at candidate 2 is candidate 3 */
    progress_init_tasks(&p, t.slave, "candidates", 4);
    p.start.tv_sec -= 2;
    progress_batch(&p, 2);
    progress_update(&p, 1, 2, 100, 100);
    p.last_draw = -1;
    progress_batch(&p, 0);
    progress_update(&p, 0, 2, 50, 100);
    progress_done(&p);
    fflush(t.slave);
    read_tty(&t, buf, sizeof buf);
    assert_non_null(strstr(buf, " 25%  candidates 1/4"));
    assert_non_null(strstr(buf, " 37%  candidates 1/4"));
    close_tty(&t);
    /* not a terminal: nothing, and nothing to free */
    FILE *f = tmpfile();
    assert_non_null(f);
    progress_init_tasks(&p, f, "points", 4);
    assert_false(p.enabled);
    p.start.tv_sec -= 2;
    progress_task(&p, 0, 1.0);
    progress_done(&p);
    assert_int_equal(ftell(f), 0);
    fclose(f);
}

/* TERM=dumb, or no TERM: the terminal would print the escapes as text. */
static void test_no_bar_on_a_dumb_terminal(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    const char *terms[] = { "dumb", "", NULL };
    for (size_t i = 0; i < 3; i++) {
        if (terms[i])
            setenv("TERM", terms[i], 1);
        else
            unsetenv("TERM");
        tty_pair t = open_tty();
        draw_once(t.slave, &sc);
        char buf[4096];
        assert_int_equal(read_tty(&t, buf, sizeof buf), 0);
        close_tty(&t);
    }
    scenario_release(&sc);
}

static void test_no_bar_on_a_file(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    setenv("TERM", "xterm-256color", 1);
    FILE *f = tmpfile();
    assert_non_null(f);
    draw_once(f, &sc);
    assert_int_equal(ftell(f), 0);
    fclose(f);
    scenario_release(&sc);
}

int main(void)
{
    setenv("LC_ALL", "C", 1);
    setenv("TZ", "UTC", 1);
    unsetenv("NO_COLOR");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bar_on_a_terminal),
        cmocka_unit_test(test_bar_counts_samples),
        cmocka_unit_test(test_bar_adds_overlapping_runs),
        cmocka_unit_test(test_tasks_bar),
        cmocka_unit_test(test_no_bar_on_a_dumb_terminal),
        cmocka_unit_test(test_no_bar_on_a_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
