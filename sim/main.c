/* main.c -- the regionsim command line.
 *
 *   regionsim compare [options]   every scheme on one cluster, one row each
 *   regionsim run --scheme S      one scheme, its per-server histogram
 *   regionsim keys --scheme S     example keys and where they land
 *   regionsim watch --scheme S    the run replayed live in the terminal (sim/watch.c)
 *   regionsim sweep FILE          every point of a [sweep] (sim/sweep_run.c)
 *   regionsim advise [FILE]       key designs searched, the Pareto front (sim/advise_main.c)
 *
 * Options override the built-in default scenario. Bad usage prints one
 * message naming the option, what was found and what was expected, and
 * exits 2 before anything is written to stdout. Results are written only
 * once every run has finished, so a failure never leaves partial output.
 * Every path it writes (-o, csv's directory, --junit, --write-trace) is
 * checked before the run (check_outputs, sim/cli_outputs.h); the report is
 * rendered into an unnamed temporary file (csv's into memory), then the
 * report, the JUnit file and the trace are written as one set by
 * sim/output.h's rules (a new name or a file of one's own replaced
 * through a temporary, a read-only file refused, a link, device, FIFO or
 * /dev/stdout opened by the kernel and written in place, nothing the
 * program did not create ever removed).
 * SIGINT, SIGTERM and SIGHUP while a temporary exists remove it before the
 * program dies of the signal (sim/interrupts.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reports/baseline.h"
#include "reports/json_read.h"
#include "reports/report.h"
#include "sim/cli_checks.h"
#include "sim/cli_outputs.h"
#include "sim/advise_main.h"
#include "sim/budget.h"
#include "sim/engine.h"
#include "sim/interrupts.h"
#include "sim/output.h"
#include "sim/progress.h"
#include "sim/scenario.h"
#include "sim/sweep_plan.h"
#include "sim/sweep_run.h"
#include "sim/units.h"
#include "sim/watch.h"
#include "workloads/keyscheme.h"
#include "workloads/trace.h"

#define EXIT_USAGE 2
#define EXIT_FAILED 1 /* a CI check failed: an assertion, or a figure regressed (sim/cli_checks.h) */

typedef enum command { CMD_COMPARE, CMD_RUN, CMD_KEYS, CMD_WATCH } command;
typedef enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_HTML, FORMAT_CSV } format;
typedef enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } color_mode;

typedef struct options {
    command cmd;
    const char *cmd_name;
    scenario sc;
    format fmt;
    const char *output;       /* -o PATH: a file (text, json, html) or a directory (csv) */
    color_mode color;
    json_windows json_windows; /* --json-windows */
    uint64_t nkeys;
    double speed;             /* --speed (watch), simulated seconds a wall second */
    int speed_given;
    const char *write_trace;  /* --write-trace FILE */
    cli_checks checks;        /* --assert, --junit, --baseline, --tolerance, --max-input
                               * (sim/cli_checks.h) */
    int tolerance_given;
    int max_input_given;
    int color_given, json_windows_given;
    int schemes_given;
    scheme_choice named[SCENARIO_MAX_SCHEMES]; /* the scenario file's schemes */
    size_t nnamed;
} options;

static const char *const command_help[] = {
    [CMD_COMPARE] =
        "usage: regionsim compare [SCENARIO.ini] [options]\n"
        "\n"
        "Runs every key scheme on the same cluster and workload and prints one\n"
        "row per scheme: how evenly the writes spread over the region servers.\n"
        "With no --scheme, all presets are compared.\n",
    [CMD_RUN] =
        "usage: regionsim run [SCENARIO.ini] --scheme S [options]\n"
        "\n"
        "Runs one key scheme and prints its per-server write histogram.\n",
    [CMD_KEYS] =
        "usage: regionsim keys [SCENARIO.ini] --scheme S [-n N] [options]\n"
        "\n"
        "Prints the first N row keys the workload writes under scheme S, in\n"
        "HBase shell form, with the region and server each one lands in.\n",
    [CMD_WATCH] =
        "usage: regionsim watch [SCENARIO.ini] --scheme S [--speed V] [options]\n"
        "\n"
        "Runs one key scheme, then replays it live in the terminal: a bar per\n"
        "server (its writes in the current window), its regions, the hot server,\n"
        "a clock, the imbalance so far and the latest splits, moves and balancer\n"
        "runs. Keys: space pause, right arrow step, + and - speed, q quit. Not on\n"
        "a terminal (or TERM=dumb): one plain line per window, at once unless\n"
        "--speed is given.\n",
};

/* The command's own options; the scenario settings follow, generated from
 * the settings table (print_settings_help), so every setting a file takes
 * is an option and is listed. */
