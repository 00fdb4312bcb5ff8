/* fuzz_scenario.c -- scenario files (scenario/scenario.h): scenario_load, then
 * scenario_validate.
 *
 * Input: a scenario file (INI), optionally followed by a line "%%" and the
 * contents of a split keys file: the file split_keys_file names, whatever
 * the scenario says, is that part (so a scenario never reads a file of the
 * machine's, such as /dev/zero or a descriptor under /proc/self/fd); the
 * same part is the YCSB property file a `ycsb = FILE` names.
 *
 * Oracles:
 *  - a refused file's message is "FILE:LINE: ..." with the path given and
 *    a LINE of the file (1 .. its line count);
 *  - a YCSB workload (ycsb = W: a stock one, or the second part as its
 *    property file) that scenario_ycsb_build refuses names the property
 *    file's line, the scenario's line, the property file, or "ycsb: ";
 *  - scenario_validate's message names what was wrong: it starts with a
 *    setting's key (followed by ": " or " = "), a phase's name and ": ",
 *    "scheme 'LABEL'" and then "column C: " for a scheme of the scenario
 *    (C within its expression; the label shown escaped, maybe cut short),
 *    "FILE:LINE: " for an event (a line of the file), "schemes: " or
 *    "the workload "; a split keys file's own message inside it
 *    ("presplit: FILE:LINE: ...") names a line of it;
 *  - every setting of a loaded scenario formats (scenario_format_value) to
 *    a value that scenario_set accepts, with and without its section, and
 *    that formats back the same.
 * Validation is skipped for the few scenarios whose checking is legitimately
 * slow or large (a ranked_zipfian or latest over more than 10^6 records is
 * O(records) to build, as are YCSB zipfians over 10^6 items; a jittered
 * time series over 2^20 series allocates 24 bytes each).
 */
#include "fuzz/fuzz.h"

#include "scenario/scenario.h"
#include "scenario/units.h"
#include "workloads/dist.h"
#include "workloads/ycsb_workload.h"

static const char marker[] = "\n%%\n";

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A YCSB workload whose zipfians sum more than 10^6 zeta terms. */
static int ycsb_is_slow_to_build(const ycsb_workload *w)
{
    return (w->core.requestdistribution == YCSB_REQ_LATEST && w->core.recordcount > 1000000) ||
           (w->scanlengthdistribution == YCSB_LENGTH_ZIPFIAN && w->maxscanlength > 1000000) ||
           (w->fieldlengthdistribution == YCSB_LENGTH_ZIPFIAN && w->fieldlength > 1000000);
}

static int validation_is_cheap(const scenario *sc)
{
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        const pattern_config *c = &scenario_phase(sc, i)->pattern;
        if (c->kind == PATTERN_ENTITIES && c->records > 1000000 &&
            (c->distribution == DIST_RANKED_ZIPFIAN || c->distribution == DIST_LATEST))
            return 0;
        if (c->kind == PATTERN_YCSB && ycsb_is_slow_to_build(c->ycsb))
            return 0;
        if (c->kind == PATTERN_TIMESERIES && c->jitter_us > 0 &&
            (uint64_t)c->metrics * c->hosts * c->tags > (1u << 20))
            return 0;
    }
    return 1;
}

/* If s starts with label as messages show it (escape_text: control
 * bytes as \xNN, maybe cut short with "..."), then "'", returns what
 * follows; else NULL. */
static const char *after_label(const char *s, const char *label)
{
    size_t cap = 4 * strlen(label) + 1;
    char *shown = malloc(cap);
    FUZZ_CHECK(shown != NULL, "%s", "out of memory");
    escape_text(label, cap - 1, shown, cap);
    size_t m = 0;
    while (shown[m] && s[m] == shown[m])
        m++;
    const char *rest = NULL;
    if (!shown[m] && s[m] == '\'')
        rest = s + m + 1;
    for (size_t k = m + 1; !rest && k-- > 0;) /* cut: a prefix of it, then "..." */
        if (starts_with(s + k, "...'"))
            rest = s + k + 4;
    free(shown);
    return rest;
}

