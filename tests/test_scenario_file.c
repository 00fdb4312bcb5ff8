/* test_scenario_file.c -- scenario/scenario_file.c, the scenario file reader:
 * paths relative to the file, what it refuses (a directory, endless files,
 * long lines, continuation lines, control bytes, too many schemes), its
 * section headers and the [assert] and [advise] sections. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/scenario_support.h"

static void test_trace_path_is_relative_to_the_file(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    assert_int_equal(load("[workload]\ntrace = ops.csv\n", &sc, err, sizeof err), 0);
    assert_string_equal(sc.workload.pattern.trace_path, "/tmp/ops.csv");
    assert_int_equal(sc.workload.pattern.kind, PATTERN_TRACE);
    scenario_release(&sc);
    assert_int_equal(load("[workload]\ntrace = /data/x.tsv\n", &sc, err, sizeof err), 0);
    assert_string_equal(sc.workload.pattern.trace_path, "/data/x.tsv");
    scenario_release(&sc);
}

static void assert_no_control_bytes(const char *text)
{
    for (const char *p = text; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            fail_msg("'%s' holds the control byte 0x%02x", text, (unsigned char)*p);
}

/* A directory is not a scenario: it used to read as an empty file (and
 * run the default scenario). */
static void test_load_a_directory_is_refused(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    scenario_defaults(&sc);
    assert_int_equal(scenario_load(&sc, "/tmp/", err, sizeof err), -1);
    assert_string_equal(err, "/tmp/: is a directory; expected a scenario file");
    scenario_release(&sc);
}

/* Reading stops at the first error: /dev/zero used to be read forever (its
 * first "line too long" reported, the rest read on); a NUL byte is called
 * one, not a long line. */
static void test_load_stops_at_the_first_error(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    alarm(20); /* the old reader never returned */
    scenario_defaults(&sc);
    assert_int_equal(scenario_load(&sc, "/dev/zero", err, sizeof err), -1);
    assert_string_equal(err, "/dev/zero:1: NUL byte at column 1: expected text (is this a "
                        "scenario file?)");
    scenario_release(&sc);
    alarm(0);

    const char *path = scenario_file("seed = 1\n[cluster]\n");
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fputs("servers = 3", f);
    fputc('\0', f);
    fputs("\n", f);
    fclose(f);
    scenario_defaults(&sc);
    assert_int_equal(scenario_load(&sc, path, err, sizeof err), -1);
    assert_contains(err, ":3: NUL byte at column 12");
    scenario_release(&sc);
    unlink(path);

    /* the first error is the one reported, even when a later line is a
     * handler's error and the earlier one inih's */
    assert_int_equal(load("junk\n[cluster]\nservers = x\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":1: expected '[section]' or 'key = value', found 'junk'");
    scenario_release(&sc);
}

/* A file or stream without end is refused after SCENARIO_MAX_LINES. */
static void test_load_refuses_endless_files(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    const char *path = scenario_file("");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < 100000; i++)
        fputs("; a comment\n", f);
    fclose(f);
    scenario_defaults(&sc);
    assert_int_equal(scenario_load(&sc, path, err, sizeof err), 0); /* 100000: fine */
    scenario_release(&sc);
    f = fopen(path, "a");
    assert_non_null(f);
    fputs("\n", f);
    fclose(f);
    scenario_defaults(&sc);
    assert_int_equal(scenario_load(&sc, path, err, sizeof err), -1);
    assert_contains(err, ":100001: more than 100000 lines");
    scenario_release(&sc);
    unlink(path);
}

/* The longest line inih can hand over is 198 characters (its buffer is
 * 200 bytes with the line end and a NUL), with "\n" or "\r\n". */
static void test_load_line_length_limit(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG], line[260];
    memset(line, 'x', sizeof line);
    memcpy(line, "name = ", 7);
    strcpy(line + 198, "\r\n");
    assert_int_equal(load(line, &sc, err, sizeof err), 0);
    assert_int_equal(strlen(sc.name), 198 - 7);
    scenario_release(&sc);
    strcpy(line + 198, "x\n"); /* 199 characters */
    assert_int_equal(load(line, &sc, err, sizeof err), -1);
    assert_contains(err, ":1: line too long: expected at most 198 characters");
    scenario_release(&sc);
}

