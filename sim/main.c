/* main.c -- the regionsim command line.
 *
 *   regionsim compare [options]   every scheme on one cluster, one row each
 *   regionsim run --scheme S      one scheme, its per-server histogram
 *   regionsim keys --scheme S     example keys and where they land
 *
 * Options override the built-in default scenario. Bad usage prints one
 * message naming the option, what was found and what was expected, and
 * exits 2 before anything is written to stdout. Results are written only
 * once every run has finished, so a failure never leaves partial output.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reports/report.h"
#include "sim/engine.h"
#include "sim/progress.h"
#include "sim/scenario.h"
#include "sim/units.h"
#include "workloads/keyscheme.h"
#include "workloads/trace.h"

#define EXIT_USAGE 2

typedef enum command { CMD_COMPARE, CMD_RUN, CMD_KEYS } command;
typedef enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_HTML, FORMAT_CSV } format;
typedef enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } color_mode;

typedef struct options {
    command cmd;
    const char *cmd_name;
    scenario sc;
    format fmt;
    const char *output;       /* -o PATH: a file (text, json, html) or a directory (csv) */
    color_mode color;
    uint64_t nkeys;
    const char *write_trace;  /* --write-trace FILE */
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
    "  --write-trace FILE   run: write every operation as a trace to FILE\n"
    "  -n N                 keys: how many keys to print (10)\n"
    "  -h, --help           this help\n";

static const char settings_help_tail[] =
    "\n"
    "Every setting is also a scenario file key (KEY = VALUE in its section).\n"
    "SIZE takes B, KiB, MiB, GiB, TiB (e.g. 4MiB); D takes us, ms, s, m, h (e.g.\n"
    "90s); F is a fraction from 0 to 1; W a weight.\n"
    "Exit status: 0 ran, 2 bad usage or input.\n";

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
    "\n"
    "Run 'regionsim <command> --help' for a command's options.\n";

static void usage_error(const options *o, const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "regionsim%s%s: ", o->cmd_name ? " " : "", o->cmd_name ? o->cmd_name : "");
    fprintf(stderr, fmt, a, b);
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

/* Sets the option `name` from `value`: the command's own options here,
 * scenario settings through scenario_set (--region-size = region_size). */
static void set_option(options *o, const char *name, const char *value)
{
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
    } else if (!strcmp(name, "-n")) {
        o->nkeys = parse_count(o, name, value, 1, 1000000);
    } else if (!strcmp(name, "--write-trace")) {
        if (!value[0])
            usage_error(o, "%s: expected a file name%s", name, "");
        o->write_trace = value;
    } else {
        char key[64], err[640];
        size_t n = strncmp(name, "--", 2) ? 0 : strlen(name + 2);
        if (n == 0 || n >= sizeof key || !strcmp(name + 2, FILE_ONLY_SETTING))
            usage_error(o, "unknown option '%s'%s", name, "");
        for (size_t i = 0; i <= n; i++)
            key[i] = name[2 + i] == '-' ? '_' : name[2 + i];
        int rc = scenario_set(&o->sc, NULL, key, value, err, sizeof err);
        if (rc == -2)
            usage_error(o, "unknown option '%s'%s", name, "");
        if (rc < 0)
            usage_error(o, "%s: %s", name, err);
    }
}

static void parse_args(options *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
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
                                         [CMD_KEYS] = "keys" };
    size_t c = 0;
    while (c < 3 && strcmp(argv[1], names[c]) != 0)
        c++;
    if (c == 3)
        usage_error(o, "unknown command '%s'; expected compare, run or keys%s", argv[1], "");
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
    if (o->cmd != CMD_COMPARE && o->sc.nschemes != 1)
        usage_error(o, "expected exactly one --scheme, found %s%s",
                    o->schemes_given ? "several" : "none", "");
    if (scenario_validate(&o->sc, err, sizeof err) < 0)
        usage_error(o, "%s%s", err, "");
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
    static const char *const ops[] = { "put", "get", "delete" };
    size_t i = regionmap_route(c->map, key);
    const region *r = regionmap_get(c->map, i);
    char k[256], start[128], end[128];
    key_format(key, k, sizeof k);
    key_format(region_start(r), start, sizeof start);
    key_format(region_end(r), end, sizeof end);
    fprintf(kl->out, "%10.3f s  %-6s %-40s region %zu [%s, %s) on rs%u\n", (double)t_us / 1e6,
            ops[rec->op], k, i, start[0] ? start : "-inf", end[0] ? end : "+inf", server);
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
 * (--write-trace) and the progress bar. */