static const char common_help[] =
    "\n"
    "SCENARIO.ini is a scenario file (docs/scenarios.md); options override it.\n"
    "Without one, the built-in default scenario runs.\n"
    "\n"
    "Options:\n"
    "  --scheme S           a preset name, a scheme expression, or the NAME of\n"
    "                       a [scheme NAME] in the scenario file; repeat to\n"
    "                       compare several. Presets: monotonic salted hashed\n"
    "                       reversed promoted revts md5 opentsdb opentsdb-salted\n"
    "                       revdomain seq seq-reversed (bucketed ones use one\n"
    "                       bucket per server)\n"
    "  --format F           text, json, html (one self-contained page) or csv\n"
    "                       (files in the directory -o names) (text)\n"
    "  -o PATH              write the report to PATH instead of stdout (csv: a\n"
    "                       directory, created if missing)\n"
    "  --color C            text: auto (when stdout is a terminal and NO_COLOR\n"
    "                       is unset), always or never (auto)\n"
    "  --json-windows W     json: each window's per-server arrays (yes), or its\n"
    "                       totals and maxima (no); auto: yes up to 4 million\n"
    "                       servers x windows over the runs (auto)\n"
    "  --write-trace FILE   run: write every operation as a trace to FILE\n"
    "  -n N                 keys: how many keys to print (10)\n"
    "  --speed V            watch: simulated time a wall second: seconds, or a\n"
    "                       duration such as 1m; 60 unless given\n"
    "  -p NAME=VALUE        a YCSB property over --ycsb's workload (docs/ycsb.md)\n"
    "  --assert A           fail (exit 1) unless A holds, e.g. 'write_max_mean <= 1.2',\n"
    "                       'p99_latency_us < 50000 over last 10m for salted',\n"
    "                       'balance writes <= 1.15 over last 6 windows', 'steady over\n"
    "                       last 3 windows'; repeatable; see docs/ci.md\n"
    "  --junit FILE         write the assertions' results as JUnit XML to FILE\n"
    "  --baseline FILE      fail (exit 1) when a figure is worse than in FILE, an\n"
    "                       earlier --format json report of the same scenario\n"
    "  --tolerance F        --baseline: relative change allowed (0.05)\n"
    "  --max-input SIZE     --baseline: the most bytes FILE may hold (256MiB)\n"
    "  -h, --help           this help\n"
    "\n"
    "An option the command does not use is refused: -n is keys' alone, --speed\n"
    "watch's, --samples and --key-buckets compare's and run's, --jobs compare's.\n";

static const char settings_help_tail[] =
    "\n"
    "Every setting is also a scenario file key (KEY = VALUE in its section).\n"
    "SIZE takes B, KiB, MiB, GiB, TiB (e.g. 4MiB); D takes us, ms, s, m, h (e.g.\n"
    "90s); F is a fraction from 0 to 1; W a weight.\n"
    "Exit status: 0 ran (every check held), 1 an --assert or --baseline check\n"
    "failed, 2 bad usage or input.\n";

/* The one setting that is not an option: a file names itself. */
#define FILE_ONLY_SETTING "name"

/* Writes `text` from column `col` of a line already `at` columns long,
 * wrapping at 79 columns with continuation lines indented to col. */
static void write_wrapped(FILE *out, const char *text, int at, int col)
{
    const char *p = text;
    int first = 1; /* the line's first word: no space before it */
    while (*p) {
        const char *word = p;
        while (*p && *p != ' ')
            p++;
        int len = (int)(p - word);
        if (!first && at + 1 + len > 79) {
            fprintf(out, "\n%*s", col, "");
            at = col;
        } else if (!first) {
            fputc(' ', out);
            at++;
        }
        first = 0;
        fwrite(word, 1, (size_t)len, out);
        at += len;
        while (*p == ' ')
            p++;
    }
    fputc('\n', out);
}

/* Every scenario setting as an option, by section, with its built-in
 * default. */
static void print_settings_help(FILE *out)
{
    static const struct { const char *section, *title; int per_phase; } sections[] = {
        { "", "Run", 0 }, { "cluster", "Cluster ([cluster])", 0 },
        { "workload", "Workload ([workload], or per [phase NAME])", 1 },
        { "reads", "Reads ([reads], or per [phase NAME]; with no read_<kind> set, a time "
                   "series reads metric 8, range 1, latest 1, other patterns get, range, "
                   "latest and window alike)", 1 },
        { "workload", "Whole run (in [workload], not per phase)", 0 },
    };
    scenario defaults;
    scenario_defaults(&defaults);
    for (size_t k = 0; k < sizeof sections / sizeof *sections; k++) {
        char title[320];
        snprintf(title, sizeof title, "%s:", sections[k].title);
        fputc('\n', out);
        write_wrapped(out, title, 0, 2);
        for (size_t i = 0; i < scenario_setting_count(); i++) {
            setting_doc d = scenario_setting_doc(i);
            if (strcmp(d.section, sections[k].section) != 0 || !strcmp(d.key, FILE_ONLY_SETTING) ||
                (d.section[0] && d.per_phase != sections[k].per_phase))
                continue;
            char option[64], value[64], text[512];
            int n = snprintf(option, sizeof option, "  --");
            for (const char *c = d.key; *c && n < (int)sizeof option - 1; c++)
                option[n++] = *c == '_' ? '-' : *c;
            snprintf(option + n, sizeof option - (size_t)n, " %s", d.arg);
            scenario_format_value(&defaults, d.key, value, sizeof value);
            if (value[0])
                snprintf(text, sizeof text, "%s (%s)", d.help, value);
            else
                snprintf(text, sizeof text, "%s", d.help);
            int at = fprintf(out, "%-23s", option);
            if (strlen(option) > 22) { /* no room for a space after it */
                fputc('\n', out);
                at = fprintf(out, "%23s", "");
            }
            write_wrapped(out, text, at, 23);
        }
    }
    scenario_release(&defaults);
    fputs(settings_help_tail, out);
}

static const char main_help[] =
    "usage: regionsim <command> [options]\n"
    "\n"
    "A discrete-event simulator of an HBase-style table: one sorted key space\n"
    "cut into regions across region servers. It shows where writes land under\n"
    "different row-key schemes.\n"
    "\n"
    "Commands:\n"
    "  compare   run every key scheme on one cluster and compare the spread\n"
    "  run       run one key scheme and show its per-server write histogram\n"
    "  keys      print example row keys of a scheme and where they land\n"
    "  watch     replay one key scheme's run live in the terminal\n"
    "  sweep     run a scenario at every point of its [sweep] section\n"
    "  merge     join a sweep plan's results (sweep --plan DIR) into its report\n"
    "  figures   list every figure the reports show: unit, scope, meaning\n"
    "  advise    search key designs for the workload: Pareto front and a pick\n"
    "\n"
    "Run 'regionsim <command> --help' for a command's options.\n";