/* Does the message start with what it is about? */
static void check_validate_message(const scenario *sc, const char *err, const char *path,
                                   size_t lines, const char *keys_path, size_t keys_lines)
{
    unsigned long long line = 0;
    if (starts_with(err, "scheme '")) {
        /* "scheme 'LABEL': column C: ..." or "scheme 'LABEL' (the preset
         * ...): column C: ...", the label escaped (escape_text) and maybe
         * cut short with "..." */
        int named = 0; /* two schemes may share a label: any of them */
        for (size_t i = 0; i < sc->nschemes && !named; i++) {
            const char *rest = after_label(err + 8, scenario_scheme_label(sc, i));
            if (!rest)
                continue;
            if (starts_with(rest, " (the preset "))
                rest = strstr(rest, "): ") ? strstr(rest, "): ") + 1 : NULL;
            size_t cap = strlen(sc->schemes[i].text) + 256;
            char *expr = malloc(cap);
            FUZZ_CHECK(expr != NULL, "%s", "out of memory");
            scenario_scheme_expr(sc, i, expr, cap);
            unsigned long long col = 0;
            named = rest && sscanf(rest, ": column %llu:", &col) == 1 && col >= 1 &&
                    col <= strlen(expr) + 1;
            free(expr);
        }
        FUZZ_CHECK(named, "a scheme's error names no scheme of the scenario and a column of its "
                   "expression: '%s'", err);
        return;
    }
    if (starts_with(err, "schemes: ") || starts_with(err, "the workload "))
        return;
    if (fuzz_after_place(err, path, &line)) { /* an event, where the file defines it */
        FUZZ_CHECK(line >= 1 && line <= lines, "'%s' names no line of the file (%zu lines)", err,
                   lines);
        return;
    }
    for (size_t i = 0; i < scenario_phase_count(sc); i++) {
        char prefix[512];
        snprintf(prefix, sizeof prefix, "%s: ", scenario_phase(sc, i)->name);
        if (starts_with(err, prefix))
            return;
    }
    for (size_t i = 0; i < scenario_setting_count(); i++) {
        const char *key = scenario_setting_doc(i).key;
        size_t kl = strlen(key);
        if (strncmp(err, key, kl) != 0 || (strncmp(err + kl, ": ", 2) && strncmp(err + kl, " = ", 3)))
            continue;
        char nested[128];
        snprintf(nested, sizeof nested, "presplit: %s:", keys_path);
        if (starts_with(err, nested) && err[strlen(nested)] != ' ') {
            FUZZ_CHECK(fuzz_after_place(err + strlen("presplit: "), keys_path, &line) &&
                       line >= 1 && line <= keys_lines,
                       "the split keys file's error names no line of it (%zu lines): '%s'",
                       keys_lines, err);
        }
        return;
    }
    FUZZ_CHECK(0, "scenario_validate's message names no setting, phase or scheme: '%s'", err);
}

/* Lines as java.util.Properties counts them: each ends at "\n", "\r" or
 * "\r\n" (the YCSB property file's messages count so). */
static size_t properties_lines(const uint8_t *data, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i < size; i++) {
        if (data[i] == '\r' && i + 1 < size && data[i + 1] == '\n')
            i++;
        n += data[i] == '\n' || data[i] == '\r';
    }
    return n + (size > 0 && data[size - 1] != '\n' && data[size - 1] != '\r');
}

/* A YCSB workload refused: its property file's or the scenario's line
 * ("FILE:LINE: ..."), the property file itself ("FILE: ..."), or the
 * scenario as a whole ("ycsb: ...", a property without a workload). */
