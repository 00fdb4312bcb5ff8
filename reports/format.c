/* format.c -- figures and strings for the human reports. See format.h. */
#include "reports/format.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* x with `decimals` decimals, or "-" when undefined. */
void report_out_of_memory(void)
{
    fputs("regionsim: out of memory writing the report\n", stderr);
    exit(2);
}

const char *fmt_fixed(char *buf, double x, int decimals)
{
    if (!isfinite(x)) return strcpy(buf, "-");
    snprintf(buf, CELL, "%.*f", decimals, x);
    return buf;
}

/* A share 0..1 as a percentage, or "-". */
const char *fmt_percent(char *buf, double share)
{
    if (!isfinite(share)) return strcpy(buf, "-");
    snprintf(buf, CELL, "%.1f%%", share * 100.0);
    return buf;
}

const char *fmt_figure(char *buf, const figure *f, double v)
{
    return fmt_fixed(buf, v, f->decimals);
}

const char *fmt_number(char *buf, double v)
{
    if (!isfinite(v))
        return strcpy(buf, "");
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        snprintf(buf, CELL, "%.0f", v);
    else
        snprintf(buf, CELL, "%.6g", v);
    return buf;
}

/* v in the largest unit it reaches: exact as an integer ("4 MiB", "5 min"),
 * else with one decimal ("1.5 GiB"). sizes[] ascends; names[] ends with NULL. */
static const char *fmt_units(char *buf, uint64_t v, const char *const *names,
                              const uint64_t *sizes)
{
    size_t u = 0;
    while (names[u + 1] && v >= sizes[u + 1]) u++;
    if (v % sizes[u] == 0)
        snprintf(buf, CELL, "%" PRIu64 " %s", v / sizes[u], names[u]);
    else
        snprintf(buf, CELL, "%.1f %s", (double)v / (double)sizes[u], names[u]);
    return buf;
}

const char *fmt_bytes(char *buf, uint64_t bytes)
{
    const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB", NULL };
    static const uint64_t sizes[] = { 1, 1ull << 10, 1ull << 20, 1ull << 30, 1ull << 40 };
    return fmt_units(buf, bytes, names, sizes);
}

const char *fmt_duration(char *buf, uint64_t us)
{
    const char *const names[] = { "us", "ms", "s", "min", "h", "d", NULL };
    static const uint64_t sizes[] = { 1, 1000, 1000000, 60000000, 3600000000ull,
                                      86400000000ull };
    return fmt_units(buf, us, names, sizes);
}

/* A latency: "850 us", "12.3 ms", "1.25 s"; "-" for UINT64_MAX (none). */
const char *fmt_latency(char *buf, uint64_t us)
{
    if (us == UINT64_MAX)
        return strcpy(buf, "-");
    /* Three significant digits; a value that rounds up to the next unit
     * (999,950 us) is shown in that unit ("1 s", not "1e+03 ms"). */
    if (us < 1000)
        snprintf(buf, CELL, "%" PRIu64 " us", us);
    else if (us < 999500)
        snprintf(buf, CELL, "%.3g ms", (double)us / 1e3);
    else if (us < 999500000)
        snprintf(buf, CELL, "%.3g s", (double)us / 1e6);
    else
        snprintf(buf, CELL, "%.0f s", (double)us / 1e6);
    return buf;
}

/* s cut to at most `cols` characters, ending in "..." when cut. For a key in
 * shell form, a cut never splits a \xNN escape (every '\' starts one). */
const char *fmt_cut(char *buf, const char *s, size_t cols)
{
    assert(cols >= 4 && cols < CELL);
    if (!s) s = "-";
    size_t len = strlen(s);
    if (len <= cols) return strcpy(buf, s);

    size_t keep = 0, limit = cols - 3;
    while (keep < len) {
        size_t tok = (s[keep] == '\\' && s[keep + 1] == 'x') ? 4 : 1;
        if (keep + tok > limit) break;
        keep += tok;
    }
    memcpy(buf, s, keep);
    strcpy(buf + keep, "...");
    return buf;
}

const char *fmt_clock(char *buf, uint64_t us)
{
    if (us > 0 && us < 1000000)
        snprintf(buf, CELL, "%.3fs", (double)us / 1e6);
    else
        snprintf(buf, CELL, "%" PRIu64 "m%02" PRIu64 "s", us / 60000000, us / 1000000 % 60);
    return buf;
}

size_t utf8_sequence_len(const unsigned char *p)
{
    unsigned char c = p[0], lo = 0x80, hi = 0xBF;
    size_t n = c < 0x80 ? 1 : c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
    if (c == 0xE0) lo = 0xA0;
    else if (c == 0xED) hi = 0x9F;
    else if (c == 0xF0) lo = 0x90;
    else if (c == 0xF4) hi = 0x8F;
    if (n > 1 && (p[1] < lo || p[1] > hi)) return 0;
    for (size_t i = 2; i < n; i++)
        if ((p[i] & 0xC0) != 0x80) return 0;
    return n;
}

int xml_forbids(const unsigned char *p, size_t n)
{
    if (n == 1) return p[0] < 0x20 && p[0] != '\t' && p[0] != '\n' && p[0] != '\r';
    return n == 3 && p[0] == 0xEF && p[1] == 0xBF && p[2] >= 0xBE;
}

const char *fmt_balancer_run(char *buf, size_t cap, const balancer_report *b)
{
    char avg[CELL], c0[CELL], c1[CELL];
    int n = snprintf(buf, cap, "%s (%s)", b->ran ? "ran" : "skipped",
                     balancer_reason_text(b->reason));
    size_t used = n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
    int counted = balancer_report_counted(b);
    if (b->reason == BALANCER_IN_TRANSITION)
        used += (size_t)snprintf(buf + used, cap - used, ": %" PRIu64 " regions in transition",
                                 b->in_transition);
    else if (counted)
        used += (size_t)snprintf(buf + used, cap - used, ": %" PRIu64 "-%" PRIu64
                                 " regions a server, average %s, slop [%" PRId64 ", %" PRId64
                                 "]", b->least, b->most, fmt_fixed(avg, b->average, 2),
                                 b->floor, b->ceiling);
    if (used < cap && b->kind == BALANCER_STOCHASTIC && counted)
        used += (size_t)snprintf(buf + used, cap - used, ", cost %s%s%s",
                                 fmt_fixed(c0, b->cost_before, 4), b->ran ? " -> " : "",
                                 b->ran ? fmt_fixed(c1, b->cost_after, 4) : "");
    if (used < cap && b->ran)
        snprintf(buf + used, cap - used, "; %" PRIu64 " moved", b->moves);
    return buf;
}
