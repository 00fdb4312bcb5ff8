/* cli_options.h -- the options of compare, run, keys and watch: their
 * help, parsing and validation (cli/cli_options.c). main.c runs the
 * command they describe; sweep, merge, advise and figures parse their own
 * (planners/sweep_run.c, planners/sweep_merge.c, planners/advise_main.c, main.c).
 */
#ifndef REGIONSIM_CLI_OPTIONS_H
#define REGIONSIM_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "reports/report.h"
#include "cli/cli_checks.h"
#include "scenario/scenario.h"

#define EXIT_USAGE 2
#define EXIT_FAILED 1 /* a CI check failed: an assertion, or a figure regressed (cli/cli_checks.h) */

typedef enum cli_command { CMD_COMPARE, CMD_RUN, CMD_KEYS, CMD_WATCH } cli_command;
typedef enum cli_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_HTML, FORMAT_CSV } cli_format;
typedef enum cli_color { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } cli_color;

typedef struct cli_options {
    cli_command cmd;
    const char *cmd_name;
    scenario sc;
    cli_format fmt;
    const char *output;       /* -o PATH: a file (text, json, html) or a directory (csv) */
    cli_color color;
    json_windows json_windows; /* --json-windows */
    uint64_t nkeys;
    double speed;             /* --speed (watch), simulated seconds a wall second */
    int speed_given;
    const char *write_trace;  /* --write-trace FILE */
    cli_checks checks;        /* --assert, --junit, --baseline, --tolerance, --max-input
                               * (cli/cli_checks.h) */
    int tolerance_given;      /* --tolerance, --tolerance-abs or --baseline-figures ... */
    const char *gate_option;  /* ... the last of them, for a message */
    int max_input_given;
    int color_given, json_windows_given;
    int schemes_given;
    scheme_choice named[SCENARIO_MAX_SCHEMES]; /* the scenario file's schemes */
    size_t nnamed;
} cli_options;

/* Parses argv (argv[1] the command: compare, run, keys or watch) into o:
 * the scenario file first, then every option over it, then the checks
 * across options (an option the command does not use, --format csv
 * without -o, a YCSB workload that does not build, an invalid scenario,
 * ...). On bad usage prints one message naming the option, what was found
 * and what was expected, and exits 2; after --help or --version, exits 0.
 * Returns with o filled; free with cli_checks_release(&o->checks) and
 * scenario_release(&o->sc). */
void cli_options_parse(cli_options *o, int argc, char **argv);

/* The usage error message of o's command: "regionsim CMD: " then fmt
 * (two %s: a and b, their control bytes escaped) and a pointer to --help
 * on stderr; exits 2. */
_Noreturn void cli_usage_error(const cli_options *o, const char *fmt, const char *a,
                               const char *b);

#endif