/* The message, then exit 2. a and b, which may be the user's text (an
 * argument, a value, a message quoting a file), are shown with their
 * control bytes escaped (sim/units.h): nothing typed reaches the terminal
 * raw. */
static void usage_error(const options *o, const char *fmt, const char *a, const char *b)
{
    char sa[4096], sb[4096];
    fprintf(stderr, "regionsim%s%s: ", o->cmd_name ? " " : "", o->cmd_name ? o->cmd_name : "");
    fprintf(stderr, fmt, escape_text(a, 1000, sa, sizeof sa),
            escape_text(b, 1000, sb, sizeof sb));
    fprintf(stderr, "\n(see 'regionsim%s%s --help')\n", o->cmd_name ? " " : "",
            o->cmd_name ? o->cmd_name : "");
    exit(EXIT_USAGE);
}

static uint64_t parse_count(const options *o, const char *opt, const char *text,
                            uint64_t lo, uint64_t hi)
{
    uint64_t v;
    if (units_parse_count(text, &v) < 0 || v < lo || v > hi) {
        char msg[160];
        snprintf(msg, sizeof msg, "%%s: expected an integer from %llu to %llu, found '%%s'",
                 (unsigned long long)lo, (unsigned long long)hi);
        usage_error(o, msg, opt, text);
    }
    return v;
}

static void add_scheme(options *o, const char *text)
{
    scenario *sc = &o->sc;
    if (!o->schemes_given)
        sc->nschemes = 0; /* the first --scheme replaces the scenario's list */
    o->schemes_given = 1;
    scheme_choice pick = { NULL, text };
    for (size_t i = 0; i < o->nnamed; i++)
        if (o->named[i].label && !strcmp(o->named[i].label, text))
            pick = o->named[i]; /* --scheme NAME picks the file's [scheme NAME] */
    if (scenario_add_scheme(sc, pick.label, pick.text) < 0)
        usage_error(o, "%s: at most 64 schemes, found one more: '%s'", "--scheme", text);
}

/* Options, and settings given as options, that only some of the commands
 * use; the others refuse them (a command never takes an option it then
 * ignores). --speed (watch), --write-trace, --format, -o and the CI
 * checks are refused where they are parsed or in parse_args; --color
 * and --json-windows also by the format (parse_args). */
static const struct option_use {
    const char *name;  /* an option, or a setting's key (its option: --KEY-NAME) */
    unsigned used_by;  /* 1 << command */
    const char *why;
} option_uses[] = {
    { "-n", 1u << CMD_KEYS, "it is how many keys 'regionsim keys' prints" },
    { "samples", 1u << CMD_COMPARE | 1u << CMD_RUN,
      "compare and run take samples; keys and watch make one run" },
    { "jobs", 1u << CMD_COMPARE,
      "it is how many schemes compare runs at once; run, keys and watch run one" },
    { "key_buckets", 1u << CMD_COMPARE | 1u << CMD_RUN,
      "it sets the buckets of the key space heatmap, which only compare's and run's reports "
      "draw" },
    { "--max-input", 1u << CMD_COMPARE | 1u << CMD_RUN,
      "it caps the --baseline file, which only compare and run read" },
    { "--color", 1u << CMD_COMPARE | 1u << CMD_RUN | 1u << CMD_WATCH, "keys prints no colour" },
};

/* Refuses option `name` if this command does not use it. */
static void check_used(const options *o, const char *name)
{
    for (size_t i = 0; i < sizeof option_uses / sizeof *option_uses; i++) {
        const struct option_use *u = &option_uses[i];
        int same = u->name[0] == '-' ? !strcmp(name, u->name) : scenario_option_is(name, u->name);
        if (same && !(u->used_by & 1u << o->cmd)) {
            char msg[320];
            snprintf(msg, sizeof msg, "%%s: not used by %s (%s)%%s", o->cmd_name, u->why);
            usage_error(o, msg, name, "");
        }
    }
}

/* Sets the option `name` from `value`: the command's own options here,
 * scenario settings through scenario_set (--region-size = region_size). */
