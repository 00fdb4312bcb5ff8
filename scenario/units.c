/* units.c -- strict parsing of counts, sizes and durations. */
#include "scenario/units.h"

#include <stdio.h>

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct unit {
    const char *suffix;
    uint64_t scale;
} unit;

/* Digits, then one of `units` (or nothing when allowed), nothing else. */
static int parse_scaled(const char *text, const unit *units, size_t nunits,
                        int unit_required, uint64_t *out)
{
    if (text[0] < '0' || text[0] > '9')
        return -1; /* strtoull would accept spaces and signs */
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno == ERANGE)
        return -1;
    uint64_t scale = 1;
    if (*end || unit_required) {
        size_t i = 0;
        while (i < nunits && strcmp(end, units[i].suffix) != 0)
            i++;
        if (i == nunits)
            return -1;
        scale = units[i].scale;
    }
    if (v > UINT64_MAX / scale)
        return -1;
    *out = (uint64_t)v * scale;
    return 0;
}

int units_parse_count(const char *text, uint64_t *out)
{
    return parse_scaled(text, NULL, 0, 0, out);
}

int units_parse_size(const char *text, uint64_t *out)
{
    static const unit sizes[] = {
        { "B", 1 }, { "KiB", 1ull << 10 }, { "MiB", 1ull << 20 },
        { "GiB", 1ull << 30 }, { "TiB", 1ull << 40 },
    };
    return parse_scaled(text, sizes, sizeof sizes / sizeof *sizes, 0, out);
}

int units_parse_duration(const char *text, uint64_t *out_us)
{
    static const unit durations[] = {
        { "us", 1 }, { "ms", 1000 }, { "s", 1000000 },
        { "m", 60000000 }, { "h", 3600000000ull }, { "d", 86400000000ull },
    };
    return parse_scaled(text, durations, sizeof durations / sizeof *durations, 1, out_us);
}

void units_format_duration(uint64_t us, char *out, size_t cap)
{
    static const struct { const char *unit; uint64_t us; } units[] = {
        { "d", 86400000000ull }, { "h", 3600000000ull }, { "m", 60000000ull }, { "s", 1000000ull }, { "ms", 1000ull },
    };
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        if (us && us % units[i].us == 0) {
            snprintf(out, cap, "%llu%s", (unsigned long long)(us / units[i].us), units[i].unit);
            return;
        }
    }
    snprintf(out, cap, us ? "%lluus" : "0s", (unsigned long long)us);
}

void units_format_size(uint64_t bytes, char *out, size_t cap)
{
    size_text(bytes, out, cap);
}
