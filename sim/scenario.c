/* scenario.c -- the default scenario, the settings table, scenario files.
 *
 * The default is sized for a classroom: 8 servers, 1,000 series writing
 * once a second for 30 simulated minutes, and regions that split at 4 MiB
 * (HBase's default hbase.hregion.max.filesize is 10 GiB; shrinking it is
 * what lets a run of a second show the splits and balancer moves a real
 * table shows over days). The balancer period is HBase's default,
 * hbase.balancer.period = 300000 ms.
 *
 * Settings live in one table: section, key, type, range and where the value
 * goes in the struct. Files and options both set values through it, so a
 * new setting is one table row, and error messages are uniform.
 *
 * Files are INI, read with inih through a line reader of our own so that
 * every message can name FILE:LINE. Sections: top level (name, seed),
 * [cluster], [workload], and one [scheme NAME] per scheme with key = EXPR.
 */
#include "sim/scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "sim/units.h"
#include "workloads/keyscheme.h"

#define MIB (1024ull * 1024ull)
#define SECOND_US 1000000ull
#define MINUTE_US (60ull * SECOND_US)

void scenario_defaults(scenario *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->name = "default";
    sc->seed = 42;
    sc->servers = 8;
    sc->region_max_bytes = 4 * MIB;
    sc->balancer = BALANCER_REGION_COUNT;
    sc->balancer_period_us = 5 * MINUTE_US;
    sc->presplit = PRESPLIT_BUCKETS;
    sc->series.metrics = 50;
    sc->series.hosts = 20;
    sc->series.interval_us = SECOND_US;
    sc->series.start_ms = 1704067200000ull; /* 2024-01-01T00:00:00Z */
    /* OpenTSDB's cell: family "t", a 2-byte qualifier, an 8-byte value. */
    sc->family_bytes = 1;
    sc->qualifier_bytes = 2;
    sc->value_bytes = 8;
    sc->duration_us = 30 * MINUTE_US;
    sc->window_us = MINUTE_US;
    for (size_t i = 0; i < keyscheme_preset_count(); i++)
        scenario_add_scheme(sc, NULL, keyscheme_preset_name(i));
}

void scenario_release(scenario *sc)
{
    for (size_t i = 0; i < sc->nowned; i++)
        free(sc->owned[i]);
    sc->nowned = 0;
}

/* A copy of s that sc owns, or NULL when out of memory or out of slots. */
static const char *scenario_own(scenario *sc, const char *s)
{
    if (sc->nowned == sizeof sc->owned / sizeof *sc->owned)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) {
        memcpy(p, s, n);
        sc->owned[sc->nowned++] = p;
    }
    return p;
}

int scenario_add_scheme(scenario *sc, const char *label, const char *text)
{
    if (sc->nschemes == SCENARIO_MAX_SCHEMES)
        return -1;
    sc->schemes[sc->nschemes].label = label;
    sc->schemes[sc->nschemes].text = text;
    sc->nschemes++;
    return 0;
}

/* ---- the settings table ---- */

typedef enum setting_kind { SET_COUNT, SET_SIZE, SET_DURATION, SET_CHOICE, SET_NAME } setting_kind;

typedef struct setting {
    const char *section;     /* "" = top level */
    const char *key;
    setting_kind kind;
    uint64_t lo, hi;         /* accepted range (numbers) */
    size_t offset, width;    /* where the value goes: 4 or 8 bytes */
    const char *const *choices; /* SET_CHOICE: NULL-terminated, index = value */
} setting;

static const char *const balancer_choices[] = { "none", "region-count", NULL };
static const char *const presplit_choices[] = { "none", "buckets", NULL };
_Static_assert(BALANCER_REGION_COUNT == 1 && PRESPLIT_BUCKETS == 1,
               "choice tables list enum values in order");
_Static_assert(sizeof(balancer_kind) == 4 && sizeof(presplit_kind) == 4,
               "choices are stored as 4-byte values");