static void set_option(options *o, const char *name, const char *value)
{
    check_used(o, name);
    if (!strcmp(name, "--scheme")) {
        add_scheme(o, value);
    } else if (!strcmp(name, "--format")) {
        static const char *const formats[] = { "text", "json", "html", "csv" };
        size_t f = 0;
        while (f < 4 && strcmp(value, formats[f]) != 0)
            f++;
        if (f == 4)
            usage_error(o, "%s: expected text, json, html or csv, found '%s'", name, value);
        o->fmt = (format)f;
    } else if (!strcmp(name, "-o") || !strcmp(name, "--output")) {
        if (!value[0])
            usage_error(o, "%s: expected a file or directory name%s", name, "");
        o->output = value;
    } else if (!strcmp(name, "--color")) {
        static const char *const modes[] = { "auto", "always", "never" };
        size_t m = 0;
        while (m < 3 && strcmp(value, modes[m]) != 0)
            m++;
        if (m == 3)
            usage_error(o, "%s: expected auto, always or never, found '%s'", name, value);
        o->color = (color_mode)m;
        o->color_given = 1;
    } else if (!strcmp(name, "--json-windows")) {
        static const char *const modes[] = { "auto", "yes", "no" };
        size_t m = 0;
        while (m < 3 && strcmp(value, modes[m]) != 0)
            m++;
        if (m == 3)
            usage_error(o, "%s: expected auto, yes or no, found '%s'", name, value);
        o->json_windows = m == 0 ? JSON_WINDOWS_AUTO : m == 1 ? JSON_WINDOWS_YES : JSON_WINDOWS_NO;
        o->json_windows_given = 1;
    } else if (!strcmp(name, "--speed")) {
        if (o->cmd != CMD_WATCH)
            usage_error(o, "%s: only with watch%s", name, "");
        if (watch_parse_speed(value, &o->speed) < 0)
            usage_error(o, "%s: expected simulated seconds a wall second (e.g. 60) or a "
                        "simulated duration a wall second (e.g. 1m, 500ms), from 1ms to "
                        "1000000s, found '%s'", name, value);
        o->speed_given = 1;
    } else if (!strcmp(name, "-n")) {
        o->nkeys = parse_count(o, name, value, 1, 1000000);
    } else if (!strcmp(name, "-p")) { /* a YCSB property, as YCSB's own -p */
        char prop[256], origin[300], err[640];
        const char *eq = strchr(value, '=');
        if (!eq || eq == value || (size_t)(eq - value) >= sizeof prop)
            usage_error(o, "-p: expected NAME=VALUE (a YCSB property), found '%s'%s", value, "");
        memcpy(prop, value, (size_t)(eq - value));
        prop[eq - value] = '\0';
        snprintf(origin, sizeof origin, "-p %s", value);
        if (scenario_ycsb_property(&o->sc, prop, eq + 1, origin, err, sizeof err) < 0)
            usage_error(o, "%s%s", err, "");
    } else if (!strcmp(name, "--assert")) {
        char err[640];
        if (scenario_add_assertion(&o->sc, NULL, value, "--assert", err, sizeof err) < 0)
            usage_error(o, "--assert: %s%s", err, "");
    } else if (!strcmp(name, "--junit") || !strcmp(name, "--baseline")) {
        if (!value[0])
            usage_error(o, "%s: expected a file name%s", name, "");
        if (name[2] == 'j')
            o->checks.junit_path = value;
        else
            o->checks.baseline_path = value;
    } else if (!strcmp(name, "--tolerance")) {
        o->tolerance_given = 1;
        if (baseline_parse_tolerance(value, &o->checks.tolerance) < 0)
            usage_error(o, "--tolerance: expected a relative change such as 0.05 (0 or more), "
                        "found '%s'%s", value, "");
    } else if (!strcmp(name, "--max-input")) {
        if (units_parse_size(value, &o->checks.max_input) < 0 || o->checks.max_input < 1 ||
            o->checks.max_input > JSON_READ_MAX_CEILING)
            usage_error(o, "%s: expected a size from 1B to 1TiB (e.g. 1GiB), found '%s'", name,
                        value);
        o->max_input_given = 1;
    } else if (!strcmp(name, "--write-trace")) {
        if (!value[0])
            usage_error(o, "%s: expected a file name%s", name, "");
        o->write_trace = value;
    } else {
        char err[640];
        int rc = !strncmp(name, "--", 2) && !strcmp(name + 2, FILE_ONLY_SETTING)
                     ? -2
                     : scenario_set_option(&o->sc, name, value, err, sizeof err);
        if (rc == -2)
            usage_error(o, "unknown option '%s'%s", name, "");
        if (rc < 0)
            usage_error(o, "%s: %s", name, err);
    }
}

/* The fewest servers x windows the runs can have, summed over the schemes:
 * every phase of a known length counts its whole windows (a trace or a
 * YCSB phase without a duration counts none: it may end at once), every
 * run at least one window, each of at least the servers it starts with. */
static double fewest_window_cells(const scenario *sc)
{
    uint64_t known_us = 0;
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const phase *ph = scenario_phase(sc, i);
        if (!pattern_is_finite(&ph->pattern))
            known_us += ph->duration_us;
    }
    uint64_t windows = sc->window_us ? known_us / sc->window_us : 0;
    return (double)sc->nschemes * sc->servers * (double)(windows ? windows : 1);
}

/* Whether an output of this invocation needs the runs' per-server window
 * counters (run_result.window_writes, window_reads): csv's windows.csv,
 * and JSON with per-server arrays (--json-windows yes, or auto while the
 * runs' servers x windows may be within JSON_WINDOWS_AUTO_CELLS). Text and
 * HTML draw from a digest as well (sim/windows.h). Decided once, before
 * anything runs; runs of up to 32 servers keep their counters anyway. */
static int needs_window_counters(const options *o)
{
    switch (o->fmt) {
    case FORMAT_CSV:
        return 1;
    case FORMAT_JSON:
        if (o->json_windows != JSON_WINDOWS_AUTO)
            return o->json_windows == JSON_WINDOWS_YES;
        return fewest_window_cells(&o->sc) <= JSON_WINDOWS_AUTO_CELLS;
    case FORMAT_TEXT:
    case FORMAT_HTML:
        break;
    }
    return 0;
}