/* A section header without its ']' is blamed on its own line, not on the
 * next key; text after the ']' is refused, a comment allowed. */
static void test_load_section_headers(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    assert_int_equal(load("[cluster\nservers = 3\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":1: expected ']' to end the section header, found '[cluster'");
    scenario_release(&sc);
    assert_int_equal(load("\n[cluster ; a comment]\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":2: expected ']'");
    scenario_release(&sc);
    assert_int_equal(load("[cluster] servers = 3\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":1: unexpected 'servers = 3' after the section header");
    scenario_release(&sc);
    assert_int_equal(load("[cluster]   ; the cluster\nservers = 3\n", &sc, err, sizeof err), 0);
    assert_int_equal(sc.servers, 3);
    scenario_release(&sc);
    /* Section names are kept whole: inih cuts them to 49 characters, which
     * made two long scheme names one. */
    assert_int_equal(load("[scheme a-scheme-name-longer-than-what-inih-keeps-of-it-1]\nkey = ts\n"
                          "[scheme a-scheme-name-longer-than-what-inih-keeps-of-it-2]\nkey = seq\n",
                          &sc, err, sizeof err), 0);
    assert_int_equal(sc.nschemes, 2);
    assert_string_equal(scenario_scheme_label(&sc, 1),
                        "a-scheme-name-longer-than-what-inih-keeps-of-it-2");
    scenario_release(&sc);
}

/* A 65th [scheme] section is "too many", not "a second 'key'". */
static void test_load_too_many_schemes(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG], *text = malloc(65 * 32);
    assert_non_null(text);
    text[0] = '\0';
    for (int i = 1; i <= 65; i++)
        sprintf(text + strlen(text), "[scheme s%d]\nkey = ts\n", i);
    assert_int_equal(load(text, &sc, err, sizeof err), -1);
    assert_contains(err, ":129: too many schemes: at most 64 [scheme NAME] sections");
    scenario_release(&sc);
    text[strlen(text) - strlen("[scheme s65]\nkey = ts\n")] = '\0';
    assert_int_equal(load(text, &sc, err, sizeof err), 0);
    assert_int_equal(sc.nschemes, 64);
    scenario_release(&sc);
    free(text);
}

/* [assert NAME]: expect = TEXT, stored as written with its FILE:LINE (the
 * text is parsed by reports/assertion.h, not here); --assert adds. */
static void test_load_assert_sections(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    scenario_defaults(&sc);
    const char *path = scenario_file("[scheme salted]\n"
                                     "key = salted\n"
                                     "[assert hotspot]\n"
                                     "; CI: fail when the writes concentrate\n"
                                     "expect = write_max_mean <= 1.2 for salted ; a comment\n"
                                     "[assert tail]\n"
                                     "expect: p99_latency_us < 50000 over last 10m\n"
                                     "[assert not parsed here]\n"
                                     "expect = whatever the text\n");
    assert_int_equal(scenario_load(&sc, path, err, sizeof err), 0);
    assert_int_equal(sc.nassertions, 3);
    assert_string_equal(sc.assertions[0].name, "hotspot");
    assert_string_equal(sc.assertions[0].text, "write_max_mean <= 1.2 for salted");
    char origin[256];
    snprintf(origin, sizeof origin, "%s:5", path);
    assert_string_equal(sc.assertions[0].origin, origin);
    assert_string_equal(sc.assertions[1].name, "tail");
    assert_string_equal(sc.assertions[1].text, "p99_latency_us < 50000 over last 10m");
    snprintf(origin, sizeof origin, "%s:7", path);
    assert_string_equal(sc.assertions[1].origin, origin);
    assert_string_equal(sc.assertions[2].text, "whatever the text");
    assert_int_equal(sc.nschemes, 1); /* an [assert] is no scheme */
    unlink(path);

    /* options add to the file's */
    assert_int_equal(scenario_add_assertion(&sc, NULL, "steady over last 6 windows", "--assert",
                                            err, sizeof err), 0);
    assert_int_equal(sc.nassertions, 4);
    assert_null(sc.assertions[3].name);
    assert_string_equal(sc.assertions[3].text, "steady over last 6 windows");
    assert_string_equal(sc.assertions[3].origin, "--assert");
    assert_int_equal(scenario_add_assertion(&sc, NULL, "steady over last 6 windows", "--assert",
                                            err, sizeof err), 0); /* unnamed: no clash */
    assert_int_equal(scenario_add_assertion(&sc, "tail", "writes > 0", "x", err, sizeof err), -1);
    assert_contains(err, "a second assertion named 'tail' (the first: ");
    assert_contains(err, ":7)");
    while (sc.nassertions < SCENARIO_MAX_ASSERTIONS)
        assert_int_equal(scenario_add_assertion(&sc, NULL, "writes > 0", "--assert", err,
                                                sizeof err), 0);
    assert_int_equal(scenario_add_assertion(&sc, NULL, "writes > 0", "--assert", err,
                                            sizeof err), -1);
    assert_string_equal(err, "too many assertions: at most 64 ([assert NAME] sections and "
                        "--assert options together)");
    scenario_release(&sc);
}

/* [advise]: the budget read and range-checked, the weights, fix and the
 * check's lists kept as text with their FILE:LINE (planners/advise*.c read
 * them); each key once. */
static void test_load_advise_section(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    assert_int_equal(load("[cluster]\nservers = 3\n[advise]\nbudget = 12\nweights = reads=2\n"
                          "fix = osalt(20)\n", &sc, err, sizeof err), 0);
    assert_int_equal(sc.advise.budget, 12);
    assert_string_equal(sc.advise.weights, "reads=2");
    assert_string_equal(sc.advise.fix, "osalt(20)");
    assert_non_null(strstr(sc.advise.weights_origin, ":5"));
    assert_non_null(strstr(sc.advise.fix_origin, ":6"));
    assert_int_equal(sc.servers, 3);
    scenario_release(&sc);
    assert_int_equal(load("[advise]\ncheck_loads = 2x, 3x\ncheck_durations = 2h\n", &sc, err,
                          sizeof err), 0);
    assert_string_equal(sc.advise.check_loads, "2x, 3x");
    assert_string_equal(sc.advise.check_durations, "2h");
    assert_non_null(strstr(sc.advise.check_loads_origin, ":2"));
    assert_non_null(strstr(sc.advise.check_durations_origin, ":3"));
    scenario_release(&sc);
    assert_int_equal(load("[cluster]\nservers = 3\n", &sc, err, sizeof err), 0);
    assert_int_equal(sc.advise.budget, 0); /* not set: advise's default */
    assert_null(sc.advise.weights);
    assert_null(sc.advise.fix);
    scenario_release(&sc);
    assert_int_equal(load("[advise]\nbudget = 4096\n", &sc, err, sizeof err), 0);
    assert_int_equal(sc.advise.budget, 4096);
    scenario_release(&sc);

    static const struct { const char *text, *want; } bad[] = {
        { "[advise]\nbudget = 0\n",
          ":2: [advise] budget: expected a number of candidates 1..4096, found '0'" },
        { "[advise]\nbudget = 4097\n", ":2: [advise] budget: expected a number of candidates" },
        { "[advise]\nbudget = 99999999999999999999999\n", ":2: [advise] budget: expected" },
        { "[advise]\nbudget = ten\n", ":2: [advise] budget: expected a number of candidates "
          "1..4096, found 'ten'" },
        { "[advise]\nbudget = -5\n", ":2: [advise] budget: expected" },
        { "[advise]\nbudget =\n", ":2: [advise] budget: expected a number of candidates "
          "1..4096, found nothing" },
        { "[advise]\nweights =\n", ":2: [advise] weights: expected NAME=NUMBER" },
        { "\n[advise]\nbudget = 4\nbudget = 5\n",
          ":4: [advise] has a second 'budget' (the first is at line 3)" },
        { "[advise]\nfix = salt(4)\n[cluster]\nservers = 3\n[advise]\nfix = salt(8)\n",
          ":6: [advise] has a second 'fix' (the first is at line 2)" },
        { "[advise]\nbudjet = 4\n", ":2: unknown key 'budjet' in [advise]; expected budget, "
          "weights, fix, check_durations or check_loads" },
        { "[advise]\ncheck_loads =\n", ":2: [advise] check_loads: expected multipliers (2x,4x), "
          "found nothing" },
        { "[advise]\ncheck_durations = 2x\ncheck_durations = 4x\n",
          ":3: [advise] has a second 'check_durations' (the first is at line 2)" },
        { "[advise]\nservers = 4\n", ":2: unknown key 'servers' in [advise]" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(load(bad[i].text, &sc, err, sizeof err), -1);
        assert_contains(err, bad[i].want);
        scenario_release(&sc);
    }
}

static void test_load_assert_section_errors(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    assert_int_equal(load("[assert a]\nfigure = write_max_mean\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":2: unknown key 'figure' in [assert a]; expected expect = ASSERTION");
    scenario_release(&sc);
    assert_int_equal(load("[assert a]\nexpect = writes > 0\nexpect = reads > 0\n", &sc, err,
                          sizeof err), -1);
    assert_contains(err, ":3: [assert a] has a second 'expect'");
    scenario_release(&sc);
    assert_int_equal(load("[assert a]\nexpect =\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":2: [assert a] expect: expected an assertion (write_max_mean <= 1.2 "
                    "...), found nothing");
    scenario_release(&sc);
    assert_int_equal(load("[assert a]\nexpect = writes > 0\n\n[assert b]\n; nothing\n"
                          "[cluster]\nservers = 3\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":4: [assert b] has no 'expect = ASSERTION'");
    scenario_release(&sc);
    assert_int_equal(load("[assert a]\nexpect = writes > 0\n[assert a]\nexpect = reads > 0\n",
                          &sc, err, sizeof err), -1);
    assert_contains(err, ":3: a second [assert a] (the first is at line 1)");
    scenario_release(&sc);
    assert_int_equal(load("[assert]\nexpect = writes > 0\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":1: unknown section [assert]");
    assert_contains(err, "[scheme NAME], [assert NAME] or [advise]");
    scenario_release(&sc);

    char *text = malloc(65 * 40);
    assert_non_null(text);
    text[0] = '\0';
    for (int i = 1; i <= 65; i++)
        sprintf(text + strlen(text), "[assert a%d]\nexpect = writes > 0\n", i);
    assert_int_equal(load(text, &sc, err, sizeof err), -1);
    assert_contains(err, ":129: too many assertions: at most 64 [assert NAME] sections");
    scenario_release(&sc);
    text[strlen(text) - strlen("[assert a65]\nexpect = writes > 0\n")] = '\0';
    assert_int_equal(load(text, &sc, err, sizeof err), 0);
    assert_int_equal(sc.nassertions, 64);
    scenario_release(&sc);
    free(text);
}

/* inih takes an indented line after `key = value` as a continuation of
 * that value and hands the key over again: `servers = 3` then `  4` set
 * servers to 4 without a word. Refused, with why. */
static void test_load_refuses_continuation_lines(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    assert_int_equal(load("[cluster]\nservers = 3\n  4\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":3: indented line: in INI an indented line continues the value of "
                    "the key above ('servers', line 2), which scenario files do not support");
    scenario_release(&sc);
    assert_int_equal(load("seed = 1\n\n\t[cluster]\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":3: indented line");
    scenario_release(&sc);
    /* Indented comments and blank lines are fine, and so is an indented
     * first key of a section (inih has nothing to continue there). */
    assert_int_equal(load("seed = 1\n   ; a comment\n   \n[cluster]\n  servers = 5\n",
                          &sc, err, sizeof err), 0);
    assert_int_equal(sc.servers, 5);
    assert_int_equal(sc.seed, 1);
    scenario_release(&sc);
}

/* Control bytes in the scenario's name or a section name (a scheme's
 * label) are refused; wherever a message shows user text, its control
 * bytes are escaped. */
static void test_control_bytes(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    assert_int_equal(load("name = red\x1b[31mname\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":1: name: control byte \\x1B at character 4: expected printable");
    scenario_release(&sc);
    assert_int_equal(load("\n[scheme bell\x07]\nkey = ts\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":2: control byte \\x07 in a section name");
    scenario_release(&sc);
    assert_int_equal(load("[cluster]\nservers = \x1b[2J\n", &sc, err, sizeof err), -1);
    assert_contains(err, "found '\\x1B[2J'");
    assert_no_control_bytes(err);
    scenario_release(&sc);
    assert_int_equal(load("[cluster]\nser\x1bvers = 2\n", &sc, err, sizeof err), -1);
    assert_contains(err, "unknown key 'ser\\x1Bvers'");
    assert_no_control_bytes(err);
    scenario_release(&sc);
    assert_int_equal(load("[event e]\nat = \x1b\n", &sc, err, sizeof err), -1);
    assert_no_control_bytes(err);
    scenario_release(&sc);
    /* A scheme expression may hold any byte in a literal: a bad one's
     * message shows it escaped. */
    scenario_defaults(&sc);
    sc.nschemes = 0;
    scenario_add_scheme(&sc, NULL, "salt(\x1b[31m) ts");
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, "scheme 'salt(\\x1B[31m) ts': column");
    assert_no_control_bytes(err);
    scenario_release(&sc);
    /* a valid one with a raw control byte in a literal: its label (what
     * reports and the progress bar show) has it escaped */
    scenario_defaults(&sc);
    sc.nschemes = 0;
    assert_int_equal(scenario_add_scheme(&sc, NULL, "\"\x1b[2J\" ts"), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    assert_string_equal(scenario_scheme_label(&sc, 0), "\"\\x1B[2J\" ts");
    assert_string_equal(sc.schemes[0].text, "\"\x1b[2J\" ts"); /* the scheme itself: as given */
    scenario_release(&sc);
    /* a file without a name is named after its file, escaped */
    {
        char path[] = "/tmp/regionsim-test-\x1b[1m-XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        close(fd);
        scenario_defaults(&sc);
        assert_int_equal(scenario_load(&sc, path, err, sizeof err), 0);
        assert_no_control_bytes(sc.name);
        assert_true(!strncmp(sc.name, "regionsim-test-\\x1B[1m-", 23));
        scenario_release(&sc);
        unlink(path);
    }
    scenario_defaults(&sc);
    assert_int_equal(scenario_load(&sc, "/nonexistent/\x1b[2J.ini", err, sizeof err), -1);
    assert_contains(err, "/nonexistent/\\x1B[2J.ini: cannot open");
    assert_no_control_bytes(err);
    scenario_release(&sc);
}

/* Any scheme the parser accepts is accepted, however long (a fixed 1024-
 * byte buffer cut it and blamed the cut); a message about a long scheme
 * keeps its reason. */
static void test_long_schemes(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    size_t n = 3000;
    char *expr = malloc(n + 16);
    assert_non_null(expr);
    strcpy(expr, "ts \"");
    memset(expr + 4, 'a', n);
    strcpy(expr + 4 + n, "\"");
    scenario_defaults(&sc);
    sc.nschemes = 0;
    scenario_add_scheme(&sc, NULL, expr);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    /* broken at its end: the message names the column and what was wrong */
    strcpy(expr + 4 + n, "\" salt(");
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, "column 3012: expected");
    assert_true(strlen(err) < sizeof err - 1);
    scenario_release(&sc);
    free(expr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace_path_is_relative_to_the_file),
        cmocka_unit_test(test_load_a_directory_is_refused),
        cmocka_unit_test(test_load_stops_at_the_first_error),
        cmocka_unit_test(test_load_refuses_endless_files),
        cmocka_unit_test(test_load_line_length_limit),
        cmocka_unit_test(test_load_section_headers),
        cmocka_unit_test(test_load_too_many_schemes),
        cmocka_unit_test(test_load_assert_sections),
        cmocka_unit_test(test_load_advise_section),
        cmocka_unit_test(test_load_assert_section_errors),
        cmocka_unit_test(test_load_refuses_continuation_lines),
        cmocka_unit_test(test_control_bytes),
        cmocka_unit_test(test_long_schemes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
