/* scenario_file.c -- loading a scenario file (scenario_load).
 *
 * Files are INI, read with inih through a line reader of our own so that
 * every message can name FILE:LINE. Sections: the top level (name, seed,
 * max_memory), [cluster], [workload], [reads], one [phase NAME] per phase
 * of the workload, one [event NAME] per change to the cluster, one
 * [scheme NAME] per scheme with key = EXPR, one [assert NAME] per CI
 * assertion with expect = ASSERTION, and [advise] (budget, weights, fix:
 * what `regionsim advise` searches; check_durations, check_loads: how it
 * checks its pick).
 *
 * Design: the reader checks each line before inih parses it, and stops at
 * the first mistake (what it checks is described below). inih then hands
 * each `key = value` to file_entry, which sends it by section:
 *  - the top level, [cluster], [workload] and [reads] go through
 *    scenario_set with their section, as options do without one, so that
 *    a file and an option accept exactly the same values and say the same
 *    thing about a bad one; a [workload] key sets the base only;
 *  - [phase NAME]: the phase is made (a copy of [workload]) by its header;
 *    its settings are applied at once, to report a bad value at its line,
 *    and kept, to be replayed when the file has been read over [workload]
 *    as the whole file leaves it: a phase is that plus its own settings;
 *  - [event NAME]: at, action, servers, server, detection; the events are
 *    put in time order once the file has been read;
 *  - [scheme NAME]: key = EXPR; a file's first scheme replaces the
 *    default ones;
 *  - [assert NAME]: expect = TEXT, stored with its FILE:LINE as the
 *    scenario's assertion NAME (scenario_add_assertion); the text is parsed
 *    by reports/assertion.h, not here (sim does not depend on reports), so
 *    a mistake in it is reported at that FILE:LINE once the options are in;
 *  - [advise]: budget (checked here), weights, fix, check_durations and
 *    check_loads (kept as text with their FILE:LINE, as an [assert]'s text
 *    is: planners/advise.c and planners/advise_check.c read them,
 *    and says what is wrong at that line); each key at most once.
 * A trace or split keys file a file names is relative to the file. What
 * needs the whole scenario (the run's length against its events, the
 * schemes' syntax, ...) is checked later, when the options have been
 * applied too: scenario_validate (scenario_check.c).
 */
#include "scenario/scenario.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ini.h>

#include "scenario/scenario_impl.h"
#include "scenario/units.h"
#include "workloads/ycsb_workload.h"

/* A file is read by inih (ini_parse_stream) through file_read_line, which
 * hands it one line at a time after the checks inih does not make, so
 * that every mistake is reported at its own line and reading stops at the
 * first one:
 *  - a NUL byte, a line longer than inih's buffer holds, a read error
 *    (a directory is refused before reading), more than
 *    SCENARIO_MAX_LINES lines (a stream that never ends);
 *  - a section header without its ']', or with text after it; a section
 *    name with a control byte, an unknown section, a 65th [scheme NAME];
 *  - a line that is neither a comment, a header nor `key = value`;
 *  - an indented line after a `key = value`: inih (built with
 *    INI_ALLOW_MULTILINE, as Debian's libinih is) would take it as the
 *    continuation of that value and hand the key over again, silently
 *    replacing its value.
 * The reader also keeps the section name itself: inih cuts section names
 * to 49 characters, which would merge two long phase or scheme names.
 *
 * A sweep file (one with a [sweep] section, as scenario/sweep.c recognises it)
 * is `regionsim sweep`'s, and its $NAME values mean nothing here: when
 * reading stops, at its [sweep] header or at an earlier line (a `servers =
 * $n`), the rest of the file is scanned for that header, and if there is
 * one the message says which command runs the file (sweep_message). */

/* A [scheme NAME] or [assert NAME] header, so that one without its key
 * (key, expect) can be reported, and a second one of it refused. */
typedef struct keyed_section {
    const char *name;         /* owned by the scenario */
    int line;
    int has_key;
} keyed_section;