static void parse_args(options *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->checks.tolerance = BASELINE_TOLERANCE;
    o->checks.max_input = JSON_READ_MAX_DEFAULT;
    scenario_defaults(&o->sc);
    o->nkeys = 10;
    o->speed = WATCH_SPEED_DEFAULT;
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        fputs(main_help, argc < 2 ? stderr : stdout);
        exit(argc < 2 ? EXIT_USAGE : 0);
    }
    if (!strcmp(argv[1], "--version")) {
        puts("regionsim 0.1.0");
        exit(0);
    }
    static const char *const names[] = { [CMD_COMPARE] = "compare", [CMD_RUN] = "run",
                                         [CMD_KEYS] = "keys", [CMD_WATCH] = "watch" };
    size_t c = 0;
    while (c < 4 && strcmp(argv[1], names[c]) != 0)
        c++;
    if (c == 4)
        usage_error(o, "unknown command '%s'; expected compare, run, keys, watch, sweep, merge, "
                    "advise or figures%s", argv[1], "");
    o->cmd = (command)c;
    o->cmd_name = names[c];

    /* First the scenario file, if any: options override it wherever they
     * stand on the line. */
    const char *file = NULL;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(command_help[o->cmd], stdout);
            fputs(common_help, stdout);
            print_settings_help(stdout);
            exit(0);
        }
        if (arg[0] != '-') {
            if (file)
                usage_error(o, "unexpected argument '%s' after the scenario file '%s'", arg, file);
            file = arg;
        } else if (!strchr(arg, '=')) {
            if (i + 1 >= argc)
                usage_error(o, "%s: expected a value after it%s", arg, "");
            i++;
        }
    }
    char err[768];
    if (file && scenario_load(&o->sc, file, err, sizeof err) < 0) {
        fprintf(stderr, "regionsim %s: %s\n", o->cmd_name, err);
        exit(EXIT_USAGE);
    }
    o->nnamed = o->sc.nschemes;
    memcpy(o->named, o->sc.schemes, o->nnamed * sizeof *o->named);
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-')
            continue;
        char name[64];
        const char *value;
        const char *eq = strchr(arg, '=');
        size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
        if (n >= sizeof name)
            usage_error(o, "unknown option '%s'%s", arg, "");
        memcpy(name, arg, n);
        name[n] = '\0';
        value = eq ? eq + 1 : argv[++i];
        set_option(o, name, value);
    }
    if (o->fmt == FORMAT_CSV && !o->output)
        usage_error(o, "--format csv: expected -o DIR, the directory for the CSV files%s%s", "", "");
    if (o->cmd == CMD_KEYS && (o->output || o->fmt != FORMAT_TEXT))
        usage_error(o, "%s: not with keys (it prints keys as text)%s",
                    o->output ? "-o" : "--format", "");
    if (o->cmd == CMD_WATCH && (o->output || o->fmt != FORMAT_TEXT || o->write_trace))
        usage_error(o, "%s: not with watch (it draws on the terminal; use run)%s",
                    o->output ? "-o" : o->write_trace ? "--write-trace" : "--format", "");
    if (o->cmd != CMD_COMPARE && o->sc.nschemes != 1)
        usage_error(o, "expected exactly one --scheme, found %s%s",
                    o->schemes_given ? "several" : "none", "");
    if (scenario_ycsb_build(&o->sc, err, sizeof err) < 0 ||
        scenario_validate(&o->sc, err, sizeof err) < 0 ||
        cli_checks_prepare(&o->checks, &o->sc, err, sizeof err) < 0)
        usage_error(o, "%s%s", err, "");
    if (o->tolerance_given && !o->checks.baseline_path)
        usage_error(o, "--tolerance: only with --baseline FILE%s%s", "", "");
    if (o->max_input_given && !o->checks.baseline_path)
        usage_error(o, "--max-input: only with --baseline FILE (the only file of JSON %s "
                    "reads)%s", o->cmd_name, "");
    if (o->color_given && o->fmt != FORMAT_TEXT)
        usage_error(o, "--color: only with --format text (%s has no colour)%s",
                    o->fmt == FORMAT_JSON ? "json" : o->fmt == FORMAT_HTML ? "html" : "csv", "");
    if (o->json_windows_given && o->fmt != FORMAT_JSON)
        usage_error(o, "--json-windows: only with --format json (it shapes the JSON report)%s%s",
                    "", "");
    if ((o->cmd == CMD_KEYS || o->cmd == CMD_WATCH) &&
        (o->checks.nassertions || o->checks.junit_path || o->checks.baseline_path))
        usage_error(o, o->cmd == CMD_KEYS ? "%s: not with keys (use compare or run)%s"
                                          : "%s: not with watch (use compare or run)%s",
                    o->checks.nassertions ? "--assert" : o->checks.junit_path ? "--junit"
                                                                              : "--baseline", "");
    /* every run (samples and reruns copy the scenario) reduces its window
     * counters at its end unless an output needs them */
    o->sc.window_digest = o->cmd != CMD_KEYS && o->cmd != CMD_WATCH && !needs_window_counters(o);
}

/* keys: the first N writes, each printed with the region it landed in. */
typedef struct key_listing {
    char *text;
    size_t len;
    FILE *out;
    uint64_t left;
} key_listing;

static int list_key(void *ctx, uint64_t t_us, const record *rec, keyref key, const cluster *c,
                    uint32_t server)
{
    key_listing *kl = ctx;
    size_t i = regionmap_route(c->map, key);
    const region *r = regionmap_get(c->map, i);
    char k[256], start[128], end[128];
    key_format(key, k, sizeof k);
    key_format(region_start(r), start, sizeof start);
    key_format(region_end(r), end, sizeof end);
    fprintf(kl->out, "%10.3f s  %-6s %-40s region %zu [%s, %s) on rs%u\n", (double)t_us / 1e6,
            record_op_name((record_op)rec->op), k, i, start[0] ? start : "-inf",
            end[0] ? end : "+inf", server);
    return --kl->left == 0;
}

