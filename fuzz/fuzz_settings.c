/* fuzz_settings.c -- values as users write them: scenario/units.h and
 * scenario_set on every setting of the settings table.
 *
 * Input: one value (up to its first NUL byte, at most 256 bytes used as
 * text); its first 8 bytes are also taken as a number to format.
 *
 * Oracles:
 *  - units_parse_count, _size, _duration: a value accepted formats
 *    (%llu, units_format_size, units_format_duration) to text that parses
 *    back to the same value; a size or duration accepted without a unit
 *    is the count;
 *  - any 64-bit number formats to a size and a duration that parse back to
 *    it;
 *  - scenario_set of every key with the value: 0, or -1 with a message
 *    "expected ..., found '...'" (never -2: the key exists); the same
 *    with the key's section, -2 with another section; a value accepted
 *    formats (scenario_format_value) to one that is accepted and formats
 *    the same; the value as a key: -2 unless it is a setting's key, with
 *    "unknown key '...'";
 *  - advise's weights (advise_parse_weights, --weights and [advise]
 *    weights): a list accepted names each weight once, each 0..1e6, not
 *    all 0, and leaves the others as they were; written back as
 *    "NAME=%.17g,..." it parses to the same weights; given again after
 *    itself (the names so far kept) it is refused as a weight named twice;
 *    a refused one leaves the weights untouched, and its message holds no
 *    control byte.
 */
#include "fuzz/fuzz.h"

#include "planners/advise.h"
#include "scenario/scenario.h"
#include "scenario/units.h"

#define VALUE_MAX 256

typedef int (*parse_fn)(const char *, uint64_t *);

static void check_units(const char *v)
{
    static const struct { const char *name; parse_fn parse; int kind; } parsers[] = {
        { "count", units_parse_count, 0 },
        { "size", units_parse_size, 1 },
        { "duration", units_parse_duration, 2 },
    };
    for (size_t i = 0; i < sizeof parsers / sizeof parsers[0]; i++) {
        uint64_t x = 0, back = 0;
        char text[64];
        if (parsers[i].parse(v, &x) < 0)
            continue;
        if (parsers[i].kind == 0)
            snprintf(text, sizeof text, "%llu", (unsigned long long)x);
        else if (parsers[i].kind == 1)
            units_format_size(x, text, sizeof text);
        else
            units_format_duration(x, text, sizeof text);
        FUZZ_CHECK(parsers[i].parse(text, &back) == 0 && back == x,
                   "units_parse_%s('%s') = %llu formats as '%s', which does not parse back",
                   parsers[i].name, v, (unsigned long long)x, text);
    }
    uint64_t c, s;
    if (units_parse_count(v, &c) == 0 && units_parse_size(v, &s) == 0)
        FUZZ_CHECK(c == s, "'%s': count %llu, size %llu", v, (unsigned long long)c,
                   (unsigned long long)s);
}

static void check_number(uint64_t x)
{
    char text[64];
    uint64_t back = 0;
    units_format_size(x, text, sizeof text);
    FUZZ_CHECK(units_parse_size(text, &back) == 0 && back == x,
               "size %llu formats as '%s', which does not parse back", (unsigned long long)x, text);
    units_format_duration(x, text, sizeof text);
    FUZZ_CHECK(units_parse_duration(text, &back) == 0 && back == x,
               "duration %llu us formats as '%s', which does not parse back",
               (unsigned long long)x, text);
}

