/* cli_options.c -- the command line of compare, run, keys and watch:
 * the help texts (the settings' part generated from the settings table,
 * so every setting a scenario file takes is an option and is listed),
 * parsing (the scenario file first, then every option over it, wherever
 * it stands), and the checks across options: an option a command does
 * not use is refused (option_uses), never ignored. Bad usage is one
 * message naming the option, what was found and what was expected, exit
 * status 2, before anything is written to stdout. An unknown option names
 * the nearest one the command takes (core/nearest.h): "unknown option
 * '--sed' (did you mean '--seed'?)".
 */
#include "cli/cli_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nearest.h"
#include "reports/baseline.h"
#include "reports/json_read.h"
#include "scenario/units.h"
#include "cli/watch.h"
#include "workloads/keyscheme.h"
#include "workloads/pattern.h"

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
    "Options:\n";

/* The options after --scheme, whose entry names the presets from their
 * table (print_scheme_help). */
static const char common_help_options[] =
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
    "                       duration such as 1m; a report window a second\n"
    "                       unless given\n"
    "  -p NAME=VALUE        a YCSB property over --ycsb's workload (docs/ycsb.md)\n"
    "  --assert A           fail (exit 1) unless A holds, e.g. 'write_max_mean <= 1.2',\n"
    "                       'p99_latency_us < 50000 over last 10m for salted',\n"
    "                       'balance writes <= 1.15 over last 6 windows', 'steady over\n"
    "                       last 3 windows'; repeatable; see docs/ci.md\n"
    "  --junit FILE         write the assertions' results as JUnit XML to FILE\n"
    "  --baseline FILE      fail (exit 1) when a headline figure is worse than in\n"
    "                       FILE beyond its tolerance, FILE an earlier --format\n"
    "                       json report of the same scenario\n"
    "  --baseline-figures LIST  --baseline: the figures judged, e.g.\n"
    "                       headline,p999_latency_us, or all (headline)\n"
    "  --tolerance F        --baseline: relative change allowed: F for every figure,\n"
    "                       FIGURE=F for one; repeatable (docs/ci.md)\n"
    "  --tolerance-abs A    --baseline: change always allowed, in the figure's unit:\n"
    "                       A for every figure, FIGURE=A for one; repeatable\n"
    "  --max-input SIZE     --baseline: the most bytes FILE may hold (256MiB)\n"
    "  -h, --help           this help\n"
    "\n"
    "An option the command does not use is refused: -n is keys' alone, --speed\n"
    "watch's, --samples and --key-buckets compare's and run's, --jobs compare's.\n";

static const char settings_help_tail[] =
    "\n"
    "Every setting is also a scenario file key (KEY = VALUE in its section).\n"
    "SIZE takes B, KiB, MiB, GiB, TiB (e.g. 4MiB); D takes us, ms, s, m, h, d (e.g.\n"
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

/* The --scheme entry: its presets listed from their table
 * (workloads/keyscheme.h), so the help, the man page and the shell
 * completion made from it (dist/reference.py) name every one. */
static void print_scheme_help(FILE *out)
{
    char text[1024];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "a preset name, a scheme expression, or the NAME of a [scheme "
                                "NAME] in the scenario file; repeat to compare several. "
                                "Presets:");
    for (size_t i = 0; i < keyscheme_preset_count() && n < sizeof text; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, " %s", keyscheme_preset_name(i));
    if (n < sizeof text)
        snprintf(text + n, sizeof text - n, " (bucketed ones use one bucket per server)");
    write_wrapped(out, text, fprintf(out, "%-23s", "  --scheme S"), 23);
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
 * control bytes escaped (scenario/units.h): nothing typed reaches the terminal
 * raw. */
_Noreturn void cli_usage_error(const cli_options *o, const char *fmt, const char *a, const char *b)
{
    char sa[4096], sb[4096];
    fprintf(stderr, "regionsim%s%s: ", o->cmd_name ? " " : "", o->cmd_name ? o->cmd_name : "");
    fprintf(stderr, fmt, escape_text(a, 1000, sa, sizeof sa),
            escape_text(b, 1000, sb, sizeof sb));
    fprintf(stderr, "\n(see 'regionsim%s%s --help')\n", o->cmd_name ? " " : "",
            o->cmd_name ? o->cmd_name : "");
    exit(EXIT_USAGE);
}