static int run_keys(const options *o)
{
    key_listing kl = { NULL, 0, NULL, o->nkeys };
    kl.out = open_memstream(&kl.text, &kl.len);
    if (!kl.out) {
        fputs("regionsim keys: out of memory\n", stderr);
        return EXIT_USAGE;
    }
    engine_observer obs = { .on_op = list_key, .ctx = &kl };
    if (o->write_trace)
        usage_error(o, "%s: not with keys (use run)%s", "--write-trace", "");
    run_result run;
    char err[512];
    int rc = engine_run(&o->sc, 0, &obs, &run, err, sizeof err);
    fclose(kl.out);
    if (rc < 0) {
        fprintf(stderr, "regionsim keys: %s\n", err);
        free(kl.text);
        return EXIT_USAGE;
    }
    printf("scheme %s: %s  (key bytes %llu..%llu, table: %s)\n", run.scheme_name,
           run.scheme_expr, (unsigned long long)run.key_bytes_min,
           (unsigned long long)run.key_bytes_max, run.presplit);
    fwrite(kl.text, 1, kl.len, stdout);
    free(kl.text);
    run_result_free(&run);
    return 0;
}

/* What watches a run from the command line: the trace being written
 * (--write-trace), the interrupts it polls, and the progress bar. */
typedef struct watch {
    trace_writer *trace;
    const interrupts *ints;
    uint64_t ops;    /* operations seen, to poll every POLL_EVERY */
    int interrupted; /* the watched signal that stopped the run, or 0 */
    progress bar;
} watch;

#define POLL_EVERY 1024 /* operations between two looks at pending signals */

/* --write-trace: every operation of the run, as a replayable trace. Stops
 * the run when a write fails (trace_finish says why) or an interrupt is
 * pending. */
static int append_to_trace(void *ctx, uint64_t t_us, const record *rec, keyref key, const cluster *c,
                     uint32_t server)
{
    (void)c, (void)server;
    watch *w = ctx;
    uint32_t bytes_or_rows = rec->op == RECORD_SCAN ? rec->rows : rec->value_bytes;
    if (trace_write_cells(w->trace, t_us, (record_op)rec->op, key.data, key.len, bytes_or_rows,
                          rec->cells) < 0)
        return 1;
    if (!w->interrupted && ++w->ops % POLL_EVERY == 0)
        w->interrupted = interrupts_pending(w->ints);
    return w->interrupted != 0;
}

static void show_progress(void *ctx, size_t run, size_t nruns, uint64_t done_us,
                          uint64_t total_us)
{
    watch *w = ctx;
    if (w->ints && !w->interrupted)
        w->interrupted = interrupts_pending(w->ints); /* the next operation stops the run */
    progress_update(&w->bar, run, nruns, done_us, total_us);
}

/* Whether text to `out` gets colour: --color always or never decide;
 * auto means a terminal that is not "dumb", unless NO_COLOR is set to
 * anything (no-color.org: a command-line option overrides it). */
static int use_color(const options *o, FILE *out)
{
    if (o->color != COLOR_AUTO)
        return o->color == COLOR_ALWAYS;
    const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");
    if (no_color && no_color[0])
        return 0;
    if (term && !strcmp(term, "dumb"))
        return 0;
    return isatty(fileno(out));
}

/* The report in the chosen format to `out`, with colour or not. */
static void write_format(const options *o, const sim_results *res, FILE *out, int color)
{
    switch (o->fmt) {
    case FORMAT_JSON:
        json_write_windows(out, res, o->json_windows);
        break;
    case FORMAT_HTML:
        html_write(out, res);
        break;
    case FORMAT_TEXT:
    case FORMAT_CSV: /* written by write_report */
        if (o->cmd == CMD_RUN)
            text_write_run(out, res, &res->runs[0], 50, color);
        else
            text_write_compare(out, res, color);
        break;
    }
}

/* The report (text, json or html) rendered into an unnamed temporary
 * file (tmpfile: removed by the system whatever happens), before any
 * output is opened: the writers print "out of memory" and exit(2) if they
 * run out, and then nothing is left behind. A file, not memory: a report
 * of 10,000 servers can be a gigabyte of JSON, written as it goes.
 * Returns the file, rewound, or NULL if it could not be written. */
static FILE *render_report(const options *o, const sim_results *res, int color)
{
    FILE *m = tmpfile();
    if (m && fileno(m) <= 2) { /* stdout closed: the report "to stdout" would land in it */
        int fd = fcntl(fileno(m), F_DUPFD_CLOEXEC, 3);
        FILE *moved = fd >= 0 ? fdopen(fd, "w+") : NULL;
        if (!moved && fd >= 0)
            close(fd);
        fclose(m);
        m = moved;
    }
    if (!m)
        return NULL;
    write_format(o, res, m, color);
    if (fflush(m) != 0 || ferror(m) || fseek(m, 0, SEEK_SET) != 0) {
        int e = errno ? errno : EIO;
        fclose(m);
        errno = e;
        return NULL;
    }
    return m;
}

/* Every path o writes, checked before anything runs (sim/cli_outputs.h):
 * a path that cannot be written exits 2 at once, not after the
 * simulation. Returns 0 or the exit status after a message. */
static int check_outputs(const options *o)
{
    cli_outputs out;
    char err[1280] = "out of memory";
    int rc = cli_outputs_plan(&out, o->output, o->fmt == FORMAT_CSV, o->checks.junit_path,
                              o->write_trace);
    if (rc == 0)
        rc = cli_outputs_check(&out, err, sizeof err);
    cli_outputs_free(&out);
    if (rc < 0) {
        fprintf(stderr, "regionsim %s: %s\n", o->cmd_name, err);
        return EXIT_USAGE;
    }
    return 0;
}