static void check_ycsb_message(const char *err, const char *path, size_t lines,
                               const char *props_path, size_t props_lines)
{
    unsigned long long line = 0;
    if (fuzz_after_place(err, props_path, &line)) {
        FUZZ_CHECK(line >= 1 && line <= props_lines, "'%s' names no line of the property "
                   "file (%zu lines)", err, props_lines);
        return;
    }
    if (fuzz_after_place(err, path, &line)) {
        FUZZ_CHECK(line >= 1 && line <= lines, "'%s' names no line of the file (%zu lines)",
                   err, lines);
        return;
    }
    size_t n = strlen(props_path);
    if (!strncmp(err, props_path, n) && !strncmp(err + n, ": ", 2))
        return;
    FUZZ_CHECK(starts_with(err, "ycsb: ") || starts_with(err, "workload"),
               "a refused YCSB workload's message names no file, line or setting: '%s'", err);
}

/* Every setting's value, formatted, is accepted by scenario_set and
 * formats back the same. */
static void check_format_round_trip(const scenario *sc)
{
    for (size_t i = 0; i < scenario_setting_count(); i++) {
        setting_doc d = scenario_setting_doc(i);
        char v[4096], v2[4096], err[1024];
        FUZZ_CHECK(scenario_format_value(sc, d.key, v, sizeof v) == 0, "no formatter for %s", d.key);
        if (!v[0])
            continue; /* unset */
        for (int with_section = 0; with_section < 2; with_section++) {
            scenario fresh;
            scenario_defaults(&fresh);
            int rc = scenario_set(&fresh, with_section ? d.section : NULL, d.key, v, err, sizeof err);
            FUZZ_CHECK(rc == 0, "%s%s%s = '%s' (as formatted) is refused: %s", d.section,
                       d.section[0] ? "." : "", d.key, v, err);
            FUZZ_CHECK(scenario_format_value(&fresh, d.key, v2, sizeof v2) == 0 && !strcmp(v, v2),
                       "%s: '%s' formats back as '%s'", d.key, v, v2);
            scenario_release(&fresh);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t ini_len = size, keys_at = size;
    for (size_t i = 0; i + sizeof marker - 1 <= size; i++) {
        if (!memcmp(data + i, marker, sizeof marker - 1)) {
            ini_len = i + 1;
            keys_at = i + sizeof marker - 1;
            break;
        }
    }
    char path[64], keys_path[64], err[4096];
    int fd = fuzz_memfile(data, ini_len, path, sizeof path);
    int keys_fd = fuzz_memfile(data + keys_at, size - keys_at, keys_path, sizeof keys_path);
    size_t lines = fuzz_count_lines(data, ini_len);
    size_t keys_lines = fuzz_count_lines(data + keys_at, size - keys_at);

    scenario sc;
    scenario_defaults(&sc);
    err[0] = '\0';
    if (scenario_load(&sc, path, err, sizeof err) < 0) {
        unsigned long long line = 0;
        FUZZ_CHECK(fuzz_after_place(err, path, &line) != NULL,
                   "a refused scenario's message does not start with FILE:LINE: '%s'", err);
        FUZZ_CHECK(line >= 1 && line <= lines,
                   "the message names line %llu of a file of %zu lines: '%s'", line, lines, err);
    } else {
        if (sc.split_keys_file)
            sc.split_keys_file = keys_path;
        if (sc.ycsb_source && !ycsb_builtin_exists(sc.ycsb_source))
            sc.ycsb_source = keys_path; /* the second part as a YCSB property file */
        err[0] = '\0';
        if (scenario_ycsb_build(&sc, err, sizeof err) < 0)
            check_ycsb_message(err, path, lines, keys_path,
                               properties_lines(data + keys_at, size - keys_at));
        else if (validation_is_cheap(&sc) && scenario_validate(&sc, err, sizeof err) < 0)
            check_validate_message(&sc, err, path, lines, keys_path, keys_lines);
        check_format_round_trip(&sc);
    }
    scenario_release(&sc);
    close(keys_fd);
    close(fd);
    return 0;
}
