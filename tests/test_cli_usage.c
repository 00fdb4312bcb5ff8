/* test_cli_usage.c -- the regionsim binary's command line as a user
 * types it: help, and bad usage.
 *
 * argv[1] is the path of the built binary, argv[2] the source tree. Each
 * case runs it with its own arguments (tests/cli_support.h: in an
 * environment set there, not inherited), captures stdout and stderr, and
 * checks the exit status and what was printed: every command's help
 * (every setting of the settings table listed), bad usage (exit 2, a
 * message naming the option and the token, nothing on stdout), and every
 * option a command does not use refused. test_cli.c has the commands
 * themselves.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "scenario/scenario.h"
#include "tests/cli_support.h"

static void test_help(void **state)
{
    (void)state;
    output o = run("--help", NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "compare"));
    assert_non_null(strstr(o.out, "keys"));
    output_free(&o);
    o = run("compare", "--help", NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "--servers"));
    output_free(&o);
    o = run("keys", "-h", NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "-n N"));
    output_free(&o);
}

/* Every scenario setting is an option and every command's --help lists
 * it; every option --help lists with a default takes that default. */
static void test_help_lists_every_setting(void **state)
{
    (void)state;
    static const char *const commands[] = { "compare", "run", "keys", "watch" };
    for (size_t c = 0; c < 4; c++) {
        output o = run(commands[c], "--help", NULL);
        assert_int_equal(o.status, 0);
        for (size_t i = 0; i < scenario_setting_count(); i++) {
            setting_doc d = scenario_setting_doc(i);
            if (!strcmp(d.key, "name"))
                continue; /* a file names itself: not an option */
            char option[80];
            int n = snprintf(option, sizeof option, "\n  --");
            for (const char *k = d.key; *k; k++)
                option[n++] = *k == '_' ? '-' : *k;
            snprintf(option + n, sizeof option - (size_t)n, " %s", d.arg);
            if (!strstr(o.out, option))
                fail_msg("%s --help does not list '%s'", commands[c], option + 3);
        }
        output_free(&o);
    }
    /* The defaults it shows are values the options take. */
    output o = run("keys", "--help", NULL);
    for (const char *p = strstr(o.out, "\n  --"); p; p = strstr(p + 1, "\n  --")) {
        char name[64], value[64];
        if (sscanf(p, "\n  %63s", name) != 1)
            continue;
        const char *end = strstr(p + 1, "\n  -"), *blank = strstr(p + 1, "\n\n");
        if (!end || (blank && blank < end))
            end = blank;
        const char *close = end ? end : p + strlen(p);
        const char *open = NULL;
        for (const char *q = p; q < close; q++) /* the last "(...)" of the entry */
            if (*q == '(')
                open = q;
        /* --baseline-figures, --tolerance and --max-input go only with
         * --baseline, which keys refuses; test_baseline_exit_status and
         * test_cli_gates give them values */
        if (!open || sscanf(open, "(%63[^)])", value) != 1 || strchr(value, ' ') ||
            !strcmp(name, "--scheme") || !strcmp(name, "--format") || !strcmp(name, "--color") ||
            !strcmp(name, "--tolerance") || !strcmp(name, "--max-input") ||
            !strcmp(name, "--baseline-figures"))
            continue;
        /* what keys does not use it refuses (test_unused_options_are_refused):
         * those defaults go to compare */
        int for_keys = strcmp(name, "--samples") && strcmp(name, "--jobs") &&
                       strcmp(name, "--key-buckets");
        int json = !strcmp(name, "--json-windows"); /* only with --format json */
        output r = for_keys && !json
                       ? run("keys", "--scheme", "salted", name, value, "-n", "1", NULL)
                       : run("compare", "--scheme", "salted", "--duration", "1m", "--format",
                             json ? "json" : "text", name, value, NULL);
        if (r.status != 0)
            fail_msg("keys %s %s: exit %d: %s", name, value, r.status, r.err);
        output_free(&r);
    }
    output_free(&o);
}

static void test_bad_usage_exits_2_with_a_named_error(void **state)
{
    (void)state;
    assert_usage_error(run(NULL), "usage", NULL);
    assert_usage_error(run("frobnicate", NULL), "frobnicate", "compare");
    assert_usage_error(run("compare", "--servers", "abc", NULL), "--servers", "'abc'");
    assert_usage_error(run("compare", "--servers", "0", NULL), "--servers", "1 to 100000");
    assert_usage_error(run("compare", "--servers=100001", NULL), "--servers", "100001");
    assert_usage_error(run("compare", "--seed", "18446744073709551616", NULL), "--seed", NULL);
    assert_usage_error(run("compare", "--duration", "5", NULL), "--duration", "unit");
    assert_usage_error(run("compare", "--region-size", "4XB", NULL), "--region-size", "'4XB'");
    assert_usage_error(run("compare", "--bogus", "1", NULL), "unknown option", "--bogus");
    assert_usage_error(run("compare", "--servers", NULL), "--servers", "value");
    assert_usage_error(run("run", NULL), "--scheme", NULL);
    assert_usage_error(run("compare", "--scheme", "salt(0) ts", NULL), "column", NULL);
    assert_usage_error(run("keys", "--scheme", "nosuchfield", NULL), "nosuchfield", NULL);
    assert_usage_error(run("keys", "--scheme", "ts", "-n", "0", NULL), "-n", NULL);
}