typedef struct file_reader {
    FILE *f;
    const char *path;
    char shown_path[161];     /* path as messages show it: escaped, cut */
    scenario *sc;
    int line;                 /* line the reader handed out last */
    int failed;
    int sweep_line;           /* the [sweep] header's line, once seen (0: none) */
    int not_text;             /* reading stopped at what a text file lacks: no [sweep] scan */
    char *err;
    size_t errcap;
    int file_has_schemes;     /* the first scheme section replaces the defaults */
    keyed_section sections[SCENARIO_MAX_SCHEMES];
    size_t nsections;
    keyed_section asserts[SCENARIO_MAX_ASSERTIONS];
    size_t nasserts;
    int advise_lines[5];      /* [advise]: the line of budget, weights, fix, check_durations,
                               * check_loads (0: not yet) */
    char section[256];        /* the current section's name, as its header gives it */
    char prev_key[256];       /* the key of the last `key = value` in this section ... */
    int prev_key_line;        /* ... and its line: an indented line would continue it */
    /* [phase NAME] settings, replayed over the final [workload] at the end */
    struct phase_setting {
        size_t phase;
        const setting *s;
        const char *value;
    } *phase_settings;
    size_t nphase_settings, phase_settings_cap;
} file_reader;

#define FILE_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* Records "FILE:LINE: what" unless an error is recorded already; returns
 * 0 (inih's "stop" for a handler). */
static int file_fail(file_reader *fr, int line, const char *fmt, ...) FILE_PRINTF(3, 4);
static int file_fail(file_reader *fr, int line, const char *fmt, ...)
{
    if (!fr->failed) {
        int n = snprintf(fr->err, fr->errcap, "%s:%d: ", fr->shown_path, line);
        if (n >= 0 && (size_t)n < fr->errcap) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(fr->err + n, fr->errcap - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    fr->failed = 1;
    return 0;
}

/* The first control byte (below 0x20, or 0x7f) of s[0..len), or NULL. */
static const char *find_control(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return s + i;
    return NULL;
}

/* inih's ini_find_chars_or_comment: the first of chars, or the ';' of an
 * inline comment (one after whitespace), or the end of s. */
static const char *ini_find(const char *s, const char *chars)
{
    int was_space = 0;
    while (*s && !strchr(chars, *s) && !(was_space && *s == ';')) {
        was_space = isspace((unsigned char)*s);
        s++;
    }
    return s;
}

static keyed_section *file_scheme_section(file_reader *fr, const char *name);
static cluster_event *file_event(file_reader *fr, const char *name);
static phase *file_phase(file_reader *fr, const char *name, size_t *index);
static int file_assert_section(file_reader *fr, const char *name);

/* Whether the header text between '[' and ']' (n bytes) is "sweep",
 * spaces allowed around it, as scenario/sweep.c's is_sweep_header reads it. */
static int is_sweep_section(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return n == 5 && !memcmp(s, "sweep", 5);
}

/* The line of the first "[sweep]" header in the rest of f, counting the
 * lines on from `line` (the line read last), or 0 when there is none
 * (within SCENARIO_MAX_LINES lines of at most SWEEP_SCAN_LINE bytes, and
 * before a NUL byte: what the reader itself would take for text). */
#define SWEEP_SCAN_LINE 65536
static int find_sweep_header(FILE *f, int line)
{
    char head[16];
    size_t n = 0, col = 0;
    int c, start = 1, in_header = 0;
    while ((c = getc(f)) != EOF && c != '\0' && line < SCENARIO_MAX_LINES) {
        if (++col > SWEEP_SCAN_LINE)
            return 0;
        if (c == '\n') {
            line++, start = 1, in_header = 0, col = 0;
        } else if (start && (c == ' ' || c == '\t')) {
            continue;
        } else if (start && c == '[') {
            start = 0, in_header = 1, n = 0;
        } else if (in_header && c == ']') {
            if (is_sweep_section(head, n))
                return line + 1;
            in_header = 0;
        } else if (in_header) {
            if (n == sizeof head)
                in_header = 0;
            else
                head[n++] = (char)c;
        } else {
            start = 0;
        }
    }
    return 0;
}

/* err (errcap bytes) becomes "FILE:LINE: [sweep] makes this a sweep file:
 * run it with 'regionsim sweep FILE'". */
static void sweep_message(file_reader *fr, int line)
{
    snprintf(fr->err, fr->errcap, "%s:%d: [sweep] makes this a sweep file: run it with "
             "'regionsim sweep %s'", fr->shown_path, line, fr->shown_path);
}

/* A "[section]" line (trimmed, starting with '['). Returns 0, or -1 when it
 * failed. */
static int file_header(file_reader *fr, const char *start)
{
    char shown[SHOWN + 1];
    const char *end = ini_find(start + 1, "]");
    if (*end != ']')
        return file_fail(fr, fr->line, "expected ']' to end the section header, found '%s'",
                         escape_text(start, SHOWN, shown, sizeof shown)) - 1;
    const char *rest = end + 1;
    while (isspace((unsigned char)*rest))
        rest++;
    if (*rest && *rest != ';')
        return file_fail(fr, fr->line, "unexpected '%s' after the section header: expected "
                         "the end of the line or a ; comment",
                         escape_text(rest, SHOWN, shown, sizeof shown)) - 1;
    size_t len = (size_t)(end - start - 1);
    const char *bad = find_control(start + 1, len);
    if (bad)
        return file_fail(fr, fr->line, "control byte \\x%02X in a section name: expected "
                         "printable characters", (unsigned char)*bad) - 1;
    if (is_sweep_section(start + 1, len)) {
        fr->sweep_line = fr->line;
        return file_fail(fr, fr->line, "[sweep]: a sweep file") - 1; /* sweep_message's */
    }
    snprintf(fr->section, sizeof fr->section, "%.*s", (int)len, start + 1);
    fr->prev_key[0] = '\0'; /* a header ends inih's continuation */
    const char *s = fr->section;
    size_t index;
    if (!strncmp(s, "scheme ", 7) && s[7]) {
        if (fr->nsections == SCENARIO_MAX_SCHEMES)
            return file_fail(fr, fr->line, "too many schemes: at most %d [scheme NAME] "
                             "sections", SCENARIO_MAX_SCHEMES) - 1;
        if (!file_scheme_section(fr, s + 7))
            return file_fail(fr, fr->line, "out of memory") - 1;
    } else if (!strncmp(s, "phase ", 6) && s[6]) {
        if (!file_phase(fr, s + 6, &index))
            return file_fail(fr, fr->line, "too many phases (at most %d)",
                             SCENARIO_MAX_PHASES) - 1;
    } else if (!strncmp(s, "event ", 6) && s[6]) {
        if (!file_event(fr, s + 6))
            return file_fail(fr, fr->line, "too many events (at most %d)",
                             SCENARIO_MAX_EVENTS) - 1;
    } else if (!strncmp(s, "assert ", 7) && s[7]) {
        if (file_assert_section(fr, s + 7) < 0)
            return -1;
    } else if (strcmp(s, "") && strcmp(s, "cluster") && strcmp(s, "workload") &&
               strcmp(s, "reads") && strcmp(s, "ycsb") && strcmp(s, "advise")) {
        return file_fail(fr, fr->line, "unknown section [%s]; expected [cluster], [workload], "
                         "[reads], [ycsb], [phase NAME], [event NAME], [scheme NAME], "
                         "[assert NAME] or [advise]",
                         escape_text(s, 64, shown, sizeof shown)) - 1;
    }
    return 0;
}

/* Checks one line (without its line end) before inih sees it. */
static void file_check_line(file_reader *fr, const char *line)
{
    const char *start = line;
    while (isspace((unsigned char)*start))
        start++;
    if (!*start || *start == ';' || *start == '#')
        return; /* blank, or a comment */
    if (fr->prev_key[0] && start > line) {
        file_fail(fr, fr->line, "indented line: in INI an indented line continues the value "
                  "of the key above ('%s', line %d), which scenario files do not support; "
                  "remove the indentation (or start the line with ; to make it a comment)",
                  fr->prev_key, fr->prev_key_line);
        return;
    }
    if (*start == '[') {
        file_header(fr, start);
        return;
    }
    const char *end = ini_find(start, "=:");
    if (*end != '=' && *end != ':') {
        char shown[SHOWN + 1];
        file_fail(fr, fr->line, "expected '[section]' or 'key = value', found '%s'",
                  escape_text(start, SHOWN, shown, sizeof shown));
        return;
    }
    while (end > start && isspace((unsigned char)end[-1]))
        end--;
    char key[256];
    snprintf(key, sizeof key, "%.*s", (int)(end - start), start);
    escape_text(key, 64, fr->prev_key, sizeof fr->prev_key); /* as messages show it */
    /* an empty key ("= value") leaves prev_key empty: inih continues no value */
    fr->prev_key_line = fr->line;
}

/* inih's line source (an fgets for size bytes): the next line, with "\n"
 * as its end whatever the file had ("\r\n", or none on the last line),
 * once file_check_line has passed it; NULL at the end or after an error,
 * which stops inih. */
static char *file_read_line(char *buf, int size, void *stream)
{
    file_reader *fr = stream;
    if (fr->failed || size < 3)
        return NULL;
    size_t max = (size_t)size - 2; /* the characters a line may have: room for "\n" and NUL */
    if (fr->line >= SCENARIO_MAX_LINES) {
        int c = getc(fr->f);
        if (c == EOF && !ferror(fr->f))
            return NULL;
        fr->not_text = 1;
        file_fail(fr, fr->line + 1, "more than %d lines: a scenario file has a few hundred "
                  "(is this the right file?)", SCENARIO_MAX_LINES);
        return NULL;
    }
    size_t n = 0;
    int c;
    while ((c = getc(fr->f)) != EOF && c != '\n') {
        if (c == '\0') {
            fr->not_text = 1;
            file_fail(fr, fr->line + 1, "NUL byte at column %zu: expected text (is this a "
                      "scenario file?)", n + 1);
            return NULL;
        }
        if (n == max + 1) { /* max characters and a '\r' before the "\n" would fit */
            fr->not_text = 1;
            file_fail(fr, fr->line + 1, "line too long: expected at most %zu characters", max);
            return NULL;
        }
        buf[n++] = (char)c;
    }
    if (c == EOF && ferror(fr->f)) {
        fr->not_text = 1;
        file_fail(fr, fr->line + 1, "read error: %s", strerror(errno));
        return NULL;
    }
    if (c == EOF && n == 0)
        return NULL;
    fr->line++;
    if (n > 0 && buf[n - 1] == '\r')
        n--;
    if (n > max) {
        file_fail(fr, fr->line, "line too long: expected at most %zu characters", max);
        return NULL;
    }
    buf[n] = '\0';
    /* A UTF-8 byte order mark: skipped, as inih would. */
    if (fr->line == 1 && n >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) {
        memmove(buf, buf + 3, n - 2);
        n -= 3;
    }
    file_check_line(fr, buf);
    if (fr->failed)
        return NULL;
    buf[n] = '\n';
    buf[n + 1] = '\0';
    return buf;
}

/* Notes a [scheme NAME] header, so that a scheme section with no key can be
 * reported too. NULL when out of memory. */
static keyed_section *file_scheme_section(file_reader *fr, const char *name)
{
    const char *own = scenario_own(fr->sc, name);
    if (!own)
        return NULL;
    keyed_section *ss = &fr->sections[fr->nsections++];
    ss->name = own;
    ss->line = fr->line;
    ss->has_key = 0;
    return ss;
}

static int file_scheme_entry(file_reader *fr, const char *name, const char *key,
                             const char *value)
{
    char shown[65];
    if (strcmp(key, "key") != 0)
        return file_fail(fr, fr->line, "unknown key '%s' in [scheme %s]; expected "
                         "key = EXPRESSION", escape_text(key, 64, shown, sizeof shown), name);
    keyed_section *ss = &fr->sections[fr->nsections - 1]; /* the header came first */
    if (ss->has_key)
        return file_fail(fr, fr->line, "[scheme %s] has a second 'key'", name);
    if (!fr->file_has_schemes)
        fr->sc->nschemes = 0;
    fr->file_has_schemes = 1;
    char origin[300];
    snprintf(origin, sizeof origin, "%s:%d", fr->shown_path, fr->line);
    const char *text = scenario_own(fr->sc, value), *where = scenario_own(fr->sc, origin);
    if (!text || !where || scenario_add_scheme(fr->sc, ss->name, text) < 0)
        return file_fail(fr, fr->line, "out of memory");
    fr->sc->schemes[fr->sc->nschemes - 1].origin = where; /* its errors name the line */
    ss->has_key = 1;
    return 1;
}

/* The phase called name, created (as a copy of [workload]) on first use;
 * NULL when there are SCENARIO_MAX_PHASES already (or out of memory). */
static phase *file_phase(file_reader *fr, const char *name, size_t *index)
{
    scenario *sc = fr->sc;
    for (size_t i = 0; i < sc->nphases; i++) {
        if (!strcmp(sc->phases[i].name, name)) {
            *index = i;
            return &sc->phases[i];
        }
    }
    const char *own = sc->nphases < SCENARIO_MAX_PHASES ? scenario_own(sc, name) : NULL;
    if (!own)
        return NULL;
    *index = sc->nphases;
    phase *ph = &sc->phases[sc->nphases++];
    *ph = sc->workload;
    ph->name = own;
    return ph;
}

static int file_phase_entry(file_reader *fr, const char *name, const char *key,
                            const char *value)
{
    char why[640];
    const setting *s = scenario_setting_find(key);
    if (!s || s->target != IN_PHASE) {
        if (s)
            snprintf(why, sizeof why, "'%s' belongs in [%s], not in a phase", key,
                     s->section[0] ? s->section : "the top level");
        else
            scenario_unknown_key("workload", key, why, sizeof why);
        char shown[65];
        return file_fail(fr, fr->line, "[phase %s] %s: %s", name,
                         escape_text(key, 64, shown, sizeof shown), why);
    }
    size_t index;
    phase *ph = file_phase(fr, name, &index); /* made by its header */
    const char *own = scenario_own(fr->sc, value);
    if (!ph || !own)
        return file_fail(fr, fr->line, "out of memory");
    if (scenario_setting_apply(fr->sc, ph, s, value, why, sizeof why) < 0)
        return file_fail(fr, fr->line, "[phase %s] %s: %s", name, key, why);
    if (fr->nphase_settings == fr->phase_settings_cap) {
        size_t cap = fr->phase_settings_cap ? 2 * fr->phase_settings_cap : 16;
        struct phase_setting *ps = realloc(fr->phase_settings, cap * sizeof *ps);
        if (!ps)
            return file_fail(fr, fr->line, "out of memory");
        fr->phase_settings = ps;
        fr->phase_settings_cap = cap;
    }
    fr->phase_settings[fr->nphase_settings++] = (struct phase_setting){ index, s, own };
    return 1;
}

/* The event called name, created on first use (action add, detection 90 s:
 * HBase's default zookeeper.session.timeout of 90000 ms); NULL when there
 * are SCENARIO_MAX_EVENTS already (or out of memory). */
static cluster_event *file_event(file_reader *fr, const char *name)
{
    scenario *sc = fr->sc;
    for (size_t i = 0; i < sc->nevents; i++)
        if (!strcmp(sc->events[i].name, name))
            return &sc->events[i];
    const char *own = sc->nevents < SCENARIO_MAX_EVENTS ? scenario_own(sc, name) : NULL;
    if (!own)
        return NULL;
    cluster_event *e = &sc->events[sc->nevents++];
    memset(e, 0, sizeof *e);
    e->name = own;
    e->servers = 1;
    e->detection_us = 90 * SECOND_US;
    e->line = e->at_line = fr->line;
    e->at_us = UINT64_MAX; /* required */
    return e;
}

static int file_event_entry(file_reader *fr, const char *name, const char *key,
                            const char *value)
{
    static const choice actions[] = { { "add", EVENT_ADD_SERVERS },
                                      { "decommission", EVENT_DECOMMISSION },
                                      { "fail", EVENT_FAIL }, { NULL, 0 } };
    char shown[SHOWN + 1];
    cluster_event *e = file_event(fr, name); /* made by its header */
    if (!e)
        return file_fail(fr, fr->line, "out of memory");
    uint64_t v;
    int ok = 1;
    if (!strcmp(key, "at")) {
        ok = units_parse_duration(value, &v) == 0;
        e->at_us = v;
        e->at_line = fr->line;
    } else if (!strcmp(key, "detection")) {
        ok = units_parse_duration(value, &v) == 0;
        e->detection_us = v;
    } else if (!strcmp(key, "servers")) {
        ok = units_parse_count(value, &v) == 0 && v >= 1 && v <= SCENARIO_MAX_SERVERS;
        e->servers = (uint32_t)v;
    } else if (!strcmp(key, "server")) {
        ok = units_parse_count(value, &v) == 0 && v < 1000000;
        e->server = (uint32_t)v;
    } else if (!strcmp(key, "action")) {
        ok = 0;
        for (const choice *c = actions; c->name; c++)
            if (!strcmp(value, c->name))
                e->action = (event_action)c->value, ok = 1;
    } else {
        return file_fail(fr, fr->line, "unknown key '%s' in [event %s]; expected at, action, "
                         "servers, server or detection",
                         escape_text(key, 64, shown, sizeof shown), name);
    }
    if (!ok)
        return file_fail(fr, fr->line, "[event %s] %s: expected %s, found '%s'", name, key,
                         !strcmp(key, "action") ? "add, decommission or fail"
                         : !strcmp(key, "servers") ? "a count from 1 to 100000"
                         : !strcmp(key, "server") ? "a server number (rs<N>: N)"
                         : "a duration with a unit (us, ms, s, m, h, d)",
                         escape_text(value, SHOWN, shown, sizeof shown));
    return 1;
}

/* Notes an [assert NAME] header. Returns 0, or -1 when it failed: a
 * 65th, a name another [assert] has, out of memory. */
static int file_assert_section(file_reader *fr, const char *name)
{
    if (fr->nasserts == SCENARIO_MAX_ASSERTIONS)
        return file_fail(fr, fr->line, "too many assertions: at most %d [assert NAME] sections",
                         SCENARIO_MAX_ASSERTIONS) - 1;
    for (size_t i = 0; i < fr->nasserts; i++)
        if (!strcmp(fr->asserts[i].name, name))
            return file_fail(fr, fr->line, "a second [assert %s] (the first is at line %d): "
                             "each assertion needs a name of its own", name,
                             fr->asserts[i].line) - 1;
    const char *own = scenario_own(fr->sc, name);
    if (!own)
        return file_fail(fr, fr->line, "out of memory") - 1;
    fr->asserts[fr->nasserts++] = (keyed_section){ own, fr->line, 0 };
    return 0;
}

/* A line of [assert NAME]: expect = ASSERTION, stored with its FILE:LINE. */
static int file_assert_entry(file_reader *fr, const char *key, const char *value)
{
    char shown[SHOWN + 1], origin[300], why[512];
    keyed_section *as = &fr->asserts[fr->nasserts - 1]; /* the header came first */
    if (strcmp(key, "expect") != 0)
        return file_fail(fr, fr->line, "unknown key '%s' in [assert %s]; expected "
                         "expect = ASSERTION (write_max_mean <= 1.2 ...: docs/scenarios.md)",
                         escape_text(key, 64, shown, sizeof shown), as->name);
    if (as->has_key)
        return file_fail(fr, fr->line, "[assert %s] has a second 'expect'", as->name);
    if (!value[0])
        return file_fail(fr, fr->line, "[assert %s] expect: expected an assertion "
                         "(write_max_mean <= 1.2 ...), found nothing", as->name);
    snprintf(origin, sizeof origin, "%s:%d", fr->shown_path, fr->line);
    if (scenario_add_assertion(fr->sc, as->name, value, origin, why, sizeof why) < 0)
        return file_fail(fr, fr->line, "[assert %s] %s", as->name, why);
    as->has_key = 1;
    return 1;
}

/* A line of [advise]: budget = N (1..4096), weights = LIST, fix = PREFIX,
 * check_durations = LIST, check_loads = LIST; all but the budget stored
 * with their FILE:LINE for planners/advise*.c to read. */
static int file_advise_entry(file_reader *fr, const char *key, const char *value)
{
    static const char *const keys[5] = { "budget", "weights", "fix", "check_durations",
                                         "check_loads" };
    char shown[SHOWN + 1], origin[300], why[512];
    size_t k = 0;
    while (k < 5 && strcmp(key, keys[k]))
        k++;
    if (k == 5)
        return file_fail(fr, fr->line, "unknown key '%s' in [advise]; expected budget, weights, "
                         "fix, check_durations or check_loads (docs/advise.md)",
                         escape_text(key, 64, shown, sizeof shown));
    if (fr->advise_lines[k])
        return file_fail(fr, fr->line, "[advise] has a second '%s' (the first is at line %d)",
                         keys[k], fr->advise_lines[k]);
    if (!value[0])
        return file_fail(fr, fr->line, "[advise] %s: expected %s, found nothing", keys[k],
                         k == 0 ? "a number of candidates 1..4096"
                         : k == 1 ? "NAME=NUMBER[,NAME=NUMBER...]"
                         : k == 2 ? "a key prefix" : "multipliers (2x,4x)");
    scenario_advise *a = &fr->sc->advise;
    if (k == 0) {
        if (scenario_advise_budget(value, &a->budget, why, sizeof why) < 0)
            return file_fail(fr, fr->line, "[advise] budget: %s", why);
    } else {
        const char *bad = find_control(value, strlen(value));
        if (bad)
            return file_fail(fr, fr->line, "[advise] %s: control byte \\x%02X at character "
                             "%zu: expected printable characters", keys[k], (unsigned char)*bad,
                             (size_t)(bad - value) + 1);
        snprintf(origin, sizeof origin, "%s:%d", fr->shown_path, fr->line);
        const char *text = scenario_own(fr->sc, value), *where = scenario_own(fr->sc, origin);
        if (!text || !where)
            return file_fail(fr, fr->line, "out of memory");
        const char **texts[5] = { NULL, &a->weights, &a->fix, &a->check_durations,
                                  &a->check_loads };
        const char **origins[5] = { NULL, &a->weights_origin, &a->fix_origin,
                                    &a->check_durations_origin, &a->check_loads_origin };
        *texts[k] = text;
        *origins[k] = where;
    }
    fr->advise_lines[k] = fr->line;
    return 1;
}

/* A line of [ycsb]: a YCSB property, applied over the workload's own. */
static int file_ycsb_entry(file_reader *fr, const char *key, const char *value)
{
    char origin[300], why[640];
    snprintf(origin, sizeof origin, "%s:%d", fr->shown_path, fr->line);
    if (scenario_ycsb_property(fr->sc, key, value, origin, why, sizeof why) < 0) {
        size_t n = strlen(origin); /* the message names its origin: said once */
        const char *what = !strncmp(why, origin, n) && !strncmp(why + n, ": ", 2) ? why + n + 2
                                                                                  : why;
        return file_fail(fr, fr->line, "[ycsb] %s", what);
    }
    return 1;
}

/* Events in time order (stable: file order on ties). */
static void file_sort_events(scenario *sc)
{
    for (size_t i = 1; i < sc->nevents; i++) {
        cluster_event e = sc->events[i];
        size_t j = i;
        for (; j > 0 && sc->events[j - 1].at_us > e.at_us; j--)
            sc->events[j] = sc->events[j - 1];
        sc->events[j] = e;
    }
}

/* Each phase is [workload] as the file left it, plus its own settings. */
static void file_resolve_phases(file_reader *fr)
{
    scenario *sc = fr->sc;
    char why[640];
    for (size_t i = 0; i < sc->nphases; i++) {
        const char *name = sc->phases[i].name;
        sc->phases[i] = sc->workload;
        sc->phases[i].name = name;
    }
    for (size_t k = 0; k < fr->nphase_settings; k++) {
        struct phase_setting *ps = &fr->phase_settings[k];
        scenario_setting_apply(sc, &sc->phases[ps->phase], ps->s, ps->value, why, sizeof why);
    }
}

/* A trace or split keys file named in a file is found relative to the
 * file, not to the directory the program runs in. Returns value, or the
 * joined path (owned by the scenario), or NULL when out of memory. */
static const char *file_relative_path(const file_reader *fr, const char *key,
                                      const char *value)
{
    const char *slash = strrchr(fr->path, '/');
    int names_file = !strcmp(key, "trace") || !strcmp(key, "split_keys_file") ||
                     (!strcmp(key, "ycsb") && !ycsb_builtin_exists(value) &&
                      !strcmp(fr->section, "workload"));
    if (!names_file || value[0] == '/' || !value[0] || !slash)
        return value;
    size_t dir = (size_t)(slash - fr->path), len = strlen(value);
    char *joined = malloc(dir + 1 + len + 1);
    if (!joined)
        return NULL;
    memcpy(joined, fr->path, dir);
    joined[dir] = '/';
    memcpy(joined + dir + 1, value, len + 1);
    const char *own = scenario_own(fr->sc, joined);
    free(joined);
    return own;
}

static int file_entry(void *user, const char *inih_section, const char *key, const char *value)
{
    file_reader *fr = user;
    (void)inih_section; /* cut to 49 characters: the reader keeps the whole name */
    const char *section = fr->section;
    if (fr->failed)
        return 0;
    value = file_relative_path(fr, key, value);
    if (!value)
        return file_fail(fr, fr->line, "out of memory");
    if (!strncmp(section, "scheme ", 7))
        return file_scheme_entry(fr, section + 7, key, value);
    if (!strncmp(section, "phase ", 6))
        return file_phase_entry(fr, section + 6, key, value);
    if (!strncmp(section, "event ", 6))
        return file_event_entry(fr, section + 6, key, value);
    if (!strncmp(section, "assert ", 7))
        return file_assert_entry(fr, key, value);
    if (!strcmp(section, "advise"))
        return file_advise_entry(fr, key, value);
    if (!strcmp(section, "ycsb")) /* YCSB properties, as -p sets them */
        return file_ycsb_entry(fr, key, value);
    if (!section[0] && !strcmp(key, "name")) {
        const char *bad = find_control(value, strlen(value));
        if (bad)
            return file_fail(fr, fr->line, "name: control byte \\x%02X at character %zu: "
                             "expected printable characters", (unsigned char)*bad,
                             (size_t)(bad - value) + 1);
    }
    char why[640], shown[65];
    /* Not scenario_set: a [workload] key in a file sets the base only. */
    int rc = scenario_set(fr->sc, section, key, value, why, sizeof why);
    if (rc == 0)
        return 1;
    if (rc == -2 && scenario_setting_find(key))
        snprintf(why, sizeof why, "'%s' belongs in [%s], not in [%s]", key,
                 scenario_setting_find(key)->section, section);
    escape_text(key, 64, shown, sizeof shown);
    if (section[0])
        return file_fail(fr, fr->line, "[%s] %s: %s", section, shown, why);
    return file_fail(fr, fr->line, "%s: %s", shown, why);
}

/* Reads the open file f (closed here) as the scenario file `path`. */
static int load_stream(scenario *sc, const char *path, FILE *f, char *err, size_t errcap)
{
    file_reader fr;
    memset(&fr, 0, sizeof fr);
    fr.path = path;
    fr.sc = sc;
    fr.err = err;
    fr.errcap = errcap;
    fr.f = f;
    escape_text(path, sizeof fr.shown_path - 1, fr.shown_path, sizeof fr.shown_path);
    sc->file = scenario_own(sc, path);
    if (!sc->file) {
        snprintf(err, errcap, "%s: out of memory", fr.shown_path);
        fclose(fr.f);
        return -1;
    }
    const char *name_before = sc->name;
    int line = ini_parse_stream(file_read_line, &fr, file_entry, &fr);
    if (fr.failed && !fr.sweep_line && !fr.not_text) /* stopped before a [sweep]? */
        fr.sweep_line = find_sweep_header(fr.f, fr.line);
    fclose(fr.f);
    if (fr.sweep_line) {
        sweep_message(&fr, fr.sweep_line);
        return -1;
    }
    if (line != 0 && !fr.failed) /* not expected: the reader checks lines first */
        file_fail(&fr, line, "expected '[section]' or 'key = value'");
    if (!fr.failed)
        file_resolve_phases(&fr);
    for (size_t i = 0; i < sc->nevents && !fr.failed; i++)
        if (sc->events[i].at_us == UINT64_MAX)
            file_fail(&fr, sc->events[i].line, "[event %s] has no 'at = TIME'",
                      sc->events[i].name);
    file_sort_events(sc);
    free(fr.phase_settings);
    for (size_t i = 0; i < fr.nsections && !fr.failed; i++)
        if (!fr.sections[i].has_key)
            file_fail(&fr, fr.sections[i].line, "[scheme %s] has no 'key = EXPRESSION'",
                      fr.sections[i].name);
    for (size_t i = 0; i < fr.nasserts && !fr.failed; i++)
        if (!fr.asserts[i].has_key)
            file_fail(&fr, fr.asserts[i].line, "[assert %s] has no 'expect = ASSERTION'",
                      fr.asserts[i].name);
    if (fr.failed)
        return -1;
    if (sc->name == name_before) { /* the file did not name itself */
        const char *base = strrchr(path, '/');
        const char *own = scenario_own(sc, base ? base + 1 : path);
        own = own ? scenario_own_printable(sc, own) : NULL;
        sc->name = own ? own : sc->name;
    }
    return 0;
}

int scenario_load(scenario *sc, const char *path, char *err, size_t errcap)
{
    char shown[161];
    escape_text(path, sizeof shown - 1, shown, sizeof shown);
    FILE *f = fopen(path, "r");
    struct stat st;
    if (!f || fstat(fileno(f), &st) < 0) {
        snprintf(err, errcap, "%s: cannot open the scenario file: %s", shown, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errcap, "%s: is a directory; expected a scenario file", shown);
        fclose(f);
        return -1;
    }
    return load_stream(sc, path, f, err, errcap);
}

int scenario_load_text(scenario *sc, const char *path, const char *text, size_t len, char *err,
                       size_t errcap)
{
    char shown[161];
    escape_text(path, sizeof shown - 1, shown, sizeof shown);
    /* fmemopen of 0 bytes is refused by some libcs: an empty file is one newline */
    FILE *f = len ? fmemopen((void *)text, len, "r") : fmemopen((void *)"\n", 1, "r");
    if (!f) {
        snprintf(err, errcap, "%s: cannot read the scenario text: %s", shown, strerror(errno));
        return -1;
    }
    return load_stream(sc, path, f, err, errcap);
}
