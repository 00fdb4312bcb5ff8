/* verdict.c -- a spread's words, from the thresholds in verdict.h.
 *
 * The class is a function of max/mean alone; the words add the window
 * figure (a hotspot that moves is even over the run and uneven in every
 * window) and the busiest server's share, which only the caller has.
 */
#include "reports/verdict.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "reports/format.h"
#include "reports/stats.h"

spread_class verdict_spread(double max_mean, uint32_t nservers)
{
    if (isnan(max_mean))
        return SPREAD_UNDEFINED;
    /* on 2 or 3 servers half of n is at or below VERDICT_UNEVEN: an even
     * spread of 2 is not "one server" */
    double one = fmax(VERDICT_ONE_SERVER * nservers, VERDICT_UNEVEN);
    if (nservers >= 2 && max_mean >= one)
        return SPREAD_ONE_SERVER;
    if (max_mean >= VERDICT_UNEVEN)
        return SPREAD_UNEVEN;
    if (max_mean > VERDICT_EVEN)
        return SPREAD_NEARLY_EVEN;
    return SPREAD_EVEN;
}

const char *verdict_spread_word(spread_class c)
{
    switch (c) {
    case SPREAD_EVEN: return "even";
    case SPREAD_NEARLY_EVEN: return "nearly even";
    case SPREAD_UNEVEN: return "uneven";
    case SPREAD_ONE_SERVER: return "on one server";
    case SPREAD_UNDEFINED: break;
    }
    return "unmeasured";
}

/* Which of verdict_spread_words' phrases max/mean mm and window max/mean
 * wm earn on n servers: the one rule its words and the seeds' count share. */
typedef enum phrase {
    PHRASE_UNMEASURED, PHRASE_ONE_SERVER, PHRASE_ONE_AT_A_TIME, PHRASE_UNEVEN,
    PHRASE_UNEVEN_WINDOWS, PHRASE_EVEN, PHRASE_NEARLY_EVEN,
} phrase;

static phrase phrase_of(double mm, double wm, uint32_t n)
{
    spread_class run = verdict_spread(mm, n), window = verdict_spread(wm, n);
    if (run == SPREAD_UNDEFINED)
        return PHRASE_UNMEASURED;
    if (run == SPREAD_ONE_SERVER)
        return PHRASE_ONE_SERVER;
    if (window == SPREAD_ONE_SERVER)
        return PHRASE_ONE_AT_A_TIME;
    if (run == SPREAD_UNEVEN)
        return PHRASE_UNEVEN;
    if (window == SPREAD_UNEVEN)
        return PHRASE_UNEVEN_WINDOWS;
    if (run == SPREAD_EVEN && window != SPREAD_NEARLY_EVEN)
        return PHRASE_EVEN;
    return PHRASE_NEARLY_EVEN;
}

void verdict_spread_words(char *buf, size_t cap, const char *what, double mm, double wm,
                          double hottest, uint32_t n)
{
    char a[CELL], b[CELL];
    size_t at = strnlen(buf, cap);
    if (at >= cap)
        return;
    switch (phrase_of(mm, wm, n)) {
    case PHRASE_UNMEASURED:
        snprintf(buf + at, cap - at, "%s unmeasured", what);
        break;
    case PHRASE_ONE_SERVER:
        snprintf(buf + at, cap - at, "one server takes the %s (max/mean %s of %" PRIu32 ")", what,
                 fmt_fixed(a, mm, 2), n);
        break;
    case PHRASE_ONE_AT_A_TIME:
        snprintf(buf + at, cap - at, "one server at a time takes the %s (window max/mean %s of %"
                 PRIu32 ")", what, fmt_fixed(a, wm, 2), n);
        break;
    case PHRASE_UNEVEN:
        snprintf(buf + at, cap - at, "%s uneven: the busiest server takes %s (max/mean %s)", what,
                 fmt_percent(b, hottest), fmt_fixed(a, mm, 2));
        break;
    case PHRASE_UNEVEN_WINDOWS:
        snprintf(buf + at, cap - at, "%s even over the run, uneven in each window (window "
                 "max/mean %s)", what, fmt_fixed(a, wm, 2));
        break;
    case PHRASE_EVEN:
        snprintf(buf + at, cap - at, "%s even", what);
        break;
    case PHRASE_NEARLY_EVEN:
        snprintf(buf + at, cap - at, "%s nearly even (max/mean %s)", what,
                 fmt_fixed(a, isfinite(wm) && wm > mm ? wm : mm, 2));
        break;
    }
}