/* Every option a command does not use is refused (exit 2, the option and
 * why named, nothing on stdout): a command never takes an option it then
 * ignores. "SMALL" stands for tests/data/sweep-small.ini. */
static void test_unused_options_are_refused(void **state)
{
    (void)state;
    char small[512];
    snprintf(small, sizeof small, "%s/tests/data/sweep-small.ini", source_root);
    static const struct { const char *args[8], *want; } cases[] = {
        { { "advise", "--samples", "0" }, "--samples: " }, /* advise takes seeds (1..1000) */
        { { "advise", "--key-buckets", "8" }, "--key-buckets: not used by advise" },
        { { "advise", "--fix", "" }, "--fix: expected the first fields of a key" },
        { { "advise", "--weights", "reads=1", "--weights", "reads=2" }, "'reads' named twice" },
        { { "advise", "--weights", "reads=1,writes=2,reads=1" }, "'reads' named twice" },
        { { "keys", "--scheme", "salted", "--samples", "2" }, "--samples: not used by keys" },
        { { "keys", "--scheme", "salted", "--samples=2" }, "--samples: not used by keys" },
        { { "keys", "--scheme", "salted", "--jobs", "2" }, "--jobs: not used by keys" },
        { { "keys", "--scheme", "salted", "--key_buckets", "8" }, "not used by keys" },
        { { "keys", "--scheme", "salted", "--color", "never" }, "--color: not used by keys" },
        { { "keys", "--scheme", "salted", "--max-input", "1GiB" },
          "--max-input: not used by keys" },
        { { "watch", "--scheme", "salted", "--samples", "2" }, "--samples: not used by watch" },
        { { "watch", "--scheme", "salted", "--jobs", "2" }, "--jobs: not used by watch" },
        { { "watch", "--scheme", "salted", "-n", "3" }, "-n: not used by watch" },
        { { "watch", "--scheme", "salted", "--json-windows", "no" }, "--json-windows: only with" },
        { { "run", "--scheme", "salted", "-n", "3" }, "-n: not used by run" },
        { { "run", "--scheme", "salted", "--jobs", "2" }, "--jobs: not used by run" },
        { { "compare", "-n", "3" }, "-n: not used by compare" },
        { { "compare", "--format", "json", "--color", "always" },
          "--color: only with --format text" },
        { { "compare", "--json-windows", "yes" }, "--json-windows: only with --format json" },
        { { "compare", "--max-input", "1GiB" }, "--max-input: only with --baseline" },
        { { "run", "--scheme", "salted", "--tolerance", "0.1" },
          "--tolerance: only with --baseline" },
        { { "sweep", "SMALL", "--key-buckets", "8" }, "--key-buckets: not with sweep" },
        { { "sweep", "SMALL", "--plan", "/nonexistent/plan", "--jobs", "2" },
          "--jobs: not with --plan" },
        { { "sweep", "SMALL", "--max-input", "1GiB" }, "--max-input: only with --baseline" },
        { { "merge", "/nonexistent", "--tolerance", "0.1" }, "--tolerance: only with --baseline" },
        { { "figures", "--color", "never" }, "unknown argument '--color'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *a[8];
        for (size_t k = 0; k < 8; k++)
            a[k] = cases[i].args[k] && !strcmp(cases[i].args[k], "SMALL") ? small
                                                                         : cases[i].args[k];
        output o = run(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], NULL);
        if (o.status != 2 || o.out[0] || !strstr(o.err, cases[i].want))
            fail_msg("%s %s %s: expected exit 2 and '%s', got exit %d: %s", a[0], a[1],
                     a[2] ? a[2] : "", cases[i].want, o.status, o.err);
        output_free(&o);
    }
}

/* A scenario file of `text` in a new temporary file; its path into path
 * (a "/tmp/regionsim-msg-XXXXXX" buffer). */
static void write_scenario(char *path, const char *text)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
}