/* The report into out: csv's files, or the report rendered (see
 * render_report), with or without colour. Returns 0 or the exit status
 * after a message. */
static int render_outputs(const options *o, const sim_results *res, cli_outputs *out)
{
    char err[1280];
    if (o->fmt == FORMAT_CSV) {
        if (csv_render(res, out->csv, err, sizeof err) < 0) {
            fprintf(stderr, "regionsim %s: %s\n", o->cmd_name, err);
            return EXIT_USAGE;
        }
        return 0;
    }
    /* auto colour only for a terminal on stdout: with -o the file decides nothing */
    int color = o->output ? o->color == COLOR_ALWAYS : use_color(o, stdout);
    errno = 0;
    if (!(out->report = render_report(o, res, color))) {
        fprintf(stderr, "regionsim %s: the report could not be written to a temporary file: "
                "%s\n", o->cmd_name, strerror(errno ? errno : EIO));
        return EXIT_USAGE;
    }
    return 0;
}

/* --write-trace: opens the trace by sim/output.c's rules (interrupts are
 * held from here until the trace is committed or abandoned) and a writer
 * on it. Returns 0, or the exit status after a message. */
static int open_trace(const options *o, interrupts *ints, output_file **out, watch *w)
{
    char err[1024];
    interrupts_hold(ints);
    *out = output_open(o->write_trace, 0, ints, err, sizeof err);
    int signo = interrupts_pending(ints); /* while waiting for a FIFO's reader */
    if (signo) {
        output_abandon(*out);
        die_interrupted(ints, o->cmd_name, signo);
    }
    if (*out)
        w->trace = trace_writer_new(output_stream(*out), o->write_trace,
                                    trace_name_is_tsv(o->write_trace), err, sizeof err);
    if (!*out || !w->trace) {
        output_abandon(*out);
        *out = NULL;
        interrupts_release(ints);
        fprintf(stderr, "regionsim %s: --write-trace %s\n", o->cmd_name, err);
        return EXIT_USAGE;
    }
    w->ints = ints;
    return 0;
}

/* Ends the trace's writing after the run (rc: the engine's): an
 * interrupted run's trace is removed and the program dies of the signal;
 * a failed one's is abandoned (its temporary removed). Otherwise the
 * trace stays open, to be committed with the report as one set
 * (checked_report). Returns 0, or -1 (out abandoned) with a message in
 * err when the trace failed. */
static int end_trace(const options *o, interrupts *ints, output_file *out, watch *w, int rc,
                     char *err, size_t errcap)
{
    char trace_err[1024];
    int traced = trace_finish(w->trace, trace_err, sizeof trace_err);
    w->trace = NULL;
    int signo = w->interrupted ? w->interrupted : interrupts_pending(ints);
    if (signo) {
        output_abandon(out);
        die_interrupted(ints, o->cmd_name, signo);
    }
    if (rc == 0 && traced == 0 && output_finish(out, trace_err, sizeof trace_err) < 0)
        traced = -1;
    if (rc == 0 && traced < 0)
        snprintf(err, errcap, "--write-trace %s", trace_err);
    if (rc < 0 || traced < 0) {
        output_abandon(out);
        interrupts_release(ints);
        return -1;
    }
    return 0;
}

/* The report with the CI checks (sim/cli_checks.h), whose results
 * (`failed` of them failed) are in res already: each failure as a line,
 * then the report, the JUnit file and the trace (trace: open, or NULL),
 * written as one set (sim/output.h: all of them or, on a failure or an
 * interrupt, none), then the baseline's table. Exit status 2 for a
 * failure to write or a baseline refused, else 1 when an assertion
 * failed or a figure regressed, else 0. */
static int checked_report(options *o, sim_results *res, interrupts *ints, int failed,
                          output_file *trace)
{
    char err[1280];
    cli_checks *ch = &o->checks;
    baseline_report base;
    /* compared before anything is written: a baseline refused (another
     * scenario, other samples) leaves no report behind */
    char shown[4 * sizeof err]; /* the baseline's path and text, control bytes escaped */
    if (ch->baseline_path && cli_checks_baseline(ch, res, &base, err, sizeof err) < 0) {
        output_abandon(trace);
        fprintf(stderr, "regionsim %s: --baseline %s\n", o->cmd_name,
                escape_text(err, sizeof shown - 1, shown, sizeof shown));
        return EXIT_USAGE;
    }
    cli_checks_print_failures(ch, stderr);
    cli_outputs out;
    int rc = cli_outputs_plan(&out, o->output, o->fmt == FORMAT_CSV, ch->junit_path,
                              o->write_trace) < 0 ? EXIT_USAGE : 0;
    out.trace = trace; /* cli_outputs_free abandons it unless the set took it */
    if (rc)
        fprintf(stderr, "regionsim %s: out of memory\n", o->cmd_name);
    if (rc == 0)
        rc = render_outputs(o, res, &out);
    if (rc == 0 && ch->junit_path &&
        cli_checks_junit(ch, res, &out.junit, &out.junit_len, err, sizeof err) < 0) {
        fprintf(stderr, "regionsim %s: --junit %s\n", o->cmd_name, err);
        rc = EXIT_USAGE;
    }
    if (rc == 0 && cli_outputs_save(&out, ints, o->cmd_name, err, sizeof err) < 0) {
        fprintf(stderr, "regionsim %s: %s\n", o->cmd_name, err);
        rc = EXIT_USAGE;
    }
    cli_outputs_free(&out);
    int regressions = 0;
    if (ch->baseline_path) {
        if (rc == 0)
            baseline_write(stderr, escape_text(ch->baseline_path, 512, shown, sizeof shown),
                           &base, ch->tolerance);
        regressions = (int)base.regressions;
        baseline_report_free(&base);
    }
    if (rc == 0 && failed)
        fprintf(stderr, "regionsim %s: %d assertion%s failed\n", o->cmd_name, failed,
                failed == 1 ? "" : "s");
    return rc ? rc : failed || regressions ? EXIT_FAILED : 0;
}

