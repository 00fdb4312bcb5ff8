/* test_cli_progress.c -- the progress bars of `regionsim sweep` and
 * `regionsim advise` on a terminal (a pseudo-terminal) and off it.
 *
 * argv[1] is the built binary, argv[2] the source root (for examples/).
 * A bar shows once a command has run 1 s of wall time (cli/progress.c),
 * so each case runs its command for over a second, twice (on a terminal
 * and not): several seconds of CPU, in suite 'slow' (the default suite
 * checks compare's bar, in test_cli_files.c, and the tasks bar's drawing
 * in test_progress.c). Children run in the environment cli_support.h
 * sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support.h"

#include "tests/cli_support.h"

/* A bar of points done on stderr when it is a terminal (the sweep takes
 * over 1 s: examples/sweep-buckets.ini's 6 points on one thread, about
 * 1.7 s of CPU here), erased at the end; not a byte of it when stderr is
 * not one, and the report the same bytes either way. */
static void test_sweep_bar_only_on_a_terminal(void **state)
{
    (void)state;
    char file[600];
    snprintf(file, sizeof file, "%s/examples/sweep-buckets.ini", source_root);
    const char *args[] = { "sweep", file, "--jobs", "1", NULL };
    output tty = run_on_tty(2, &plain_env, args);
    assert_int_equal(tty.status, 0);
    assert_contains(tty.err, "regionsim: [");
    assert_contains(tty.err, "%  points ");
    assert_contains(tty.err, "/6");
    size_t n = strlen(tty.err);
    assert_true(n >= 4);
    assert_string_equal(tty.err + n - 4, "\r\x1b[K"); /* erased at the end */
    output plain = run("sweep", file, "--jobs", "1", NULL);
    assert_int_equal(plain.status, 0);
    assert_string_equal(plain.err, "");
    assert_true(strlen(plain.out) > 100);
    assert_string_equal(tty.out, plain.out);
    output_free(&tty);
    output_free(&plain);
}

/* advise: a bar of candidates simulated of those it will simulate (6:
 * the budget), on a terminal only, erased at the end; the report the same
 * bytes with and without it. 6 candidates of 30 minutes on one thread take
 * about 1.5 s of CPU (--no-check: the check's runs would take 20 times
 * that). */
static void test_advise_bar_only_on_a_terminal(void **state)
{
    (void)state;
    char file[600];
    snprintf(file, sizeof file, "%s/examples/advise-tsdb.ini", source_root);
    const char *args[] = { "advise", file, "--budget", "6", "--duration", "30m", "--jobs", "1",
                           "--no-check", NULL };
    output tty = run_on_tty(2, &plain_env, args);
    assert_int_equal(tty.status, 0);
    assert_contains(tty.err, "regionsim: [");
    assert_contains(tty.err, "%  candidates ");
    assert_contains(tty.err, "/6");
    size_t n = strlen(tty.err);
    assert_true(n >= 4);
    assert_string_equal(tty.err + n - 4, "\r\x1b[K");
    output plain = run("advise", file, "--budget", "6", "--duration", "30m", "--jobs", "1",
                       "--no-check", NULL);
    assert_int_equal(plain.status, 0);
    assert_string_equal(plain.err, "");
    assert_true(strlen(plain.out) > 100);
    assert_string_equal(tty.out, plain.out);
    output_free(&tty);
    output_free(&plain);
}

/* advise's check: a bar of its runs (2 candidates x 3 seeds x 3 regimes
 * = 18 of 15 minutes or more, about 4 s of CPU on one thread), after the
 * search's, on a terminal only; the report the same bytes without it. */
static void test_advise_check_bar_only_on_a_terminal(void **state)
{
    (void)state;
    char file[600];
    snprintf(file, sizeof file, "%s/examples/advise-tsdb.ini", source_root);
    const char *args[] = { "advise", file, "--budget", "2", "--jobs", "1", "--check-durations",
                           "2x", "--check-loads", "2x", NULL };
    output tty = run_on_tty(2, &plain_env, args);
    assert_int_equal(tty.status, 0);
    assert_contains(tty.err, "%  checking the pick ");
    assert_contains(tty.err, "/18");
    size_t n = strlen(tty.err);
    assert_true(n >= 4);
    assert_string_equal(tty.err + n - 4, "\r\x1b[K");
    output plain = run("advise", file, "--budget", "2", "--jobs", "1", "--check-durations", "2x",
                       "--check-loads", "2x", NULL);
    assert_int_equal(plain.status, 0);
    assert_string_equal(plain.err, "");
    assert_contains(plain.out, "check: does the pick hold? 2 of the front");
    assert_string_equal(tty.out, plain.out);
    output_free(&tty);
    output_free(&plain);
}

int main(int argc, char **argv)
{
    cli_args(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_bar_only_on_a_terminal),
        cmocka_unit_test(test_advise_bar_only_on_a_terminal),
        cmocka_unit_test(test_advise_check_bar_only_on_a_terminal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