static void check_setting(const setting_doc *d, const char *v)
{
    char err[1024], out[4096], out2[4096];
    scenario sc;
    scenario_defaults(&sc);
    err[0] = '\0';
    int rc = scenario_set(&sc, NULL, d->key, v, err, sizeof err);
    FUZZ_CHECK(rc == 0 || rc == -1, "scenario_set(%s, '%s') returned %d", d->key, v, rc);
    if (rc < 0)
        FUZZ_CHECK(!strncmp(err, "expected ", 9) && strstr(err, ", found '"),
                   "%s = '%s' refused with '%s': not \"expected ..., found '<value>'\"",
                   d->key, v, err);
    scenario sc2;
    scenario_defaults(&sc2);
    int rc2 = scenario_set(&sc2, d->section, d->key, v, err, sizeof err);
    FUZZ_CHECK(rc2 == rc, "%s = '%s': %d without its section [%s], %d with it", d->key, v, rc,
               d->section, rc2);
    scenario_release(&sc2);
    scenario_defaults(&sc2);
    const char *other = d->section[0] ? "" : "cluster";
    FUZZ_CHECK(scenario_set(&sc2, other, d->key, v, err, sizeof err) == -2,
               "%s accepted in section [%s]", d->key, other);
    scenario_release(&sc2);
    if (rc == 0) {
        FUZZ_CHECK(scenario_format_value(&sc, d->key, out, sizeof out) == 0, "no formatter for %s",
                   d->key);
        if (out[0]) {
            scenario_defaults(&sc2);
            FUZZ_CHECK(scenario_set(&sc2, NULL, d->key, out, err, sizeof err) == 0,
                       "%s = '%s' formats as '%s', which is refused: %s", d->key, v, out, err);
            FUZZ_CHECK(scenario_format_value(&sc2, d->key, out2, sizeof out2) == 0 &&
                       !strcmp(out, out2), "%s = '%s' formats as '%s', then as '%s'", d->key, v,
                       out, out2);
            scenario_release(&sc2);
        }
    }
    scenario_release(&sc);
}

static void check_weights(const char *v)
{
    advise_weights w, before;
    advise_default_weights(&w);
    before = w;
    unsigned named = 0;
    char err[1024], back[512];
    if (advise_parse_weights(v, &w, &named, err, sizeof err) < 0) {
        FUZZ_CHECK(!memcmp(&w, &before, sizeof w) && named == 0,
                   "'%s' refused (%s), yet the weights changed", v, err);
        for (const char *c = err; *c; c++)
            FUZZ_CHECK((unsigned char)*c >= 0x20 && *c != 0x7f,
                       "a control byte in the message of '%s'", v);
        return;
    }
    double sum = 0;
    size_t at = 0;
    for (int g = 0; g < ADVISE_GROUPS; g++) {
        FUZZ_CHECK(w.w[g] >= 0 && w.w[g] <= 1e6, "'%s': %s = %g", v,
                   advise_group_name((advise_group)g), w.w[g]);
        sum += w.w[g];
        if (named & 1u << g)
            at += (size_t)snprintf(back + at, sizeof back - at, "%s%s=%.17g", at ? "," : "",
                                   advise_group_name((advise_group)g), w.w[g]);
        else
            FUZZ_CHECK(w.w[g] == before.w[g], "'%s' changed %s, which it does not name", v,
                       advise_group_name((advise_group)g));
    }
    FUZZ_CHECK(sum > 0 && named != 0, "'%s' accepted with weights summing to %g", v, sum);
    advise_weights again;
    advise_default_weights(&again);
    FUZZ_CHECK(advise_parse_weights(back, &again, NULL, err, sizeof err) == 0 &&
               !memcmp(&again, &w, sizeof w), "'%s' written back as '%s' does not parse to the "
               "same weights", v, back);
    FUZZ_CHECK(advise_parse_weights(v, &again, &named, err, sizeof err) < 0 &&
               strstr(err, "named twice"), "'%s' given twice was not refused: %s", v, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *v = fuzz_cstr(data, size < VALUE_MAX ? size : VALUE_MAX);
    uint64_t x = 0;
    for (size_t i = 0; i < 8 && i < size; i++)
        x = x << 8 | data[i];
    check_number(x);
    check_units(v);
    check_weights(v);
    int is_key = 0;
    for (size_t i = 0; i < scenario_setting_count(); i++) {
        setting_doc d = scenario_setting_doc(i);
        is_key |= !strcmp(d.key, v);
        check_setting(&d, v);
    }
    if (!is_key) {
        char err[4096];
        scenario sc;
        scenario_defaults(&sc);
        FUZZ_CHECK(scenario_set(&sc, NULL, v, "1", err, sizeof err) == -2 &&
                   !strncmp(err, "unknown key '", 13),
                   "'%s' is no setting's key, yet: '%s'", v, err);
        scenario_release(&sc);
    }
    free(v);
    return 0;
}