/* cli_checks' on_sample: the progress bar moves on to sample k. */
static void next_sample(void *ctx, uint32_t k) { progress_sample(ctx, k); }

/* Runs the scenario (its first sample, watched: a trace, the progress
 * bar), then its other samples and the assertions (cli_checks_assert),
 * then reports. */
static int run_simulation(options *o)
{
    sim_results res;
    char err[1280];
    interrupts ints;
    interrupts_init(&ints);
    watch w = { NULL, NULL, 0, 0, { 0 } };
    engine_observer obs = { NULL, show_progress, &w };
    output_file *trace_out = NULL;
    if (o->write_trace) {
        if (o->sc.nschemes != 1)
            usage_error(o, "%s: needs exactly one --scheme (a trace is one scheme's keys)%s",
                        "--write-trace", "");
        if (o->sc.samples != 1) {
            char n[24];
            snprintf(n, sizeof n, "%u", (unsigned)o->sc.samples);
            usage_error(o, "%s: records one run, but samples = %s asks for more: drop "
                        "--samples (or set samples = 1)", "--write-trace", n);
        }
    }
    int status = check_outputs(o); /* every output path, before anything runs */
    if (status)
        return status;
    if (o->write_trace) {
        status = open_trace(o, &ints, &trace_out, &w);
        if (status)
            return status;
        obs.on_op = append_to_trace;
    }
    double exact_bytes = 0;
    budget_resolve_store(&o->sc, &exact_bytes); /* store = auto: exact if it fits */
    if (o->sc.store_auto) {
        char need[32];
        budget_format_size(exact_bytes, need, sizeof need);
        fprintf(stderr, "regionsim %s: store = auto: the exact store would need about %s, "
                "more than this run may use; using the sampled store (rows and reads are "
                "estimates)\n", o->cmd_name, need);
    }
    uint32_t jobs_at_once = scenario_jobs(&o->sc), fitted = budget_fit_jobs(&o->sc);
    if (fitted)
        fprintf(stderr, "regionsim %s: %u schemes at once would need more memory than this run "
                "may use; running %u at once (the output is the same)\n", o->cmd_name,
                (unsigned)jobs_at_once, (unsigned)fitted);
    progress_init(&w.bar, stderr, &o->sc);
    int rc = engine_run_all(&o->sc, &obs, &res, err, sizeof err);
    if (trace_out && end_trace(o, &ints, trace_out, &w, rc, err, sizeof err) < 0) {
        trace_out = NULL;
        if (rc == 0)
            sim_results_free(&res);
        rc = -1;
    }
    int failed = 0;
    if (rc == 0) {
        obs.on_op = NULL;
        o->checks.on_sample = next_sample;
        o->checks.sample_ctx = &w.bar;
        failed = cli_checks_assert(&o->checks, &o->sc, &obs, &res, err, sizeof err);
        if (failed < 0) {
            sim_results_free(&res);
            rc = -1;
        }
    }
    progress_done(&w.bar);
    if (rc < 0) {
        output_abandon(trace_out);
        interrupts_release(&ints);
        fprintf(stderr, "regionsim %s: %s\n", o->cmd_name, err);
        return EXIT_USAGE;
    }
    rc = checked_report(o, &res, &ints, failed, trace_out);
    interrupts_release(&ints);
    sim_results_free(&res);
    return rc;
}

/* `regionsim figures [--format text|json]`: the registry of figures. */
static int run_figures(int argc, char **argv)
{
    int json = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs("usage: regionsim figures [--format text|json]\n\n"
                  "Lists every figure the reports show (text, JSON \"figures\", figures.csv,\n"
                  "HTML) with its unit, scope, which direction is better and its meaning.\n", stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--format") && i + 1 < argc &&
            (!strcmp(argv[i + 1], "text") || !strcmp(argv[i + 1], "json"))) {
            json = !strcmp(argv[++i], "json");
            continue;
        }
        char shown[1024];
        fprintf(stderr, "regionsim figures: %s '%s'\n(see 'regionsim figures --help')\n",
                !strcmp(argv[i], "--format") ? "--format: expected text or json after"
                                             : "unknown argument",
                escape_text(argv[i], 240, shown, sizeof shown));
        return EXIT_USAGE;
    }
    if (json) json_write_figure_list(stdout);
    else text_write_figure_list(stdout);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "figures"))
        return run_figures(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "advise"))
        return advise_main(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "sweep"))
        return sweep_main(argc, argv); /* sim/sweep_run.c */
    if (argc >= 2 && !strcmp(argv[1], "merge"))
        return merge_main(argc, argv); /* sim/sweep_merge.c */
    options o;
    parse_args(&o, argc, argv);
    int rc;
    if (o.cmd == CMD_WATCH) {
        watch_options wo = { o.cmd_name, o.speed, o.speed_given,
                             o.color == COLOR_AUTO ? -1 : o.color == COLOR_ALWAYS };
        rc = watch_run(&o.sc, &wo);
    } else {
        rc = o.cmd == CMD_KEYS ? run_keys(&o) : run_simulation(&o);
    }
    cli_checks_release(&o.checks);
    scenario_release(&o.sc);
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc != EXIT_USAGE) { /* (2: said already) */
        perror("regionsim: writing the report");
        return EXIT_USAGE;
    }
    return rc;
}