static uint64_t parse_count(const cli_options *o, const char *opt, const char *text,
                            uint64_t lo, uint64_t hi)
{
    uint64_t v;
    if (units_parse_count(text, &v) < 0 || v < lo || v > hi) {
        char msg[160];
        snprintf(msg, sizeof msg, "%%s: expected an integer from %llu to %llu, found '%%s'",
                 (unsigned long long)lo, (unsigned long long)hi);
        cli_usage_error(o, msg, opt, text);
    }
    return v;
}

static void add_scheme(cli_options *o, const char *text)
{
    scenario *sc = &o->sc;
    if (!o->schemes_given)
        sc->nschemes = 0; /* the first --scheme replaces the scenario's list */
    o->schemes_given = 1;
    scheme_choice pick = { NULL, text, NULL };
    for (size_t i = 0; i < o->nnamed; i++)
        if (o->named[i].label && !strcmp(o->named[i].label, text))
            pick = o->named[i]; /* --scheme NAME picks the file's [scheme NAME] */
    if (scenario_add_scheme(sc, pick.label, pick.text) < 0)
        cli_usage_error(o, "%s: at most 64 schemes, found one more: '%s'", "--scheme", text);
    sc->schemes[sc->nschemes - 1].origin = pick.origin;
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

/* The entry of option_uses that refuses option `name` to this command,
 * or NULL when the command may use it. */
static const struct option_use *refused_use(const cli_options *o, const char *name)
{
    for (size_t i = 0; i < sizeof option_uses / sizeof *option_uses; i++) {
        const struct option_use *u = &option_uses[i];
        int same = u->name[0] == '-' ? !strcmp(name, u->name) : scenario_option_is(name, u->name);
        if (same && !(u->used_by & 1u << o->cmd))
            return u;
    }
    return NULL;
}

/* Refuses option `name` if this command does not use it. */
static void check_used(const cli_options *o, const char *name)
{
    const struct option_use *u = refused_use(o, name);
    if (u) {
        char msg[320];
        snprintf(msg, sizeof msg, "%%s: not used by %s (%s)%%s", o->cmd_name, u->why);
        cli_usage_error(o, msg, name, "");
    }
}

/* The options set_option takes besides the settings' --KEY options. */
static const char *const own_options[] = {
    "--scheme", "--format", "-o", "--output", "--color", "--json-windows", "--speed", "-n",
    "-p", "--assert", "--junit", "--baseline", "--tolerance", "--max-input", "--write-trace",
    "--help",
};

/* Whether this command (ctx: its cli_options) takes `option`. */
static int command_takes(const char *option, void *ctx)
{
    const cli_options *o = ctx;
    return !refused_use(o, option) && (strcmp(option, "--speed") || o->cmd == CMD_WATCH);
}

/* "unknown option 'NAME'", with the nearest option this command takes
 * (its own and every setting's --KEY) when one is near. */
static _Noreturn void unknown_option(const cli_options *o, const char *name)
{
    char best[NEAREST_MAX_LEN + 1], hint[NEAREST_MAX_LEN + 40] = "";
    if (scenario_option_nearest(name, own_options, sizeof own_options / sizeof *own_options,
                                command_takes, (void *)o, best, sizeof best))
        snprintf(hint, sizeof hint, " (did you mean '%s'?)", best);
    cli_usage_error(o, "unknown option '%s'%s", name, hint);
}

/* Sets the option `name` from `value`: the command's own options here,
 * scenario settings through scenario_set (--region-size = region_size). */
static void set_option(cli_options *o, const char *name, const char *value)
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
            cli_usage_error(o, "%s: expected text, json, html or csv, found '%s'", name, value);
        o->fmt = (cli_format)f;
    } else if (!strcmp(name, "-o") || !strcmp(name, "--output")) {
        if (!value[0])
            cli_usage_error(o, "%s: expected a file or directory name%s", name, "");
        o->output = value;
    } else if (!strcmp(name, "--color")) {
        static const char *const modes[] = { "auto", "always", "never" };
        size_t m = 0;
        while (m < 3 && strcmp(value, modes[m]) != 0)
            m++;
        if (m == 3)
            cli_usage_error(o, "%s: expected auto, always or never, found '%s'", name, value);
        o->color = (cli_color)m;
        o->color_given = 1;
    } else if (!strcmp(name, "--json-windows")) {
        static const char *const modes[] = { "auto", "yes", "no" };
        size_t m = 0;
        while (m < 3 && strcmp(value, modes[m]) != 0)
            m++;
        if (m == 3)
            cli_usage_error(o, "%s: expected auto, yes or no, found '%s'", name, value);
        o->json_windows = m == 0 ? JSON_WINDOWS_AUTO : m == 1 ? JSON_WINDOWS_YES : JSON_WINDOWS_NO;
        o->json_windows_given = 1;
    } else if (!strcmp(name, "--speed")) {
        if (o->cmd != CMD_WATCH)
            cli_usage_error(o, "%s: only with watch%s", name, "");
        if (watch_parse_speed(value, &o->speed) < 0)
            cli_usage_error(o, "%s: expected simulated seconds a wall second (e.g. 60) or a "
                            "simulated duration a wall second (e.g. 1m, 500ms), from 1ms to "
                            "1000000s, found '%s'", name, value);
        o->speed_given = 1;
    } else if (!strcmp(name, "-n")) {
        o->nkeys = parse_count(o, name, value, 1, 1000000);
    } else if (!strcmp(name, "-p")) { /* a YCSB property, as YCSB's own -p */
        char prop[256], origin[300], err[640];
        const char *eq = strchr(value, '=');
        if (!eq || eq == value || (size_t)(eq - value) >= sizeof prop)
            cli_usage_error(o, "-p: expected NAME=VALUE (a YCSB property), found '%s'%s", value,
                            "");
        memcpy(prop, value, (size_t)(eq - value));
        prop[eq - value] = '\0';
        snprintf(origin, sizeof origin, "-p %s", value);
        if (scenario_ycsb_property(&o->sc, prop, eq + 1, origin, err, sizeof err) < 0)
            cli_usage_error(o, "%s%s", err, "");
    } else if (!strcmp(name, "--assert")) {
        char err[640];
        if (scenario_add_assertion(&o->sc, NULL, value, "--assert", err, sizeof err) < 0)
            cli_usage_error(o, "--assert: %s%s", err, "");
    } else if (!strcmp(name, "--junit") || !strcmp(name, "--baseline")) {
        if (!value[0])
            cli_usage_error(o, "%s: expected a file name%s", name, "");
        if (name[2] == 'j')
            o->checks.junit_path = value;
        else
            o->checks.baseline_path = value;
    } else if (!strcmp(name, "--tolerance") || !strcmp(name, "--tolerance-abs") ||
               !strcmp(name, "--baseline-figures")) {
        char err[640];
        o->tolerance_given = 1;
        o->gate_option = name[2] == 'b' ? "--baseline-figures" : name[11] == '-' ? "--tolerance-abs"
                                                                                  : "--tolerance";
        if ((name[2] == 'b' ? baseline_gate_figures(&o->checks.gate, value, err, sizeof err)
                            : baseline_gate_tolerance(&o->checks.gate, value,
                                                      name[11] == '-', err, sizeof err)) < 0)
            cli_usage_error(o, "%s%s", err, "");
    } else if (!strcmp(name, "--max-input")) {
        if (cli_checks_parse_max_input(value, &o->checks.max_input) < 0)
            cli_usage_error(o, "%s: expected a size from 1B to 1TiB (e.g. 1GiB), found '%s'", name,
                            value);
        o->max_input_given = 1;
    } else if (!strcmp(name, "--write-trace")) {
        if (!value[0])
            cli_usage_error(o, "%s: expected a file name%s", name, "");
        o->write_trace = value;
    } else {
        char err[640];
        int rc = !strncmp(name, "--", 2) && !strcmp(name + 2, FILE_ONLY_SETTING)
                     ? -2
                     : scenario_set_option(&o->sc, name, value, err, sizeof err);
        if (rc == -2)
            unknown_option(o, name);
        if (rc < 0)
            cli_usage_error(o, "%s: %s", name, err);
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
    uint64_t windows = known_us / scenario_window_us(sc);
    return (double)sc->nschemes * sc->servers * (double)(windows ? windows : 1);
}

