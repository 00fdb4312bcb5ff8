/* junit.h -- CI assertion results as JUnit XML (issue 14, --junit FILE).
 *
 * The file is what Jenkins (junit step), GitLab (artifacts:reports:junit)
 * and GitHub test reporters read, and it validates against Jenkins' xunit
 * plugin schema junit-10.xsd (tests/data/junit.md):
 *
 *   <testsuites name="regionsim" tests= failures= errors= time=>
 *     <testsuite name="SCENARIO" tests= failures= errors= skipped= time=>
 *       <testcase name="ASSERTION" classname="SCENARIO.SCHEME" time="0">
 *         <failure message="value V, bound B" type="assertion">...</failure>
 *       </testcase>
 *
 * One testsuite per scenario, one testcase per assertion and scheme (one
 * assertion_result). What a reporter shows:
 *   name       the assertion's text ("write_max_mean <= 1.2"); an
 *              [assert NAME] section's as "NAME: text"; with a label
 *              (junit_suite.labels), " [LABEL]" after it.
 *   classname  "SCENARIO.SCHEME". GitLab shows it as the case's suite,
 *              beside the name; Jenkins splits it at its last '.' into
 *              package (the scenario) and class (the scheme). Dots inside
 *              the scenario or scheme name become '_' in classname only,
 *              so that split always falls between the two.
 *   failure    message "value V, bound B" (Jenkins' "Error Message",
 *              GitHub annotations); its text, the one line GitLab shows,
 *              says it all: "write_max_mean <= 1.2 for monotonic: value
 *              5.33333, bound 1.2". B is the bound as written (the
 *              assertion's bound_text; else the shortest decimal that
 *              reads back as the bound); V has six significant digits, or
 *              as many more as it takes not to look equal to (or on the
 *              other side of) B. A steady assertion's V is followed by
 *              "(region count changes and moves)"; an undefined value
 *              (NAN, which fails) is "undefined", followed by the
 *              result's why in parentheses when it has one.
 * errors and skipped are always 0 (an assertion that cannot be checked is
 * bad input: exit status 2, no report). testsuites carries no skipped
 * attribute (junit-10.xsd has none there).
 *
 * Text: every name, scheme and message is escaped for XML (& < > " ' as
 * entities; tab, newline and return inside attributes as character
 * references, so they survive attribute normalisation). Bytes XML 1.0
 * cannot hold are written visibly as \xNN, as the command line's messages
 * write them (scenario/units.h): C0 controls but tab, newline and return, DEL,
 * bytes that are not UTF-8, and U+FFFE/U+FFFF; a backslash itself stays as
 * it is. The output is always well-formed UTF-8.
 *
 * A pure function of the arguments: no time stamp, no host name; times
 * are what the caller passes with three decimals: a suite's `time` the
 * wall time the job took (so the file changes from one run to the next in
 * that attribute alone), its simulated time a property,
 *     <properties><property name="simulated_time_s" value="3600.000"/></properties>
 * first in the testsuite (both schemas allow it there); testcases' time
 * is 0.
 */
#ifndef REGIONSIM_JUNIT_H
#define REGIONSIM_JUNIT_H

#include <stddef.h>
#include <stdio.h>

#include "reports/assertion.h"

/* One scenario's results: one <testsuite>. */
typedef struct junit_suite {
    const char *name;                   /* the scenario ("ci" for examples/ci.ini) */
    const assertion_result *results;    /* in the order they appear */
    size_t nresults;                    /* 0: an empty, valid testsuite */
    double time_s;                      /* the suite's time in seconds (< 0, NAN: 0): the
                                         * wall time the job took */
    /* NULL, or nresults labels (an entry may be NULL): result i's label
     * follows its assertion as " [LABEL]" in the testcase's name and in
     * its failure's text (a sweep's point: "write_max_mean <= 1.2
     * [buckets=8 servers=16]"), escaped like every name */
    const char *const *labels;
    /* the simulated time of the runs, in seconds, written as the suite's
     * property simulated_time_s; <= 0 or NAN: no property */
    double simulated_s;
} junit_suite;

/* Writes nsuites suites (0: an empty <testsuites/>) as one JUnit XML
 * document to out, and flushes it. Every suite needs a name and every
 * result an assertion and a scheme; results need not be unique. Returns 0,
 * or -1 with a message in err (errcap bytes): before anything is written
 * when an argument breaks that contract, after when writing failed
 * (out's error indicator, or fflush). */
int junit_write(FILE *out, const junit_suite *suites, size_t nsuites, char *err,
                size_t errcap);

#endif