#define FIELD(f) offsetof(scenario, f), sizeof(((scenario *)0)->f)
static const setting settings[] = {
    { "", "name", SET_NAME, 0, 0, FIELD(name), NULL },
    { "", "seed", SET_COUNT, 0, UINT64_MAX, FIELD(seed), NULL },
    { "cluster", "servers", SET_COUNT, 1, 100000, FIELD(servers), NULL },
    { "cluster", "region_size", SET_SIZE, 1024, 1ull << 50, FIELD(region_max_bytes), NULL },
    { "cluster", "balancer", SET_CHOICE, 0, 0, FIELD(balancer), balancer_choices },
    { "cluster", "balancer_period", SET_DURATION, 1, UINT64_MAX, FIELD(balancer_period_us), NULL },
    { "cluster", "presplit", SET_CHOICE, 0, 0, FIELD(presplit), presplit_choices },
    { "workload", "metrics", SET_COUNT, 1, 1000000, FIELD(series.metrics), NULL },
    { "workload", "hosts", SET_COUNT, 1, 1000000, FIELD(series.hosts), NULL },
    { "workload", "interval", SET_DURATION, 1, UINT64_MAX, FIELD(series.interval_us), NULL },
    { "workload", "duration", SET_DURATION, 1, UINT64_MAX, FIELD(duration_us), NULL },
    { "workload", "window", SET_DURATION, 1, UINT64_MAX, FIELD(window_us), NULL },
    { "workload", "family_bytes", SET_COUNT, 1, 255, FIELD(family_bytes), NULL },
    { "workload", "qualifier_bytes", SET_COUNT, 0, 65535, FIELD(qualifier_bytes), NULL },
    { "workload", "value_bytes", SET_COUNT, 0, 1u << 30, FIELD(value_bytes), NULL },
};
#undef FIELD
#define NSETTINGS (sizeof settings / sizeof *settings)

static const setting *setting_find(const char *key)
{
    for (size_t i = 0; i < NSETTINGS; i++)
        if (!strcmp(settings[i].key, key))
            return &settings[i];
    return NULL;
}

static void setting_store(scenario *sc, const setting *s, uint64_t v)
{
    unsigned char *field = (unsigned char *)sc + s->offset;
    if (s->width == 8) {
        memcpy(field, &v, 8);
    } else {
        uint32_t v32 = (uint32_t)v;
        memcpy(field, &v32, 4);
    }
}

static int setting_parse_number(const setting *s, const char *value, uint64_t *v)
{
    switch (s->kind) {
    case SET_COUNT: return units_parse_count(value, v);
    case SET_SIZE: return units_parse_size(value, v);
    case SET_DURATION: return units_parse_duration(value, v);
    default: return -1;
    }
}

static int setting_expected(const setting *s, char *err, size_t cap, const char *value)
{
    switch (s->kind) {
    case SET_COUNT:
        snprintf(err, cap, "expected an integer from %llu to %llu, found '%s'",
                 (unsigned long long)s->lo, (unsigned long long)s->hi, value);
        break;
    case SET_SIZE:
        snprintf(err, cap, "expected a size from 1KiB (units B, KiB, MiB, GiB, TiB), "
                 "found '%s'", value);
        break;
    case SET_DURATION:
        snprintf(err, cap, "expected a positive duration with a unit (us, ms, s, m, h), "
                 "found '%s'", value);
        break;
    case SET_CHOICE: {
        char list[128] = "";
        for (const char *const *c = s->choices; *c; c++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     c == s->choices ? "" : " or ", *c);
        snprintf(err, cap, "expected %s, found '%s'", list, value);
        break;
    }
    case SET_NAME:
        snprintf(err, cap, "expected a name, found '%s'", value);
        break;
    }
    return -1;
}