/* Messages that say what was meant and where: a misspelt preset names the
 * preset (and, in a file, its FILE:LINE); an unknown option the nearest
 * option the command takes; a sweep file run by another command the
 * command that runs it; an [assert] naming a scheme the run lacks its
 * FILE:LINE and the nearest scheme. Every one exits 2 with nothing on
 * stdout. */
static void test_messages_suggest_what_was_meant(void **state)
{
    (void)state;
    assert_usage_error(run("compare", "--scheme", "monotnic", NULL), "scheme 'monotnic'",
                       "(did you mean the preset 'monotonic'?)");
    assert_usage_error(run("run", "--scheme", "seq_reversed", NULL),
                       "(did you mean the preset 'seq-reversed'?)", NULL);
    output o = run("compare", "--scheme", "salt(8) tss", NULL); /* an expression: no preset */
    assert_int_equal(o.status, 2);
    assert_null(strstr(o.err, "did you mean"));
    output_free(&o);

    char path[] = "/tmp/regionsim-msg-XXXXXX", want[1400];
    write_scenario(path, "seed = 7\n[scheme mine]\nkey = hahsed\n");
    snprintf(want, sizeof want, "%s:3: scheme 'mine': ", path);
    assert_usage_error(run("compare", path, NULL), want, "(did you mean the preset 'hashed'?)");
    assert_usage_error(run("compare", path, "--scheme", "mine", NULL), want, "hashed");
    unlink(path);

    /* options: the nearest one this command takes */
    assert_usage_error(run("compare", "--sed", "5", NULL), "unknown option '--sed' (did you "
                       "mean '--seed'?)", NULL);
    assert_usage_error(run("compare", "--read-fracton", "0.1", NULL),
                       "(did you mean '--read-fraction'?)", NULL);
    assert_usage_error(run("compare", "--formt", "json", NULL), "(did you mean '--format'?)",
                       NULL);
    assert_usage_error(run("watch", "--sped", "5", NULL), "(did you mean '--speed'?)", NULL);
    assert_usage_error(run("keys", "--sped", "5", NULL), "(did you mean '--seed'?)", NULL);
    o = run("run", "--jbos", "2", "--scheme", "salted", NULL); /* --jobs is compare's */
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "unknown option '--jbos'"));
    assert_null(strstr(o.err, "did you mean"));
    output_free(&o);
    o = run("compare", "-x", "1", NULL); /* one letter is one edit from -o, -n, -p */
    assert_int_equal(o.status, 2);
    assert_null(strstr(o.err, "did you mean"));
    output_free(&o);
    char small[512];
    snprintf(small, sizeof small, "%s/tests/data/sweep-small.ini", source_root);
    assert_usage_error(run("sweep", small, "--sed", "5", NULL), "unknown option '--sed' (did "
                       "you mean '--seed'?)", NULL);
    assert_usage_error(run("sweep", "--formt", "json", small, NULL), "(did you mean '--format'?)",
                       NULL);
    assert_usage_error(run("advise", "--budgte", "3", NULL), "(did you mean '--budget'?)", NULL);

    /* a sweep file: run by sweep, at its [sweep] line, even when an earlier
     * line holds a $NAME the scenario reader cannot take */
    static const char *const cmds[] = { "compare", "run", "keys", "watch", "advise" };
    snprintf(want, sizeof want, "%s:5: [sweep] makes this a sweep file: run it with 'regionsim "
             "sweep %s'", small, small);
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
        assert_usage_error(run(cmds[i], small, "--scheme", "salted", NULL), want, NULL);
    char early[] = "/tmp/regionsim-msg-XXXXXX";
    write_scenario(early, "[cluster]\nservers = $n\n\n  [ sweep ]\nn = 4, 8\n");
    snprintf(want, sizeof want, "%s:4: [sweep] makes this a sweep file: run it with 'regionsim "
             "sweep %s'", early, early);
    assert_usage_error(run("compare", early, NULL), want, NULL);
    unlink(early);

    /* [assert] naming a scheme the run does not have: FILE:LINE, the nearest */
    char asserts[] = "/tmp/regionsim-msg-XXXXXX";
    write_scenario(asserts, "[assert even]\nexpect = write_max_mean <= 1.2 for salt\n");
    snprintf(want, sizeof want, "%s:2: assertion 'write_max_mean <= 1.2': no scheme 'salt' in "
             "this run (did you mean 'salted'?", asserts);
    assert_usage_error(run("compare", asserts, "--scheme", "salted", "--duration", "1m", NULL),
                       want, NULL);
    unlink(asserts);
}

int main(int argc, char **argv)
{
    cli_args(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_help_lists_every_setting),
        cmocka_unit_test(test_bad_usage_exits_2_with_a_named_error),
        cmocka_unit_test(test_unused_options_are_refused),
        cmocka_unit_test(test_messages_suggest_what_was_meant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