typedef struct watch {
    trace_writer *trace;
    progress bar;
} watch;

/* --write-trace: every operation of the run, as a replayable trace. */
static int append_to_trace(void *ctx, uint64_t t_us, const record *rec, keyref key, const cluster *c,
                     uint32_t server)
{
    (void)c, (void)server;
    watch *w = ctx;
    trace_write(w->trace, t_us, (record_op)rec->op, key.data, key.len, rec->value_bytes);
    return 0;
}

static void show_progress(void *ctx, size_t run, size_t nruns, uint64_t done_us,
                          uint64_t total_us)
{
    watch *w = ctx;
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

/* The report in the chosen format to `out`. */
static void write_format(const options *o, const sim_results *res, FILE *out)
{
    switch (o->fmt) {
    case FORMAT_JSON:
        json_write(out, res);
        break;
    case FORMAT_HTML:
        html_write(out, res);
        break;
    case FORMAT_TEXT:
    case FORMAT_CSV: /* written by write_report */
        if (o->cmd == CMD_RUN)
            text_write_run(out, res, &res->runs[0], 50, use_color(o, out));
        else
            text_write_compare(out, res, use_color(o, out));
        break;
    }
}

/* The report to stdout, to -o FILE (written under a temporary name and
 * renamed, so a failure leaves no partial file), or, for csv, into -o DIR.
 * Returns the exit status. */
static int write_report(const options *o, const sim_results *res)
{
    char err[1024];
    if (o->fmt == FORMAT_CSV) {
        if (csv_write(o->output, res, err, sizeof err) < 0) {
            fprintf(stderr, "regionsim %s: %s\n", o->cmd_name, err);
            return EXIT_USAGE;
        }
        return 0;
    }
    if (!o->output) {
        write_format(o, res, stdout);
        return 0;
    }
    size_t n = strlen(o->output) + 16;
    char *tmp = malloc(n);
    if (!tmp) {
        fprintf(stderr, "regionsim %s: out of memory\n", o->cmd_name);
        return EXIT_USAGE;
    }
    snprintf(tmp, n, "%s.tmp", o->output);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "regionsim %s: -o %s: cannot create %s: %s\n", o->cmd_name, o->output,
                tmp, strerror(errno));
        free(tmp);
        return EXIT_USAGE;
    }
    write_format(o, res, f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, o->output) != 0) {
        fprintf(stderr, "regionsim %s: -o %s: writing failed: %s\n", o->cmd_name, o->output,
                strerror(errno));
        remove(tmp);
        free(tmp);
        return EXIT_USAGE;
    }
    free(tmp);
    return 0;
}

static int run_simulation(const options *o)
{
    sim_results res;
    char err[512];
    watch w = { NULL, { 0 } };
    engine_observer obs = { NULL, show_progress, &w };
    if (o->write_trace) {
        if (o->sc.nschemes != 1)
            usage_error(o, "%s: needs exactly one --scheme (a trace is one scheme's keys)%s",
                        "--write-trace", "");
        w.trace = trace_create(o->write_trace, err, sizeof err);
        if (!w.trace) {
            fprintf(stderr, "regionsim %s: %s\n", o->cmd_name, err);
            return EXIT_USAGE;
        }
        obs.on_op = append_to_trace;
    }
    progress_init(&w.bar, stderr, &o->sc);
    int rc = engine_run_all(&o->sc, &obs, &res, err, sizeof err);
    progress_done(&w.bar);
    char trace_err[512];
    if (w.trace && trace_finish(w.trace, trace_err, sizeof trace_err) < 0 && rc == 0) {
        sim_results_free(&res);
        snprintf(err, sizeof err, "%s", trace_err);
        rc = -1;
    }
    if (rc < 0) {
        if (o->write_trace)
            remove(o->write_trace); /* no half-written trace left behind */
        fprintf(stderr, "regionsim %s: %s\n", o->cmd_name, err);
        return EXIT_USAGE;
    }
    rc = write_report(o, &res);
    sim_results_free(&res);
    return rc;
}

int main(int argc, char **argv)
{
    options o;
    parse_args(&o, argc, argv);
    int rc = o.cmd == CMD_KEYS ? run_keys(&o) : run_simulation(&o);
    scenario_release(&o.sc);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("regionsim: writing the report");
        return EXIT_USAGE;
    }
    return rc;
}