int scenario_set(scenario *sc, const char *section, const char *key, const char *value,
                 char *err, size_t errcap)
{
    const setting *s = setting_find(key);
    if (!s || (section && strcmp(section, s->section) != 0)) {
        char list[512] = "";
        for (size_t i = 0; i < NSETTINGS; i++)
            if (!section || !strcmp(section, settings[i].section))
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                         list[0] ? ", " : "", settings[i].key);
        snprintf(err, errcap, "unknown key '%s'; expected one of: %s", key, list);
        return -2;
    }
    if (s->kind == SET_NAME) {
        const char *copy = value[0] ? scenario_own(sc, value) : NULL;
        if (!copy)
            return setting_expected(s, err, errcap, value);
        sc->name = copy;
        return 0;
    }
    if (s->kind == SET_CHOICE) {
        for (size_t i = 0; s->choices[i]; i++) {
            if (!strcmp(value, s->choices[i])) {
                setting_store(sc, s, i);
                return 0;
            }
        }
        return setting_expected(s, err, errcap, value);
    }
    uint64_t v;
    if (setting_parse_number(s, value, &v) < 0 || v < s->lo || v > s->hi)
        return setting_expected(s, err, errcap, value);
    setting_store(sc, s, v);
    return 0;
}

/* ---- scenario files ---- */

typedef struct scheme_section {
    char name[64];
    int line;
    int has_key;
} scheme_section;

typedef struct file_reader {
    FILE *f;
    const char *path;
    scenario *sc;
    int line;                 /* line the reader handed out last */
    int failed;
    char *err;
    size_t errcap;
    int file_has_schemes;     /* the first scheme section replaces the defaults */
    scheme_section sections[SCENARIO_MAX_SCHEMES];
    size_t nsections;
} file_reader;

static int file_fail(file_reader *fr, int line, const char *what)
{
    if (!fr->failed)
        snprintf(fr->err, fr->errcap, "%s:%d: %s", fr->path, line, what);
    fr->failed = 1;
    return 0;
}

/* inih's line source: counts lines and notes [scheme NAME] headers, so that
 * a scheme section with no key can be reported too. */
static char *file_read_line(char *buf, int size, void *stream)
{
    file_reader *fr = stream;
    char *s = fgets(buf, size, fr->f);
    if (!s)
        return NULL;
    fr->line++;
    if (!strchr(s, '\n') && !feof(fr->f))
        file_fail(fr, fr->line, "line too long (at most 200 characters)");
    const char *p = s + strspn(s, " \t");
    if (!strncmp(p, "[scheme ", 8) && fr->nsections < SCENARIO_MAX_SCHEMES) {
        scheme_section *ss = &fr->sections[fr->nsections++];
        size_t n = strcspn(p + 8, "]");
        snprintf(ss->name, sizeof ss->name, "%.*s", (int)n, p + 8);
        ss->line = fr->line;
        ss->has_key = 0;
    }
    return s;
}

static int file_scheme_entry(file_reader *fr, const char *name, const char *key,
                             const char *value)
{
    char msg[256];
    if (strcmp(key, "key") != 0) {
        snprintf(msg, sizeof msg, "unknown key '%s' in [scheme %s]; expected key = EXPRESSION",
                 key, name);
        return file_fail(fr, fr->line, msg);
    }
    scheme_section *ss = fr->nsections ? &fr->sections[fr->nsections - 1] : NULL;
    if (ss && ss->has_key) {
        snprintf(msg, sizeof msg, "[scheme %s] has a second 'key'", name);
        return file_fail(fr, fr->line, msg);
    }
    if (!fr->file_has_schemes)
        fr->sc->nschemes = 0;
    fr->file_has_schemes = 1;
    const char *label = scenario_own(fr->sc, name), *text = scenario_own(fr->sc, value);
    if (!label || !text || scenario_add_scheme(fr->sc, label, text) < 0)
        return file_fail(fr, fr->line, "too many schemes (at most 64)");
    if (ss)
        ss->has_key = 1;
    return 1;
}