void verdict_seeds_words(char *buf, size_t cap, const double *mm, const double *wm,
                         size_t nseeds, double med_mm, double med_wm, uint32_t n)
{
    size_t at = strnlen(buf, cap);
    if (nseeds < 2 || at >= cap)
        return;
    phrase median = phrase_of(med_mm, med_wm, n);
    size_t same = 0;
    double lo = NAN, hi = NAN;
    for (size_t i = 0; i < nseeds; i++) {
        same += phrase_of(mm[i], wm ? wm[i] : NAN, n) == median;
        if (!isnan(mm[i])) {
            lo = isnan(lo) || mm[i] < lo ? mm[i] : lo;
            hi = isnan(hi) || mm[i] > hi ? mm[i] : hi;
        }
    }
    char a[CELL], b[CELL], range[3 * CELL] = "";
    fmt_fixed(a, lo, 2);
    fmt_fixed(b, hi, 2);
    if (!isnan(lo) && strcmp(a, b))
        snprintf(range, sizeof range, " (max/mean %s-%s)", a, b);
    if (same == nseeds)
        snprintf(buf + at, cap - at, "; so in all %zu seeds%s", nseeds, range);
    else
        snprintf(buf + at, cap - at, "; so in %zu of %zu seeds%s", same, nseeds, range);
}

int verdict_overloaded(const run_result *run)
{
    if (!run->duration_us || run->offered_per_s <= 0)
        return 0;
    return stats_busiest(run) > VERDICT_OVERLOAD_BUSY ||
           run->achieved_per_s < VERDICT_OVERLOAD_DONE * run->offered_per_s;
}

void verdict_overload_words(char *buf, size_t cap, double achieved, double offered,
                            double busiest)
{
    char a[CELL], b[CELL], c[CELL];
    snprintf(buf, cap, "overloaded: %s of %s ops/s done, busiest server %s busy",
             fmt_fixed(a, achieved, 0), fmt_fixed(b, offered, 0), fmt_percent(c, busiest));
}

int verdict_overload_note(char *buf, size_t cap, const run_result *run)
{
    if (cap)
        buf[0] = '\0';
    if (!verdict_overloaded(run))
        return 0;
    verdict_overload_words(buf, cap, run->achieved_per_s, run->offered_per_s,
                           stats_busiest(run));
    return 1;
}

int verdict_drain_note(char *buf, size_t cap, const run_result *run)
{
    static const char *const names[] = { "p99", "p99.9", "max" };
    const latency_summary *l = &run->latency;
    uint64_t quantiles[] = { l->p99_us, l->p999_us, l->max_us };
    uint64_t span = run->duration_us - run->measure_from_us;
    char a[CELL], b[CELL];
    if (cap)
        buf[0] = '\0';
    if (l->count == 0 || l->max_us <= span)
        return 0;
    size_t q = 0;
    while (quantiles[q] <= span) /* the max is longer: it ends the loop */
        q++;
    const char *were = run->unfinished == 1 ? "operation was" : "operations were";
    if (run->measure_from_us)
        snprintf(buf, cap, "%s %s is longer than the %s measured: %" PRIu64 " %s still queued "
                 "at the run's end and drained after it, with no new arrivals", names[q],
                 fmt_latency(a, quantiles[q]), fmt_duration(b, span), run->unfinished, were);
    else
        snprintf(buf, cap, "%s %s is longer than the %s run: %" PRIu64 " %s still queued at its "
                 "end and drained after it, with no new arrivals", names[q],
                 fmt_latency(a, quantiles[q]), fmt_duration(b, span), run->unfinished, were);
    return 1;
}
