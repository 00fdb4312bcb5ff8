/* fuzz_sweep.c -- a scenario file's [sweep] section (scenario/sweep.h):
 * sweep_load_text, sweep_value, sweep_point_label, sweep_substitute.
 *
 * Input: a scenario file with (or without) a [sweep] section.
 *
 * Oracles:
 *  - a refused file's message is "x.ini:LINE: ..." with LINE a line of
 *    the file (1 .. its line count), or "x.ini: ..." for what concerns
 *    the whole file (no [sweep] section, no variable);
 *  - an accepted sweep has 1 to SWEEP_MAX_POINTS points, exactly the
 *    product of its variables' value counts; every value is 1 to
 *    SWEEP_VALUE_MAX - 1 characters with no '$' and no control byte;
 *  - the first and the last point's text substitutes without error and
 *    has exactly the input's line ends (line numbers are kept), and the
 *    point's label names every variable.
 * The points' scenarios are not built here: fuzz_scenario reads scenario
 * files (which is what a point's text is).
 */
#include "fuzz/fuzz.h"

#include <ctype.h>

#include "scenario/sweep.h"

static size_t count_byte(const char *s, size_t n, char c)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == c;
    return k;
}

static void check_point(const sweep *sw, size_t p, const char *text, size_t size)
{
    char *out, err[1024], label[2048];
    size_t len;
    FUZZ_CHECK(sweep_substitute(sw, p, &out, &len, err, sizeof err) == 0, "refused: %s", err);
    FUZZ_CHECK(count_byte(out, len, '\n') == count_byte(text, size, '\n'),
               "point %zu: line ends changed", p);
    free(out);
    sweep_point_label(sw, p, label, sizeof label);
    for (size_t v = 0; v < sw->nvars; v++)
        FUZZ_CHECK(strstr(label, sw->vars[v].name) != NULL, "label '%s' lacks %s", label,
                   sw->vars[v].name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    const char *text = (const char *)data;
    sweep sw;
    char err[1024];
    if (sweep_load_text(&sw, "x.ini", text, size, err, sizeof err) < 0) {
        FUZZ_CHECK(!strncmp(err, "x.ini:", 6), "message without its file: %s", err);
        if (isdigit((unsigned char)err[6])) {
            long line = strtol(err + 6, NULL, 10);
            long lines = (long)count_byte(text, size, '\n') + 1;
            FUZZ_CHECK(line >= 1 && line <= lines, "line %ld of %ld: %s", line, lines, err);
        } else {
            FUZZ_CHECK(err[6] == ' ', "neither a line nor the file: %s", err);
        }
        return 0;
    }
    size_t product = 1;
    for (size_t v = 0; v < sw.nvars; v++) {
        product *= sw.vars[v].nvalues;
        for (size_t k = 0; k < sw.vars[v].nvalues; k++) {
            const char *val = sw.vars[v].values[k];
            size_t n = strlen(val);
            FUZZ_CHECK(n >= 1 && n < SWEEP_VALUE_MAX, "value of %zu characters", n);
            for (size_t i = 0; i < n; i++)
                FUZZ_CHECK(val[i] != '$' && !iscntrl((unsigned char)val[i]), "value '%s'", val);
        }
    }
    FUZZ_CHECK(sw.npoints >= 1 && sw.npoints <= SWEEP_MAX_POINTS && sw.npoints == product,
               "%zu points, product %zu", sw.npoints, product);
    check_point(&sw, 0, text, size);
    check_point(&sw, sw.npoints - 1, text, size);
    sweep_release(&sw);
    return 0;
}