static int file_entry(void *user, const char *section, const char *key, const char *value)
{
    file_reader *fr = user;
    if (fr->failed)
        return 1;
    if (!strncmp(section, "scheme ", 7) && section[7])
        return file_scheme_entry(fr, section + 7, key, value);
    if (strcmp(section, "") && strcmp(section, "cluster") && strcmp(section, "workload")) {
        char msg[160];
        snprintf(msg, sizeof msg, "unknown section [%.64s]; expected [cluster], [workload] "
                 "or [scheme NAME]", section);
        return file_fail(fr, fr->line, msg);
    }
    char why[640], msg[768];
    int rc = scenario_set(fr->sc, section, key, value, why, sizeof why);
    if (rc == 0)
        return 1;
    if (rc == -2 && setting_find(key))
        snprintf(why, sizeof why, "'%s' belongs in [%s], not in [%s]", key,
                 setting_find(key)->section, section);
    if (section[0])
        snprintf(msg, sizeof msg, "[%s] %s: %s", section, key, why);
    else
        snprintf(msg, sizeof msg, "%s: %s", key, why);
    return file_fail(fr, fr->line, msg);
}

int scenario_load(scenario *sc, const char *path, char *err, size_t errcap)
{
    file_reader fr;
    memset(&fr, 0, sizeof fr);
    fr.f = fopen(path, "r");
    if (!fr.f) {
        snprintf(err, errcap, "%s: cannot open the scenario file", path);
        return -1;
    }
    fr.path = path;
    fr.sc = sc;
    fr.err = err;
    fr.errcap = errcap;
    const char *name_before = sc->name;
    int line = ini_parse_stream(file_read_line, &fr, file_entry, &fr);
    fclose(fr.f);
    if (line != 0 && !fr.failed) {
        char msg[64];
        snprintf(msg, sizeof msg, "expected '[section]' or 'key = value'");
        file_fail(&fr, line, msg);
    }
    for (size_t i = 0; i < fr.nsections && !fr.failed; i++) {
        if (!fr.sections[i].has_key) {
            char msg[128];
            snprintf(msg, sizeof msg, "[scheme %s] has no 'key = EXPRESSION'",
                     fr.sections[i].name);
            file_fail(&fr, fr.sections[i].line, msg);
        }
    }
    if (fr.failed)
        return -1;
    if (sc->name == name_before) { /* the file did not name itself */
        const char *base = strrchr(path, '/');
        const char *own = scenario_own(sc, base ? base + 1 : path);
        sc->name = own ? own : sc->name;
    }
    return 0;
}

/* ---- derived values and checks ---- */

uint64_t scenario_cell_overhead(const scenario *sc)
{
    return 20ull + sc->family_bytes + sc->qualifier_bytes + sc->value_bytes;
}

int scenario_scheme_expr(const scenario *sc, size_t i, char *out, size_t cap)
{
    if (keyscheme_preset_expr(sc->schemes[i].text, sc->servers, out, cap) == 0)
        return 1;
    snprintf(out, cap, "%s", sc->schemes[i].text);
    return 0;
}

const char *scenario_scheme_label(const scenario *sc, size_t i)
{
    return sc->schemes[i].label ? sc->schemes[i].label : sc->schemes[i].text;
}

static int fail(char *err, size_t cap, const char *what)
{
    snprintf(err, cap, "%s", what);
    return -1;
}

int scenario_validate(const scenario *sc, char *err, size_t errcap)
{
    if (sc->duration_us / sc->window_us > 1000000)
        return fail(err, errcap, "window: at most 1,000,000 windows per run");
    if ((uint64_t)sc->series.metrics * sc->series.hosts > UINT32_MAX)
        return fail(err, errcap, "metrics x hosts: at most 4294967295 series");
    if (sc->nschemes == 0)
        return fail(err, errcap, "schemes: expected at least one");
    for (size_t i = 0; i < sc->nschemes; i++) {
        char expr[1024], why[512];
        keyscheme *ks;
        scenario_scheme_expr(sc, i, expr, sizeof expr);
        if (keyscheme_parse(expr, &ks, why, sizeof why) < 0) {
            snprintf(err, errcap, "scheme '%s': %s", scenario_scheme_label(sc, i), why);
            return -1;
        }
        keyscheme_free(ks);
    }
    return 0;
}