/* Whether an output of this invocation needs the runs' per-server window
 * counters (run_result.window_writes, window_reads): csv's windows.csv,
 * and JSON with per-server arrays (--json-windows yes, or auto while the
 * runs' servers x windows may be within JSON_WINDOWS_AUTO_CELLS). Text and
 * HTML draw from a digest as well (engine/windows.h). Decided once, before
 * anything runs; runs of up to 32 servers keep their counters anyway. */
static int needs_window_counters(const cli_options *o)
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

void cli_options_parse(cli_options *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    baseline_gate_init(&o->checks.gate);
    o->checks.max_input = JSON_READ_MAX_DEFAULT;
    scenario_defaults(&o->sc);
    o->nkeys = 10;
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
        cli_usage_error(o, "unknown command '%s'; expected compare, run, keys, watch, sweep, "
                        "merge, advise or figures%s", argv[1], "");
    o->cmd = (cli_command)c;
    o->cmd_name = names[c];

    /* First the scenario file, if any: options override it wherever they
     * stand on the line. */
    const char *file = NULL;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(command_help[o->cmd], stdout);
            fputs(common_help, stdout);
            print_scheme_help(stdout);
            fputs(common_help_options, stdout);
            print_settings_help(stdout);
            exit(0);
        }
        if (arg[0] != '-') {
            if (file)
                cli_usage_error(o, "unexpected argument '%s' after the scenario file '%s'", arg,
                                file);
            file = arg;
        } else if (!strchr(arg, '=')) {
            if (i + 1 >= argc)
                cli_usage_error(o, "%s: expected a value after it%s", arg, "");
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
            cli_usage_error(o, "unknown option '%s'%s", arg, "");
        memcpy(name, arg, n);
        name[n] = '\0';
        value = eq ? eq + 1 : argv[++i];
        set_option(o, name, value);
    }
    if (o->fmt == FORMAT_CSV && !o->output)
        cli_usage_error(o, "--format csv: expected -o DIR, the directory for the CSV files%s%s",
                        "", "");
    if (o->cmd == CMD_KEYS && (o->output || o->fmt != FORMAT_TEXT))
        cli_usage_error(o, "%s: not with keys (it prints keys as text)%s",
                        o->output ? "-o" : "--format", "");
    if (o->cmd == CMD_WATCH && (o->output || o->fmt != FORMAT_TEXT || o->write_trace))
        cli_usage_error(o, "%s: not with watch (it draws on the terminal; use run)%s",
                        o->output ? "-o" : o->write_trace ? "--write-trace" : "--format", "");
    if (o->cmd != CMD_COMPARE && o->sc.nschemes != 1)
        cli_usage_error(o, "expected exactly one --scheme, found %s%s",
                        o->schemes_given ? "several" : "none", "");
    if (scenario_ycsb_build(&o->sc, err, sizeof err) < 0 ||
        scenario_validate(&o->sc, err, sizeof err) < 0 ||
        cli_checks_prepare(&o->checks, &o->sc, err, sizeof err) < 0)
        cli_usage_error(o, "%s%s", err, "");
    if (o->tolerance_given && !o->checks.baseline_path)
        cli_usage_error(o, "%s: only with --baseline FILE%s", o->gate_option, "");
    if (baseline_gate_check(&o->checks.gate, err, sizeof err) < 0)
        cli_usage_error(o, "%s%s", err, "");
    if (o->max_input_given && !o->checks.baseline_path)
        cli_usage_error(o, "--max-input: only with --baseline FILE (the only file of JSON %s "
                        "reads)%s", o->cmd_name, "");
    if (o->color_given && o->fmt != FORMAT_TEXT)
        cli_usage_error(o, "--color: only with --format text (%s has no colour)%s",
                        o->fmt == FORMAT_JSON   ? "json"
                        : o->fmt == FORMAT_HTML ? "html"
                                                : "csv",
                        "");
    if (o->json_windows_given && o->fmt != FORMAT_JSON)
        cli_usage_error(o, "--json-windows: only with --format json (it shapes the JSON "
                        "report)%s%s", "", "");
    if ((o->cmd == CMD_KEYS || o->cmd == CMD_WATCH) &&
        (o->checks.nassertions || o->checks.junit_path || o->checks.baseline_path))
        cli_usage_error(o, o->cmd == CMD_KEYS ? "%s: not with keys (use compare or run)%s"
                                          : "%s: not with watch (use compare or run)%s",
                        o->checks.nassertions ? "--assert" : o->checks.junit_path ? "--junit"
                                                                              : "--baseline", "");
    if (o->cmd == CMD_KEYS || o->cmd == CMD_WATCH)
        o->sc.samples = 1; /* one run (a file's samples serve compare and run) */
    /* every run (samples and reruns copy the scenario) reduces its window
     * counters at its end unless an output needs them */
    o->sc.window_digest = o->cmd != CMD_KEYS && o->cmd != CMD_WATCH && !needs_window_counters(o);
}
